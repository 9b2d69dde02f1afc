#!/usr/bin/env python3
"""float_block_grid.cu's `ab` mode: per N and shape, each candidate's median ncu duration over its
launches (us), with the lower and upper quartile, from the launch list and ncu's CSV (same order).

  ab_table.py launches.csv ncu.csv"""
import csv
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from single_pass_shapes import ncu_durations  # noqa: E402


def main():
    launches = list(csv.DictReader(open(sys.argv[1])))
    times = ncu_durations(sys.argv[2])
    samples = defaultdict(list)
    for l, t in zip(launches, times):
        samples[(int(l["n"]), int(l["B"]), int(l["U"]), l["cand"])].append(t)
    cands = sorted({k[3] for k in samples})
    print("| N | B/U | " + " | ".join(cands) + " |")
    print("| ---: | ---: | " + " | ".join("---:" for _ in cands) + " |")
    for n, b, u in sorted({k[:3] for k in samples}):
        cells = []
        for c in cands:
            v = sorted(samples.get((n, b, u, c), []))
            if not v:
                cells.append("-")
                continue
            q = statistics.quantiles(v, n=4) if len(v) > 1 else [v[0]] * 3
            cells.append(f"{q[1]:.2f} ({q[0]:.2f}-{q[2]:.2f})")
        print(f"| 2^{n.bit_length() - 1} | {b}/{u} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
