#!/usr/bin/env python3
"""Joins single_pass_shapes.cu's launch list with ncu's CSV (same order) and prints, per type and N,
the read floor (best floor shape's median) and each candidate family's best shape as a ratio to it.

  single_pass_shapes.py launches.csv ncu.csv"""
import csv
import statistics
import sys
from collections import defaultdict


def ncu_durations(path):
    """gpu__time_duration per launch, in us, in ID order."""
    rows = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        v = float(r["Metric Value"].replace(",", ""))
        unit = r.get("Metric Unit", "")
        scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}.get(unit, 1.0)
        rows.append((int(r["ID"]), v * scale))
    rows.sort()
    return [v for _, v in rows]


def main():
    launches = list(csv.DictReader(open(sys.argv[1])))
    times = ncu_durations(sys.argv[2])
    if len(times) != len(launches):
        print(f"warning: {len(launches)} launches, {len(times)} ncu rows; joining the first {min(len(times), len(launches))}")
    samples = defaultdict(list)
    for l, t in zip(launches, times):
        samples[(l["cand"], int(l["B"]), int(l["U"]), int(l["type"]), int(l["n"]), int(l["grid"]))].append(t)
    med = {k: statistics.median(v) for k, v in samples.items()}
    floors = defaultdict(lambda: (1e30, None))
    best = defaultdict(lambda: (1e30, None))
    for (cand, b, u, typ, n, grid), t in med.items():
        if cand == "floor":
            if t < floors[n][0]:
                floors[n] = (t, f"B={b} U={u} g={grid}")
        else:
            if t < best[(cand, typ, n)][0]:
                best[(cand, typ, n)] = (t, f"B={b} U={u} g={grid}")
    cands = sorted({k[0] for k in best})
    for typ, tname in ((0, "int32"), (1, "float32")):
        print(f"\n{tname}: ncu gpu__time_duration median of 3, us (ratio to the floor), best shape")
        print("| N | floor | " + " | ".join(cands) + " |")
        for n in sorted(floors):
            f, fshape = floors[n]
            cells = []
            for c in cands:
                t, shape = best[(c, typ, n)]
                cells.append("-" if shape is None else f"{t:.2f} ({t / f:.3f}) {shape}")
            print(f"| 2^{n.bit_length() - 1} | {f:.2f} {fshape} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
