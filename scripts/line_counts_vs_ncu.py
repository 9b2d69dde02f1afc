#!/usr/bin/env python3
"""Compares a line-count session's per-instruction counts, summed per kernel, with ncu's totals.

usage: line_counts_vs_ncu.py SESSION.json VARIANT=NCU.csv [VARIANT=NCU.csv ...]

SESSION.json: `reductionlab-cli run --line-counts --json` (scripts/bench.sh lines), or .json.gz.
NCU.csv: `ncu --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum --csv -c 2` of one
launch of VARIANT at the same point (its first kernel, then its finishing pass). Executed
instructions are exact counts, so the two must be equal; prints one row per kernel and metric
and exits 1 where any differs.
"""
import csv
import gzip
import json
import sys

METRICS = {"smsp__inst_executed.sum": "inst_executed",
           "smsp__thread_inst_executed.sum": "thread_inst_executed"}


def ncu_totals(path):
    """{launch id: {metric: value}} from ncu's CSV (values with thousands separators)."""
    out = {}
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if len(r) > 14 and r[12] in METRICS]
    for r in rows:
        out.setdefault(int(r[0]), {"kernel": r[4]})[r[12]] = int(r[14].replace(",", ""))
    return out


def session_totals(session, variant):
    """[(role, {field: total})] of the variant's first counted point, in launch-step order."""
    for r in session["results"]:
        ls = r.get("line_samples") or {}
        if variant not in (r.get("variant"), r.get("seed_name")) or not ls.get("counted_launches"):
            continue
        if r.get("workspace") != "global" and r.get("seed_name"):
            continue  # the classic ladder's own set-up: the in-place rungs
        steps = []
        for f in ls["functions"]:
            tot = {"inst_executed": 0, "thread_inst_executed": 0}
            for pc in f["pcs"]:
                if len(pc) == 3:
                    for k in tot:
                        tot[k] += pc[2].get(k, 0)
            steps.append((f["role"], tot))
        order = {"whole": 0, "first_kernel": 0, "finish": 1}
        return sorted(steps, key=lambda s: order.get(s[0], 9)), r
    return None, None


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with gzip.open(argv[1], "rt") if argv[1].endswith(".gz") else open(argv[1]) as f:
        session = json.load(f)
    bad = 0
    print("| variant | kernel (role) | metric | line counts, summed | ncu | equal |")
    print("| --- | --- | --- | ---: | ---: | --- |")
    for arg in argv[2:]:
        variant, path = arg.split("=", 1)
        steps, point = session_totals(session, variant)
        if steps is None:
            print(f"| {variant} | - | - | no counted point in the session | - | - |")
            bad += 1
            continue
        ncu = ncu_totals(path)
        for i, (role, tot) in enumerate(steps):
            n = ncu.get(i)
            for metric, field in METRICS.items():
                theirs = n.get(metric) if n else None
                same = theirs == tot[field]
                bad += not same
                print(f"| {variant} | {role} | {metric} | {tot[field]:,} | "
                      f"{'-' if theirs is None else f'{theirs:,}'} | {'yes' if same else 'NO'} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
