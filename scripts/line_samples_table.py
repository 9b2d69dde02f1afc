#!/usr/bin/env python3
"""The per-rung table of docs/benchmarks.md ("Where the warps wait"): from a session with line
samples (run --line-samples) and one with counters (run --counters) of the same points, each first kernel's
share of warp samples at a barrier and waiting on memory (long scoreboard), beside the counters'
barrier stall. Only points present in both are printed.

Usage: line_samples_table.py LINES.json COUNTERS.json [--size N]
"""
import argparse
import gzip
import json

BARRIER = "smsp__warp_issue_stalled_barrier_per_warp_active.pct"


def key(r):
  return (r["variant"], r["workspace"], r["block_size"], r["unroll"], r["size"], r["type"])


def load(path):
  with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
    return json.load(f)


def main(argv=None):
  ap = argparse.ArgumentParser()
  ap.add_argument("lines")
  ap.add_argument("counters")
  ap.add_argument("--size", type=int, default=0)
  a = ap.parse_args(argv)
  counters = {}
  for r in load(a.counters)["results"]:
    for k in (r.get("counters") or {}).get("kernels", []):
      if k["role"] == "first_kernel" and BARRIER in k["metrics"]:
        counters[key(r)] = k["metrics"][BARRIER]
  print("| rung | workspace | warp samples | at a barrier | long scoreboard | barrier stall (counters) |")
  print("| --- | --- | ---: | ---: | ---: | ---: |")
  for r in load(a.lines)["results"]:
    if a.size and r["size"] != a.size:
      continue
    fns = [f for f in (r.get("line_samples") or {}).get("functions", []) if f["role"] == "first_kernel"]
    pcs = [pc[1] for f in fns for pc in f["pcs"]]
    total = sum(sum(p.values()) for p in pcs)
    if not total or key(r) not in counters:
      continue
    barrier = sum(p.get("barrier", 0) for p in pcs)
    memory = sum(p.get("long_scoreboard", 0) for p in pcs)
    print(f"| {r['seed_name']} | {r['workspace']} | {total} | {100 * barrier / total:.1f}% | "
          f"{100 * memory / total:.1f}% | {counters[key(r)]:.1f}% |")


if __name__ == "__main__":
  main()
