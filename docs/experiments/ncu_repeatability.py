#!/usr/bin/env python3
"""Tables of docs/experiments/ncu_repeatability.cu's ncu runs: per run (file), kernel and metric,
ncu's lowest and highest value over the program's launches, their spread, and whether that
spread is within the rule item 4 of the counters issue holds the app to (2 pp for percent
metrics, 5% of the value otherwise).

  docs/experiments/ncu_repeatability.py NCU.csv[.gz] ...   (the run's name is the file's)
"""
import csv
import gzip
import os
import sys

SHORT = {
    "lts__t_sector_hit_rate.pct": "L2 hit rate %",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct": "long scoreboard stall %",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct": "barrier stall %",
    "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct": "short scoreboard stall %",
    "lts__t_sectors_lookup_hit.sum": "L2 hit lookups",
    "lts__t_sectors_lookup_miss.sum": "L2 miss lookups",
    "gpu__time_duration.sum": "duration ns",
    "sm__cycles_elapsed.avg.per_second": "SM clock GHz",
}


def launches(path):
    """[(kernel, {metric: value})] in launch order."""
    opener = gzip.open if path.endswith(".gz") else open
    out, index, hdr = [], {}, None
    with opener(path, "rt") as f:
        for row in csv.reader(f):
            if row and row[0] == "ID":
                hdr = {n: i for i, n in enumerate(row)}
                continue
            if not hdr or len(row) < len(hdr):
                continue
            kid = row[hdr["ID"]]
            if kid not in index:
                index[kid] = len(out)
                out.append((row[hdr["Kernel Name"]].split("(")[0], {}))
            try:
                value = float(row[hdr["Metric Value"]].replace(",", ""))
            except ValueError:
                continue
            metric = row[hdr["Metric Name"]]
            if metric == "sm__cycles_elapsed.avg.per_second":
                value /= 1e9
            out[index[kid]][1][metric] = value
    return out


def within_rule(metric, lo, hi):
    if ".pct" in metric:
        return hi - lo <= 2.0
    return hi - lo <= 0.05 * max(abs(lo), abs(hi))


def main(paths):
    print("| run | kernel | metric | ncu's launches | spread | within the rule |")
    print("| --- | --- | --- | --- | ---: | --- |")
    for path in paths:
        run = os.path.basename(path).split(".")[0].removeprefix("ncu_")
        seen = launches(path)
        for kernel in dict.fromkeys(k for k, _ in seen):
            for metric, name in SHORT.items():
                values = [m[metric] for k, m in seen if k == kernel and metric in m]
                if not values:
                    continue
                lo, hi = min(values), max(values)
                spread = f"{hi - lo:.2f} pp" if ".pct" in metric else f"{100 * (hi - lo) / max(hi, 1e-9):.1f}%"
                verdict = "yes" if within_rule(metric, lo, hi) else "NO"
                print(f"| {run} | {kernel} | {name} | {lo:g} .. {hi:g} ({len(values)}) | {spread} | {verdict} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
