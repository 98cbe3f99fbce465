#!/usr/bin/env python3
"""No Rust file over 500 lines: a source file counted up to its first
`#[cfg(test)]` (its own tests may follow), a test file or test support
whole (issue 63, item 17). Prints each file over and exits 1 if any."""
import os
import sys

LIMIT = 500
SKIP = {"target", ".git", "node_modules"}

over = []
for root, dirs, files in os.walk("."):
    dirs[:] = [d for d in dirs if d not in SKIP]
    for f in files:
        if not f.endswith(".rs"):
            continue
        path = os.path.join(root, f)
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        is_test = "/tests/" in path or "/benches/" in path or "/fuzz/" in path
        counted = len(lines)
        if not is_test:
            counted = next((i for i, l in enumerate(lines) if l.strip() == "#[cfg(test)]"), counted)
        if counted > LIMIT:
            what = "lines" if is_test else "lines before its tests"
            over.append(f"{path}: {counted} {what} (at most {LIMIT})")
for o in sorted(over):
    print(o)
print(f"{len(over)} Rust files over {LIMIT} lines")
sys.exit(1 if over else 0)
