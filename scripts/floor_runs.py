#!/usr/bin/env python3
"""Issue 17's targets over several runs: one run of the floor17 step moves by as much as the
targets' margins (the read floor at 2^16 read 2.27-2.46 us on one day), so a verdict from one run
says little. For each (type, N): every run's best ratio to its own read floor, their median, and
how many runs met the target; then how many (type, N) the median meets.

  scripts/floor_runs.py RUN_DIR [RUN_DIR ...]

Each RUN_DIR holds what `STEPS=floor17 scripts/gpu-check.sh` writes (plain or .gz):
floor_launches.csv, floor_ncu.csv, floor17_ncu.csv, floor17_profiled.json. Every number is read
from those files (scripts/floor_targets.py reads them)."""
import os
import statistics
import sys

from floor_targets import best_ratios, best_shapes, floors, target_of
from ncu_compare import size_name


def found(run_dir, name, required=True):
    for path in (os.path.join(run_dir, name), os.path.join(run_dir, name + ".gz")):
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return path
    if required:
        sys.exit(f"{run_dir}: no {name} (or {name}.gz)")
    return None


def run_ratios(run_dir):
    """The run's best ratio per (type, N), the cluster rung's files included where the run has
    them (FLOOR17_CLUSTER=0 leaves them out), as floor_targets.py counts them."""
    floor = floors(found(run_dir, "floor_launches.csv"), found(run_dir, "floor_ncu.csv"))
    files = [found(run_dir, "floor17_ncu.csv"), found(run_dir, "floor17_profiled.json")]
    cluster = [found(run_dir, "floor17_cluster_ncu.csv", False),
               found(run_dir, "floor17_cluster.json", False)]
    if all(cluster):
        files += cluster
    return best_ratios(floor, best_shapes(files))


def run_names(run_dirs):
    """Each run's column: its folder's name (run11, floor17_run2), so that a table names the files
    it came from."""
    return [os.path.basename(os.path.normpath(d)) for d in run_dirs]


def main(run_dirs):
    runs = [run_ratios(d) for d in run_dirs]
    keys = sorted(set().union(*runs), key=lambda k: (k[0] != "int32", k[1]))
    median_met = 0
    for typ in ("int32", "float32"):
        print(f"\n{typ}: best ratio to the read floor of the same run, per run; median\n")
        print("| N | " + " | ".join(run_names(run_dirs)) +
              " | median | runs met | target |")
        print("| ---: | " + " | ".join("---:" for _ in runs) + " | ---: | ---: | ---: |")
        for t, n in (k for k in keys if k[0] == typ):
            target = target_of(n)
            got = [r.get((t, n)) for r in runs]
            have = [x for x in got if x is not None]
            med = statistics.median(have)
            median_met += med <= target
            print(f"| {size_name(n)} | " + " | ".join("-" if x is None else f"{x:.3f}" for x in got) +
                  f" | {med:.3f} | {sum(x <= target for x in have)} of {len(have)} | {target} |")
    print(f"\nthe median meets the target at {median_met} of {len(keys)} (type, N)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
