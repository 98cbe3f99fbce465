#!/usr/bin/env python3
"""Every SIMD helper is `#[inline]`: a `#[target_feature]` function in
src/engine that is not a `pub(crate)` entry point must carry `#[inline]`.

Why: the kernels that take a caller's element type (`encode16<T, W>`, ...)
are generic, so they are compiled in the user's crate, and a helper
without `#[inline]` then stays a call into this crate, its vector
arguments passed through memory. Under LTO (the benchmarks' profile) the
calls were inlined anyway, so no figure showed it; in a user's default
release build (no LTO, 16 codegen units) ULID text ran at 7.8 ns an id
instead of 1.4 and ObjectId hex at 12.5 instead of 1.2 (AMD EPYC family
25 model 1, Zen 3, AVX2). Prints each helper without it and exits 1."""
import os
import re
import sys

missing = []
for root, _, files in os.walk("src/engine"):
    for f in sorted(files):
        if not f.endswith(".rs"):
            continue
        path = os.path.join(root, f)
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        for i, line in enumerate(lines):
            if not line.strip().startswith("#[target_feature"):
                continue
            # The attributes around it, up to the `fn` line.
            start = i
            while start > 0 and lines[start - 1].strip().startswith("#["):
                start -= 1
            end = i
            while not re.search(r"\bfn\b", lines[end]):
                end += 1
            attrs = [l.strip() for l in lines[start:end]]
            signature = lines[end].strip()
            if signature.startswith("pub(crate)"):
                continue
            if not any(a.startswith("#[inline") for a in attrs):
                missing.append(f"{path}:{end + 1}: {signature[:70]}")
for m in missing:
    print(m)
print(f"{len(missing)} target_feature helpers without #[inline]")
sys.exit(1 if missing else 0)
