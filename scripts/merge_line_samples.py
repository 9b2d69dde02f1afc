#!/usr/bin/env python3
"""Copies the line samples (run --line-samples), the line counts (run --line-counts) or the CUDA
runtime's occupancy of one session's points into the matching points of another: same variant,
workspace, block size, unroll, size and type. For the bundled session, whose times and counters
come from an earlier run: what a later run on the same GPU model measured is added to it without
touching anything else, and the README there says which run.

Usage: merge_line_samples.py --into SESSION.json --from RUN.json [--what samples|counts|occupancy]
  samples (default): the point's line_samples object replaces the target's;
  counts: each counted instruction's {"inst_executed", "thread_inst_executed"} is added to the
    target's PC of the same function and offset (a PC without samples is added), with
    counted_launches and count_note, keeping the target's samples;
  occupancy: the point's occupancy array replaces the target's.
Refuses (exit 1) when the two sessions were measured on differently named devices, or when no
point matched; prints what it copied.
"""
import argparse
import json
import os
import sys

KEY = ("variant", "workspace", "block_size", "unroll", "size", "type")


def add_counts(target, counted):
  """Adds counted's per-PC counts to target's line_samples (created when absent)."""
  ls = target.get("line_samples")
  if not ls:
    ls = target["line_samples"] = {k: v for k, v in counted.items() if k != "functions"}
    ls["functions"] = []
  for key in ("counted_launches", "count_note"):
    if key in counted:
      ls[key] = counted[key]
  ls.setdefault("arch", counted.get("arch", ""))
  for cf in counted["functions"]:
    tf = next((f for f in ls["functions"]
               if f["role"] == cf["role"] and f["function"] == cf["function"]), None)
    if tf is None:
      tf = {"role": cf["role"], "function": cf["function"], "pcs": []}
      ls["functions"].append(tf)
    by_offset = {pc[0]: pc for pc in tf["pcs"]}
    for pc in cf["pcs"]:
      if len(pc) < 3:
        continue
      if pc[0] in by_offset:
        by_offset[pc[0]][2:] = [pc[2]]
      else:
        tf["pcs"].append([pc[0], {}, pc[2]])
    tf["pcs"].sort(key=lambda pc: pc[0])


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--into", required=True)
  ap.add_argument("--from", dest="source", required=True)
  ap.add_argument("--what", choices=("samples", "counts", "occupancy"), default="samples")
  a = ap.parse_args()
  with open(a.into) as f:
    into = json.load(f)
  with open(a.source) as f:
    source = json.load(f)
  if into["device"]["name"] != source["device"]["name"]:
    sys.exit(f"merge_line_samples: devices differ: {into['device']['name']} and "
             f"{source['device']['name']}")
  def has(r):
    if a.what == "occupancy":
      return bool(r.get("occupancy"))
    ls = r.get("line_samples") or {}
    if a.what == "counts":
      return ls.get("counted_launches", 0) > 0
    return bool(ls.get("functions"))
  found = {tuple(r[k] for k in KEY): r for r in source["results"] if has(r)}
  copied = 0
  for r in into["results"]:
    s = found.get(tuple(r[k] for k in KEY))
    if s is None:
      continue
    if a.what == "occupancy":
      r["occupancy"] = s["occupancy"]
    elif a.what == "counts":
      add_counts(r, s["line_samples"])
    else:
      r["line_samples"] = s["line_samples"]
    copied += 1
    print(f"  {r['seed_name']} {r['workspace']} B={r['block_size']} N={r['size']} {r['type']}")
  if copied == 0:
    sys.exit("merge_line_samples: no point of --from matches a point of --into")
  tmp = a.into + ".tmp"
  with open(tmp, "w") as f:
    json.dump(into, f, indent=2)
    f.write("\n")
  os.replace(tmp, a.into)
  print(f"merge_line_samples: {copied} points of {a.into} now carry {a.what}")


if __name__ == "__main__":
  main()
