#!/usr/bin/env python3
"""Checks the four targets of the modern kernels (within 3% of the read limit, faster than CUB, ...) against saved sessions, and prints the markdown tables of
docs/benchmarks.md section 2. Every number is read from the files; nothing is typed in.

  scripts/modern_targets.py RUN1.json RUN2.json NCU.csv PROFILED.json HARNESS.json

RUN1/RUN2: two runs of the same sweep (single_pass in every shape and cub_device_reduce,
2^16..2^28; gpu-check.sh step `final`). NCU.csv, PROFILED.json, HARNESS.json: step `ncu3`
(see scripts/ncu_compare.py)."""
import json
import sys

from ncu_compare import open_text, pairs, size_name

CUB = "cub_device_reduce"


def load(path):
    return json.load(open_text(path))


def key(r):
    return (r["variant"], r["block_size"], r["unroll"], r["size"], r["type"])


def best_per_size(session):
    """{N: (best ReductionLab point, CUB point)} over the points that verified."""
    out = {}
    for r in session["results"]:
        if r["status"] != "ok":
            continue
        best, cub = out.get(r["size"], (None, None))
        if r["variant"] == CUB:
            cub = r
        elif best is None or r["total"]["median_ms"] < best["total"]["median_ms"]:
            best = r
        out[r["size"]] = (best, cub)
    return out


def us(r, what="total"):
    return r[what]["median_ms"] * 1000


def sweep_tables(runs):
    bests = [best_per_size(s) for s in runs]
    print("| N | run 1: best (B, U) | total us | GPU time us | % of theoretical | CUB us | best / CUB "
          "| run 2: best (B, U) | total us | CUB us | best / CUB |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    worst_ratio = 0
    for n in sorted(bests[0]):
        cells = []
        for i, b in enumerate(bests):
            best, cub = b[n]
            ratio = us(best) / us(cub)
            worst_ratio = max(worst_ratio, ratio)
            cells.append(f"({best['block_size']}, {best['unroll']}) | {us(best):.2f}")
            if i == 0:
                cells.append(f"{us(best, 'gpu_time'):.2f} | {best['pct_of_theoretical']:.1f}%")
            cells.append(f"{us(cub):.2f} | {ratio:.3f}")
        print(f"| {size_name(n)} | " + " | ".join(cells) + " |")
    return bests, worst_ratio


def run_to_run(runs, min_size=1 << 24):
    b = {key(r): r for r in runs[1]["results"]}
    diffs = []
    for r in runs[0]["results"]:
        o = b.get(key(r))
        if r["size"] < min_size or o is None or r["status"] != "ok" or o["status"] != "ok":
            continue
        x, y = us(r), us(o)
        diffs.append((abs(x - y) / min(x, y) * 100, r))
    return diffs


def ncu_summary(ncu_args):
    rows = list(pairs(*ncu_args))
    print("| N | points | GPU time - ncu, min .. max | events - ncu, min .. max | GPU time within 5% |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    outliers = []
    for n in sorted({h["size"] for h, *_ in rows}):
        at = [(h, ncu, ev, gpu) for h, ncu, ev, gpu in rows if h["size"] == n]
        g = [100 * (gpu - ncu) / ncu for h, ncu, ev, gpu in at]
        e = [100 * (ev - ncu) / ncu for h, ncu, ev, gpu in at]
        within = sum(abs(x) <= 5 for x in g)
        outliers += [(h, ncu, gpu) for (h, ncu, ev, gpu), x in zip(at, g) if abs(x) > 5]
        print(f"| {size_name(n)} | {len(at)} | {min(g):+.1f}% .. {max(g):+.1f}% | "
              f"{min(e):+.1f}% .. {max(e):+.1f}% | {within} of {len(at)} |")
    return rows, outliers


def main(run1, run2, ncu_csv, profiled, harness):
    runs = [load(run1), load(run2)]
    for s in runs:
        d, t = s["device"], s["tool"]
        print(f"- {d['name']}, {s['created_utc']}, ReductionLab {t['version']} commit {t['git_commit']}")
    print()
    bests, worst_ratio = sweep_tables(runs)
    n16, n28 = 1 << 16, 1 << 28
    diffs = run_to_run(runs)
    within = sum(d <= 2 for d, _ in diffs)
    worst = max(diffs, key=lambda x: x[0])
    print()
    rows, outliers = ncu_summary((ncu_csv, profiled, harness))
    print()
    print("Outside 5%: " + ("none" if not outliers else ", ".join(
        f"{h['variant']} B={h['block_size'] or 'auto'} {size_name(h['size'])} "
        f"({gpu:.2f} vs {ncu:.2f} us)" for h, ncu, gpu in outliers)))
    print()
    big = [(h, ncu, gpu) for h, ncu, ev, gpu in rows if h["size"] >= 1 << 23]
    big_ok = all(abs(gpu - ncu) / ncu <= 0.05 for h, ncu, gpu in big)
    abs_small = max(abs(gpu - ncu) for h, ncu, ev, gpu in rows if h["size"] < 1 << 23)
    print("| target | result |")
    print("| --- | --- |")
    print(f"| best >= CUB at every N, 2^16..2^28 | {'holds' if worst_ratio <= 1 else 'does not hold'}: "
          f"best / CUB at most {worst_ratio:.3f} in both runs |")
    pct = min(b[n28][0]["pct_of_theoretical"] for b in bests)
    print(f"| >= 89% of theoretical at 2^28 | {'holds' if pct >= 89 else 'does not hold'}: "
          + ", ".join(f"{us(b[n28][0]):.1f} us" for b in bests) + f" (at least {pct:.1f}%) |")
    t16 = max(us(b[n16][0]) for b in bests)
    print(f"| <= 5 us at 2^16 | {'holds' if t16 <= 5 else 'does not hold'}: "
          + ", ".join(f"{us(b[n16][0]):.2f} us" for b in bests) + " |")
    print(f"| harness within 5% of ncu gpu__time_duration | GPU time: {len(rows) - len(outliers)} of "
          f"{len(rows)} points; every point from 2^23 up: {'yes' if big_ok else 'no'}; "
          f"below 2^23, at most {abs_small:.2f} us apart |")
    print(f"| two runs within 2% at N >= 2^24 | {within} of {len(diffs)} points; largest "
          f"{worst[0]:.2f}% ({worst[1]['variant']} B={worst[1]['block_size'] or 'auto'} "
          f"U={worst[1]['unroll']} at {size_name(worst[1]['size'])}) |")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
