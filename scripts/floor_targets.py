#!/usr/bin/env python3
"""Issue 17's targets from ncu durations: the best shape of each one-launch variant per type and
N against the read floor at that N (<= 1.05x from 2^20 up, <= 1.12x below). Prints the markdown
table of docs/benchmarks.md section 5; every number is read from the files.

  scripts/floor_targets.py FLOOR_LAUNCHES.csv FLOOR_NCU.csv NCU.csv PROFILED.json [NCU2.csv PROFILED2.json ...]

FLOOR_*: docs/experiments/single_pass_shapes.cu's profile mode under ncu (its `floor` rows are
kernels/read_floor.cu's kernel in the floor's six shapes; best shape's median of 3 per N).
NCU.csv, PROFILED.json: `reductionlab-cli run` of the variants under ncu (scripts/ncu_compare.py
pairs the rows with the points; warm-ups left out)."""
import csv
import statistics
import sys
from collections import defaultdict

from ncu_compare import open_text, pairs, size_name, UNIT


def floors(launches_path, ncu_path):
    """{N: (best median us, shape)} of the floor rows."""
    rows = []
    with open_text(ncu_path) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        if r.get("Metric Name") == "gpu__time_duration.sum":
            rows.append((int(r["ID"]), float(r["Metric Value"].replace(",", "")) * UNIT[r["Metric Unit"]]))
    rows.sort()
    samples = defaultdict(list)
    for launch, (_, us) in zip(csv.DictReader(open_text(launches_path)), rows):
        if launch["cand"] == "floor":
            samples[(int(launch["n"]), f"B={launch['B']} U={launch['U']} grid={launch['grid']}")].append(us)
    best = {}
    for (n, shape), v in samples.items():
        m = statistics.median(v)
        if n not in best or m < best[n][0]:
            best[n] = (m, shape)
    return best


def target_of(n):
    """Issue 17's target at N: <= 1.05x the floor from 2^20 up, <= 1.12x below."""
    return 1.05 if n >= 1 << 20 else 1.12


def best_shapes(runs):
    """{(variant, type, N): (median ncu us, B, U)} of the fastest shape per variant, from
    (NCU.csv, PROFILED.json) pairs given flat."""
    best = {}
    profiled = [p for i in range(0, len(runs), 2) for p in pairs(runs[i], runs[i + 1], runs[i + 1])]
    for h, ncu, _, _ in profiled:
        if h["status"] != "ok":
            continue
        k = (h["variant"], h["type"], h["size"])
        if k not in best or ncu < best[k][0]:
            best[k] = (ncu, h["block_size"], h["unroll"])
    return best


def best_ratios(floor, best):
    """{(type, N): the best variant's time over the floor at N}."""
    out = {}
    for (v, typ, n), (t, _, _) in best.items():
        if n in floor:
            r = t / floor[n][0]
            out[(typ, n)] = min(out.get((typ, n), r), r)
    return out


def main(floor_launches, floor_ncu, *runs):
    floor = floors(floor_launches, floor_ncu)
    best = best_shapes(runs)
    ratios = best_ratios(floor, best)
    variants = sorted({k[0] for k in best})
    fails = 0
    for typ in ("int32", "float32"):
        print(f"\n{typ}: ncu gpu__time_duration, median, us (x the read floor); best (B, U) per N\n")
        print("| N | read floor | " + " | ".join(variants) + " | target |")
        print("| ---: | ---: | " + " | ".join("---:" for _ in variants) + " | ---: |")
        for n in sorted(floor):
            f, shape = floor[n]
            target = target_of(n)
            cells = []
            for v in variants:
                if (v, typ, n) not in best:
                    cells.append("-")
                    continue
                t, b, u = best[(v, typ, n)]
                cells.append(f"{t:.2f} ({t / f:.3f}x, {b}/{u})")
            met = (typ, n) in ratios and ratios[(typ, n)] <= target
            fails += 0 if met else 1
            print(f"| {size_name(n)} | {f:.2f} | " + " | ".join(cells) +
                  f" | <= {target}x: {'met' if met else 'NOT met'} |")
    print(f"\n{fails} of {2 * len(floor)} (type, N) targets not met")


if __name__ == "__main__":
    if len(sys.argv) < 5 or len(sys.argv) % 2 == 0:
        sys.exit(__doc__)
    main(*sys.argv[1:])
