#!/usr/bin/env python3
"""Every public item of a crate has rustdoc with an example that runs.

    python3 .ci/examples.py check  target/public-api/doc/kuuid.json api/kuuid.no-example.txt
    python3 .ci/examples.py update target/public-api/doc/kuuid.json api/kuuid.no-example.txt

Reads the rustdoc JSON `.ci/public-api` builds, walks what a user can
name from the crate's root (modules, re-exports, types, traits and their
methods, inherent methods, functions, constants, type aliases, macros;
not trait impls, which carry the trait's docs, nor fields and variants,
nor the `guide` modules, prose rendered from docs/*.md),
and lists the items whose docs hold no code block rustdoc runs (a fenced
block without an info string or with only `rust`, `should_panic`,
`editionNNNN`: `ignore`, `no_run`, `text` and other languages do not
count). `check` fails when that list differs from the committed one: an
item added without an example fails, and so does one given an example
while still listed, so the list only ever shrinks to empty on purpose.
"""

import json
import re
import sys
from pathlib import Path

FENCE = re.compile(r"^\s*(```+|~~~+)\s*(.*)$")


def runnable(docs):
    inside = False
    for line in (docs or "").splitlines():
        m = FENCE.match(line)
        if not m:
            continue
        if inside:
            inside = False
            continue
        inside = True
        tags = [t for t in re.split(r"[,\s]+", m.group(2).strip()) if t]
        if all(t in ("rust", "should_panic") or t.startswith("edition") for t in tags):
            return True
    return False


def missing(doc):
    index = doc["index"]
    found, seen = set(), set()

    def kind(item):
        return next(iter(item["inner"]))

    def hidden(item):
        return any("hidden" in str(a) for a in item.get("attrs", []))

    def visit(iid, path):
        item = index.get(str(iid))
        if item is None or (str(iid), path) in seen or hidden(item):
            return
        seen.add((str(iid), path))
        k = kind(item)
        inner = item["inner"][k]
        if k == "module":
            # The guides are prose rendered from docs/*.md, not API.
            if inner.get("is_stripped") or path.endswith("::guide"):
                return
            for child in inner["items"]:
                c = index.get(str(child))
                if c is None or c["visibility"] != "public":
                    continue
                if kind(c) == "use":
                    use = c["inner"]["use"]
                    target = use.get("id")
                    if target is None or str(target) not in index:
                        continue
                    if use.get("is_glob"):
                        for grand in index[str(target)]["inner"]["module"]["items"]:
                            g = index.get(str(grand))
                            if g is not None and g["visibility"] == "public":
                                visit(grand, f"{path}::{g['name']}")
                    else:
                        visit(target, f"{path}::{use['name']}")
                else:
                    visit(child, f"{path}::{c['name']}")
            if not runnable(item.get("docs")) and path.count("::") > 0:
                found.add(f"module {path}")
            return
        if k in ("impl", "use", "variant", "struct_field"):
            return
        if not runnable(item.get("docs")):
            found.add(f"{k} {path}")
        for imp_id in inner.get("impls", []) if isinstance(inner, dict) else []:
            imp = index.get(str(imp_id))
            if imp is None:
                continue
            imp = imp["inner"]["impl"]
            if imp.get("trait") is not None or imp.get("is_synthetic") or imp.get("blanket_impl"):
                continue
            for m in imp["items"]:
                mi = index.get(str(m))
                if mi is not None and mi["visibility"] == "public":
                    visit(m, f"{path}::{mi['name']}")
        if k == "trait":
            for m in inner["items"]:
                mi = index.get(str(m))
                if mi is not None:
                    visit(m, f"{path}::{mi['name']}")

    root = doc["root"]
    visit(root, index[str(root)]["name"])
    return sorted(found)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("check", "update"):
        sys.exit(__doc__)
    mode, json_path, listing = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    now = missing(json.loads(json_path.read_text()))
    if mode == "update":
        listing.write_text("".join(f"{line}\n" for line in now))
        print(f"{listing}: {len(now)} items without a runnable example")
        return 0
    listed = listing.read_text().splitlines() if listing.exists() else []
    added = sorted(set(now) - set(listed))
    fixed = sorted(set(listed) - set(now))
    for line in added:
        print(f"no runnable example: {line}")
    for line in fixed:
        print(f"has an example now, still listed: {line}")
    if added or fixed:
        print(f"{listing} differs: give the new items an example, or drop the fixed ones "
              f"(python3 .ci/examples.py update {json_path} {listing})")
        return 1
    print(f"{listing}: {len(now)} items still without a runnable example, as listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
