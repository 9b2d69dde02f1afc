#!/usr/bin/env python3
"""Pairs `ncu --csv --metrics gpu__time_duration.sum` rows with the points of the session the
profiled reductionlab-cli run wrote, and prints the harness medians of the same point from a
separate, unprofiled run (under ncu the harness's own events time ncu's replays) beside the
ncu median: the whole reduction as events see it, and the GPU time (timestamps taken out).

  scripts/ncu_compare.py NCU.csv PROFILED_SESSION.json HARNESS_SESSION.json

Each point launches 2 warm-ups, then one launch per sample (in order); CUB DeviceReduce and
every variant with a finishing pass are two kernels per launch (summed). Warm-ups are left out
of the ncu median. The L2 flush kernel (read_through) must be left out by ncu's -k filter."""
import csv
import json
import statistics
import sys

UNIT = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}


def main(csv_path, session_path, harness_path):
    harness_points = {(r["variant"], r["block_size"], r["unroll"], r["size"], r["type"]): r
                      for r in json.load(open(harness_path))["results"]}
    rows, hdr = [], None
    for r in csv.reader(open(csv_path)):
        if r and r[0] == "ID":
            hdr = r
        elif hdr and len(r) == len(hdr):
            rows.append(dict(zip(hdr, r)))
    session = json.load(open(session_path))
    i = 0
    print("| variant | B | U | N | ncu us | events us | events - ncu | GPU time us | GPU time - ncu |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in session["results"]:
        kernels = 2 if r["variant"] == "cub_device_reduce" or r.get("event_spans") == 2 else 1
        times = []
        for launch in range(2 + r["total"]["samples"]):
            t = 0.0
            for _ in range(kernels):
                row = rows[i]
                i += 1
                t += float(row["Metric Value"].replace(",", "")) * UNIT[row["Metric Unit"]]
            if launch >= 2:
                times.append(t)
        key = (r["variant"], r["block_size"], r["unroll"], r["size"], r["type"])
        if key not in harness_points:
            continue
        h = harness_points[key]
        ncu, events = statistics.median(times), h["total"]["median_ms"] * 1000
        gpu = h.get("gpu_time", {}).get("median_ms", 0) * 1000
        gpu_cols = f"{gpu:.2f} | {100 * (gpu - ncu) / ncu:+.1f}%" if gpu > 0 else "- | -"
        n = r["size"]
        print(f"| {r['variant']} | {r['block_size'] or 'auto'} | {r['unroll']} | 2^{n.bit_length() - 1} | "
              f"{ncu:.2f} | {events:.2f} | {100 * (events - ncu) / ncu:+.1f}% | {gpu_cols} |")
    if i != len(rows):
        print(f"warning: {len(rows) - i} ncu rows left unpaired", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
