#!/usr/bin/env python3
"""Renders the saved `kuuid bench --json` runs in docs/bench/ (one file a
CPU) into one chart and one table:

    python3 docs/bench/render.py           # writes cpus.svg, cpus.md, README's table
    python3 docs/bench/render.py --check   # CI: fails if any of them is stale

The chart: nanoseconds an id of the library's `fill` on one thread, per
engine path and per CPU, with both RNGs (AES-128-CTR, the default, and
xoshiro256++ x8, `Generator::fast`), and each CPU's store limit (a 32-byte
store into an L2-sized buffer) marked: no path can beat it. The table:
the same figures, with decode, `id()` and the limit, one row per path.
Reads only the JSON; nothing here measures.
"""

import json
import sys
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SVG = HERE / "cpus.svg"
TABLE = HERE / "cpus.md"
README = ROOT / "README.md"
BEGIN = "<!-- cpu-table: rendered by docs/bench/render.py from docs/bench/*.json -->"
END = "<!-- /cpu-table -->"

# Paths widest first, as `kuuid bench` runs them.
PATHS = ["avx512", "avx2", "sse41", "neon", "scalar"]
SECURE, FAST = "AES-128-CTR", "xoshiro256++ x8"

# (vendor, family, model) -> microarchitecture, for the CPUs this project
# has met; a run of another shows its numbers only.
UARCH = {
    ("AuthenticAMD", 23, 1): "Zen 1 (Naples)",
    ("AuthenticAMD", 23, 8): "Zen+ (Colfax, Pinnacle Ridge)",
    ("AuthenticAMD", 23, 17): "Zen 1 (Raven Ridge)",
    ("AuthenticAMD", 23, 24): "Zen+ (Picasso)",
    ("AuthenticAMD", 23, 49): "Zen 2 (Rome)",
    ("AuthenticAMD", 23, 113): "Zen 2 (Matisse)",
    ("AuthenticAMD", 25, 1): "Zen 3 (Milan)",
    ("AuthenticAMD", 25, 17): "Zen 4 (Genoa)",
    ("AuthenticAMD", 26, 2): "Zen 5 (Turin)",
    ("GenuineIntel", 6, 143): "Sapphire Rapids",
    ("GenuineIntel", 6, 207): "Emerald Rapids",
}


class Run:
    """One saved run: its header and its figures' medians by name."""

    def __init__(self, path):
        doc = json.loads(path.read_text())
        if doc.get("schema") != "kuuid-bench/1":
            raise SystemExit(f"{path}: not a kuuid bench report (schema {doc.get('schema')!r})")
        self.path = path
        self.h = doc["header"]
        self.ns = {f["name"]: f["ns_median"] for f in doc["figures"] if f["threads"] == 1}
        self.paths = [p for p in PATHS if f"fill/{p}/{SECURE}" in self.ns or f"fill/{p}/{FAST}" in self.ns]
        if not self.paths:
            raise SystemExit(f"{path}: no fill figures")

    def key(self):
        """What makes two runs the same CPU."""
        h = self.h
        return (h["cpu"], h.get("vendor"), h.get("family"), h.get("model"), h["target"])

    def name(self):
        h = self.h
        uarch = UARCH.get((h.get("vendor"), h.get("family"), h.get("model")))
        return f"{h['cpu']}, {uarch}" if uarch else h["cpu"]

    def numbers(self):
        h = self.h
        if h.get("family") is None:
            return h["target"].split("-")[0]
        return f"family {h['family']} model {h['model']}"

    def date(self):
        return (self.h.get("date") or "?")[:10]

    def fig(self, name):
        return self.ns.get(name)


def load():
    runs = [Run(p) for p in sorted(HERE.glob("*.json"))]
    seen = {}
    for r in runs:
        if r.key() in seen:
            raise SystemExit(
                f"{r.path.name} and {seen[r.key()].path.name}: one CPU, two files "
                "(keep the newer run, one file a CPU)"
            )
        seen[r.key()] = r
    if not runs:
        raise SystemExit(f"no runs in {HERE} (kuuid bench --json > {HERE}/NAME.json)")
    runs.sort(key=lambda r: (r.name(), r.numbers()))
    return runs


def num(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"


def table(runs, widest_only=False):
    rows = [
        "| CPU | family / model | date | cores | clock | path | fill, AES-CTR | fill cycles | fill, xoshiro | decode | `id()` | L2 store | fill over store |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        store = r.fig("limit/store/l2")
        for p in r.paths[:1] if widest_only else r.paths:
            secure = r.fig(f"fill/{p}/{SECURE}")
            over = None if secure is None or not store else secure / store
            one = r.fig(f"id/{p}")
            ghz = r.h.get("ghz")
            cycles = None if secure is None or ghz is None else secure * ghz
            rows.append(
                f"| {r.name()} | {r.numbers()} | {r.date()} | {r.h['cores']} | "
                f"{'-' if ghz is None else f'{ghz:.2f} GHz'} | {p} | "
                f"{num(secure)} | {num(cycles, 1)} | {num(r.fig(f'fill/{p}/{FAST}'))} | "
                f"{num(r.fig(f'decode/{p}'))} | {num(one)} | {num(store, 3)} | {num(over, 1)}x |"
            )
    return "\n".join(rows) + "\n"


def markdown(runs):
    return (
        "# kuuid bench on every CPU it has run on\n\n"
        "Rendered by `python3 docs/bench/render.py` from the `kuuid bench --json`\n"
        "runs in this folder, one file a CPU; do not edit by hand. Nanoseconds\n"
        "an id, one thread, the median of the run's rounds (`id()` is measured\n"
        "on the process's path only). \"fill over store\": the secure fill's time\n"
        "over a 32-byte store's into L2, the floor no path can pass. \"clock\": the\n"
        "core clock the run measured (runs before that record none), and \"fill\n"
        "cycles\" the secure fill at it.\n\n"
        "![ns an id per path and CPU](cpus.svg)\n\n" + table(runs)
    )


def clock(r):
    """` · 2.60 GHz` where the run measured its clock, else nothing."""
    ghz = r.h.get("ghz")
    return "" if ghz is None else f" · {ghz:.2f} GHz"


def svg(runs):
    bar, gap, left, right, top = 14, 10, 210, 90, 46
    width = 860
    longest = max(
        v
        for r in runs
        for p in r.paths
        for v in (r.fig(f"fill/{p}/{SECURE}"), r.fig(f"fill/{p}/{FAST}"), r.fig("limit/store/l2"))
        if v is not None
    )
    scale = (width - left - right) / (longest * 1.05)
    out, y = [], top
    for r in runs:
        out.append(
            f'<text x="8" y="{y + 12}" class="cpu">{escape(r.name())} · {escape(r.numbers())} · '
            f'{r.h["cores"]} cores{clock(r)} · {escape(r.date())}</text>'
        )
        y += 20
        first = y
        for p in r.paths:
            for rng, cls, label in ((SECURE, "secure", "AES-CTR"), (FAST, "fast", "xoshiro")):
                v = r.fig(f"fill/{p}/{rng}")
                if v is None:
                    continue
                w = v * scale
                out.append(f'<text x="{left - 6}" y="{y + 11}" class="lab">{p}, {label}</text>')
                out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" class="{cls}"/>')
                out.append(f'<text x="{left + w + 4:.1f}" y="{y + 11}" class="val">{v:.2f} ns</text>')
                y += bar + 3
        store = r.fig("limit/store/l2")
        if store is not None:
            x = left + store * scale
            out.append(f'<line x1="{x:.1f}" y1="{first - 3}" x2="{x:.1f}" y2="{y}" class="limit"/>')
            out.append(f'<text x="{x + 3:.1f}" y="{y + 10}" class="lim">L2 store {store:.2f} ns</text>')
            y += 12
        y += gap
    height = y + 10
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">\n'
        "<style>.cpu{font-size:13px;font-weight:bold}.lab{font-size:11px;text-anchor:end}"
        ".val,.lim{font-size:11px}.secure{fill:#3a6ea5}.fast{fill:#9cc3e6}"
        ".limit{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:4 3}.lim{fill:#c0392b}</style>\n"
        f'<rect width="{width}" height="{height}" fill="white"/>\n'
        '<text x="8" y="20" font-size="15">kuuid bench: ns an id, library fill, one thread '
        "(shorter is faster; dashed: a 32-byte store into L2)</text>\n"
    )
    return head + "\n".join(out) + "\n</svg>\n"


def readme_with(text, block):
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"README.md: no {BEGIN} ... {END} block")
    return text[: start + len(BEGIN)] + "\n\n" + block + "\n" + text[end:]


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        raise SystemExit(__doc__)
    runs = load()
    # The README: each CPU's widest path (every path: docs/bench/cpus.md).
    block = "![ns an id per path and CPU](docs/bench/cpus.svg)\n\n" + table(runs, widest_only=True)
    want = {
        SVG: svg(runs),
        TABLE: markdown(runs),
        README: readme_with(README.read_text(), block),
    }
    stale = [p for p, text in want.items() if not p.exists() or p.read_text() != text]
    if check:
        if stale:
            names = ", ".join(str(p.relative_to(ROOT)) for p in stale)
            raise SystemExit(f"stale: {names} (run python3 docs/bench/render.py)")
        print(f"docs/bench: {len(runs)} CPU(s), chart and tables current")
        return
    for p in stale:
        p.write_text(want[p])
        print(f"wrote {p.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
