#!/usr/bin/env python3
"""Cycles an id of each engine path's encoder, as llvm-mca predicts them
per CPU model (issue 64, item 10): a model, not a timing.

    python3 benches/mca.py [LLVM_MCA]      (default: llvm-mca-19's, else llvm-mca)

It emits the release assembly of the library for x86-64 and aarch64
(`cargo rustc --release -p kuuid --lib [--target aarch64-unknown-linux-gnu]
-- --emit asm`; the aarch64 standard library must be installed:
`rustup target add aarch64-unknown-linux-gnu`), finds each path's
`encode4` and its loops (a backward branch to a label of the function),
runs llvm-mca over each loop body as a steady state (`-iterations=400`),
and combines the loops' cycles an iteration by the ids each handles:

- avx2: three passes over a block, one id an iteration each (pairs,
  digits, text): their sum;
- avx512: pairs of ids, one loop (the contiguous one): half its cycles;
- sse41: a quarter of the ids go the scalar way beside the vector pairs
  (`scalar_share`): the stage loop per vector id (3/4 of the ids), the
  pair-plus-scalar iteration (3 ids) n/4 times, the pair-only one n/8;
- scalar: one id an iteration;
- neon: two passes over pairs of ids.

Prints a Markdown table: path by CPU model, cycles an id.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

X86 = ["znver1", "znver2", "znver3", "znver4", "znver5", "skylake",
       "icelake-server", "sapphirerapids", "emeraldrapids", "gracemont"]
ARM = ["neoverse-n1", "neoverse-v1", "neoverse-v2", "apple-m1"]
AVX512 = {"znver4", "znver5", "icelake-server", "sapphirerapids", "emeraldrapids"}


def mca_binary():
    if len(sys.argv) > 1:
        return sys.argv[1]
    for c in ["/usr/lib/llvm-19/bin/llvm-mca", "llvm-mca"]:
        if os.path.exists(c) or c == "llvm-mca":
            return c


def emit(target):
    # A target dir of its own: Cargo re-emits nothing for a fresh build,
    # and the newest .s there is this source's.
    args = ["cargo", "rustc", "-q", "--release", "-p", "kuuid", "--lib"]
    out = ROOT / "target" / "mca"
    env = dict(os.environ, CARGO_TARGET_DIR=str(out))
    if target:
        args += ["--target", target]
        out = out / target
    subprocess.run(args + ["--", "--emit", "asm"], cwd=ROOT, check=True, env=env)
    newest = max((out / "release" / "deps").glob("kuuid-*.s"), key=lambda p: p.stat().st_mtime)
    return newest.read_text()


def loops(asm, fn_part, branch):
    """(start label, instructions) of each backward branch's body in the
    first function whose symbol holds `fn_part`."""
    lines = asm.split("\n")
    start = next(i for i, l in enumerate(lines) if fn_part in l and l.endswith(":") and not l.startswith("."))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(".Lfunc_end"))
    body = lines[start:end]
    labels = {m.group(1): i for i, l in enumerate(body) if (m := re.match(r"^(\.LBB\w+):", l))}
    found = []
    for i, l in enumerate(body):
        m = re.match(branch, l)
        if m and m.group(1) in labels and labels[m.group(1)] <= i:
            a = labels[m.group(1)]
            ins = [x.strip() for x in body[a + 1:i + 1]
                   if x.startswith("\t") and not x.strip().startswith((".", "#", "//"))]
            found.append((m.group(1), ins))
    return found


def innermost(found):
    """The loops that hold no other loop's back edge."""
    out = []
    for label, ins in found:
        others = [l for l, i2 in found if l != label and len(i2) < len(ins)]
        if not any(any(x.endswith(o) for x in ins[:-1]) for o in others):
            out.append((label, ins))
    return out


def cycles(mca, triple, cpu, ins):
    """llvm-mca's steady-state cycles an iteration of `ins`, or None."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(ins) + "\n")
        path = f.name
    try:
        r = subprocess.run([mca, f"-mtriple={triple}", f"-mcpu={cpu}", "-iterations=400", path],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        return None
    total = re.search(r"Total Cycles:\s+(\d+)", r.stdout)
    iters = re.search(r"Iterations:\s+(\d+)", r.stdout)
    return int(total.group(1)) / int(iters.group(1)) if total and iters else None


def x86_paths(asm):
    br = r"^\s+j\w+\s+(\.LBB\w+)"
    avx2 = [ins for _, ins in innermost(loops(asm, "avx26base627encode4", br)) if any("ymm" in x for x in ins)]
    avx512 = [ins for _, ins in innermost(loops(asm, "avx5126base627encode4", br)) if any("zmm" in x for x in ins)]
    sse = loops(asm, "sse416base627encode4", br)
    stage = min((ins for _, ins in innermost(sse)
                 if any("pmuludq" in x for x in ins) and not any("imul" in x for x in ins)), key=len)
    # The pair loop has two back edges to one label: pair only, pair + scalar.
    by_label = {}
    for label, ins in sse:
        by_label.setdefault(label, []).append(ins)
    pair_only, pair_scalar = sorted(
        next(v for v in by_label.values() if len(v) == 2 and any("imul" in x for x in max(v, key=len))), key=len)
    scalar = [ins for _, ins in innermost(loops(asm, "scalar11encode4_raw", br)) if any("imul" in x for x in ins)]
    return {
        "avx512": (lambda c: c(avx512[0]) / 2, avx512[:1]),
        "avx2": (lambda c: sum(c(i) for i in avx2), avx2),
        "sse41": (lambda c: 0.75 * c(stage) + 0.25 * c(pair_scalar) + 0.125 * c(pair_only),
                  [stage, pair_scalar, pair_only]),
        "scalar": (lambda c: c(scalar[0]), scalar[:1]),
    }


def neon_path(asm):
    br = r"^\s+(?:b\.\w+|b|cbnz|cbz|tbnz|tbz)\s+(?:\w+,\s*)*(?:#\d+,\s*)?(\.LBB\w+)"
    found = loops(asm, "neon6base627encode4", br)
    pass1 = next(ins for _, ins in found if any(x.startswith("stp") for x in ins) and len(ins) < 40)
    pass2 = max((ins for _, ins in found if sum(x.startswith("st3") for x in ins) == 2), key=len)
    return (lambda c: (c(pass1) + c(pass2)) / 2, [pass1, pass2])


def main():
    mca = mca_binary()
    rows = []
    x86 = x86_paths(emit(None))
    for path, (combine, parts) in x86.items():
        cells = []
        for cpu in X86:
            if path == "avx512" and cpu not in AVX512:
                cells.append("n/a")
                continue
            try:
                v = combine(lambda ins: cycles(mca, "x86_64", cpu, ins))
                cells.append(f"{v:.1f}")
            except TypeError:
                cells.append("?")
        rows.append((path, X86, cells, sum(len(p) for p in parts)))
    neon_combine, parts = neon_path(emit("aarch64-unknown-linux-gnu"))
    cells = []
    for cpu in ARM:
        try:
            cells.append(f"{neon_combine(lambda ins: cycles(mca, 'aarch64', cpu, ins)):.1f}")
        except TypeError:
            cells.append("?")
    rows.append(("neon", ARM, cells, sum(len(p) for p in parts)))
    for path, cpus, cells, n in rows:
        print(f"| {path} ({n} loop instructions) | " + " | ".join(f"{c}: {v}" for c, v in zip(cpus, cells)) + " |")


if __name__ == "__main__":
    main()
