#!/usr/bin/env python3
"""The instruction-count gate over `cargo bench --bench instructions`.

    cargo bench --bench instructions -- --output-format=json > counts.jsonl
    python3 .ci/instructions.py check counts.jsonl    # CI: fail on > 10 % growth
    python3 .ci/instructions.py update counts.jsonl   # accept today's counts

Counts are Callgrind's instructions (Ir) per benchmark: the same for the
same binary and inputs whatever else the machine does, so a growth past
the margin is the code, not the noise. The thresholds live in
benches/instructions.thresholds.json; `update` rewrites it on purpose.
"""

import json
import sys
from pathlib import Path

THRESHOLDS = Path(__file__).resolve().parent.parent / "benches" / "instructions.thresholds.json"
MARGIN = 0.10


def counts(path):
    """{benchmark: Ir} from gungraun's JSON lines (one summary per line)."""
    out = {}
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        key = d["function_name"] + (f".{d['id']}" if d.get("id") else "")
        total = d["profiles"][0]["data"]["total"]["metrics"]
        out[key] = int(total["Ir"]["values"]["new"])
    if not out:
        sys.exit(f"{path}: no benchmark summaries (did gungraun run?)")
    return out


def check(now):
    limits = json.loads(THRESHOLDS.read_text())
    failed = []
    print(f"{'benchmark':<28} {'threshold':>11} {'now':>11} {'change':>8}")
    for key, limit in sorted(limits.items()):
        if key not in now:
            failed.append(f"{key}: not measured")
            continue
        change = now[key] / limit - 1
        print(f"{key:<28} {limit:>11} {now[key]:>11} {change:>+8.1%}")
        if change > MARGIN:
            failed.append(f"{key}: {now[key]} instructions, {change:+.1%} over {limit}")
    for key in sorted(set(now) - set(limits)):
        print(f"{key:<28} {'-':>11} {now[key]:>11}   (no threshold: run update)")
    if failed:
        print("instruction counts grew past the margin:", *failed, sep="\n  ")
        print("If the growth is meant, run: python3 .ci/instructions.py update counts.jsonl")
        return 1
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "update"):
        sys.exit(__doc__)
    now = counts(sys.argv[2])
    if sys.argv[1] == "update":
        THRESHOLDS.write_text(json.dumps(dict(sorted(now.items())), indent=2) + "\n")
        print(f"wrote {len(now)} thresholds to {THRESHOLDS}")
        return 0
    return check(now)


if __name__ == "__main__":
    sys.exit(main())
