#!/usr/bin/env python3
"""The measured-timeline table of docs/benchmarks.md, from the files that made it.

Usage: scripts/timeline_table.py SESSION.json TIMELINE.json...

Each TIMELINE.json is what `reductionlab-cli trace --measured` writes; its "summary" is the
engine's own (summarize_timeline). SESSION.json is a session of the same GPU with the counter
pass: the first kernel's barrier stall (smsp__warp_issue_stalled_barrier_per_warp_active.pct) at
the same variant, workspace, block size, unroll, size and type is set beside the timeline's barrier
wait share. Prints one Markdown row per timeline; "-" where the session has no such point."""
import json
import sys

STALL = "smsp__warp_issue_stalled_barrier_per_warp_active.pct"


def counter_stall(session, t):
    for r in session.get("results", []):
        same = (r["variant"], r["workspace"], r["block_size"], r["unroll"], r["size"], r["type"]) == (
            t["variant"], t["workspace"], t["block_size"], t["unroll"], t["size"], t["type"])
        if same and r.get("counters"):
            for k in r["counters"].get("kernels", []):
                if k.get("role") == "first_kernel" and STALL in k.get("metrics", {}):
                    return k["metrics"][STALL]
    return None


def size_text(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as f:
        session = json.load(f)
    print("| kernel | workspace | N | block as marked (us, median) | block's share of the twin's time (us) | "
          "barrier wait, share of warp time | "
          "barrier stall (counters) | twin / real kernel (ms) | cost |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        t, s = doc["timeline"], doc["summary"]
        stall = counter_stall(session, t)
        print(f"| {t['label']} | {t['workspace']} | {size_text(t['size'])} | "
              f"{s['block_median_ns'] / 1e3:.1f} | {s['twin_block_share_ns'] / 1e3:.1f} | {100 * s['barrier_wait_share']:.1f} % | "
              f"{'-' if stall is None else f'{stall:.1f} %'} | "
              f"{t['twin_median_ms']:.3f} / {t['real_median_ms']:.3f} | "
              f"{s['instrumentation_cost']:.2f}x |")


if __name__ == "__main__":
    main(sys.argv)
