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
import gzip
import json
import statistics
import sys

UNIT = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
WARMUPS = 2


def open_text(path):
    """Opens PATH, or PATH.gz compressed (recorded files are kept gzipped)."""
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def pairs(csv_path, session_path, harness_path):
    """Yields (harness point, ncu median us, events median us, GPU time median us or None)."""
    harness_points = {(r["variant"], r["block_size"], r["unroll"], r["size"], r["type"]): r
                      for r in json.load(open_text(harness_path))["results"]}
    rows, hdr = [], None
    for r in csv.reader(open_text(csv_path)):
        if r and r[0] == "ID":
            hdr = r
        elif hdr and len(r) == len(hdr):
            rows.append(dict(zip(hdr, r)))
    i = 0
    for r in json.load(open_text(session_path))["results"]:
        kernels = 2 if r["variant"] == "cub_device_reduce" or r.get("event_spans") == 2 else 1
        times = []
        for launch in range(WARMUPS + r["total"]["samples"]):
            t = 0.0
            for _ in range(kernels):
                row = rows[i]
                i += 1
                t += float(row["Metric Value"].replace(",", "")) * UNIT[row["Metric Unit"]]
            if launch >= WARMUPS:
                times.append(t)
        h = harness_points.get((r["variant"], r["block_size"], r["unroll"], r["size"], r["type"]))
        if h is None:
            continue
        gpu = h.get("gpu_time", {}).get("median_ms", 0) * 1000
        yield h, statistics.median(times), h["total"]["median_ms"] * 1000, gpu if gpu > 0 else None
    if i != len(rows):
        print(f"warning: {len(rows) - i} ncu rows left unpaired", file=sys.stderr)


def size_name(n):
    e = n.bit_length() - 1
    return f"2^{e}" if n == 1 << e else str(n)


def main(csv_path, session_path, harness_path):
    print("| variant | B | U | N | ncu us | events us | events - ncu | GPU time us | GPU time - ncu |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for h, ncu, events, gpu in pairs(csv_path, session_path, harness_path):
        gpu_cols = f"{gpu:.2f} | {100 * (gpu - ncu) / ncu:+.1f}%" if gpu else "- | -"
        print(f"| {h['variant']} | {h['block_size'] or 'auto'} | {h['unroll']} | {size_name(h['size'])} | "
              f"{ncu:.2f} | {events:.2f} | {100 * (events - ncu) / ncu:+.1f}% | {gpu_cols} |")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
