#!/usr/bin/env python3
"""Turns saved ReductionLab sessions (reductionlab-cli run --json) into the markdown tables of
docs/benchmarks.md. Numbers are copied from the sessions, never computed from anything else.

  scripts/bench_tables.py ladder SESSION.json     # the ladder: step and cumulative speed-up
  scripts/bench_tables.py sweep SESSION.json      # size sweep: total us per variant, best vs CUB
"""
import json
import sys


def label(r):
    seed = r.get("seed_name") or ""
    if seed and r["variant"] == "unroll":
        return f"{r['variant']} ({seed})"
    return f"{r['variant']} ({seed})" if seed else r["variant"]


def us(ms):
    return f"{ms * 1000:.1f}"


def header(s):
    d, t = s["device"], s.get("tool", {})
    return (f"{d['name']} (sm_{d['cc_major']}{d['cc_minor']}, {d['sm_count']} SMs), theoretical "
            f"{d['theoretical_gbps']:.0f} GB/s, measured copy {d['measured_copy_gbps']:.0f} GB/s; "
            f"run {s['created_utc']}, ReductionLab {t.get('version', '?')} commit {t.get('git_commit', '?')}")


def ladder(s):
    print(header(s))
    print()
    for ws in ("global", "shared"):
        rows = [r for r in s["results"] if r["workspace"] == ws]
        if not rows:
            continue
        sizes = sorted({r["size"] for r in rows})
        for n in sizes:
            pts = [r for r in rows if r["size"] == n]
            print(f"**N = {n:,} int32, block 1024, {ws} workspace**")
            print()
            print("| variant (seed name) | U | grid | first kernel us | total us | GB/s (total) | % of theoretical | step speed-up | cumulative |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            base = prev = None
            for r in pts:
                if r["status"] != "ok":
                    print(f"| {label(r)} | {r['unroll']} | | | | | | {r['status'].upper()}: {r['message']} | |")
                    continue
                t = r["total"]["median_ms"]
                base = base or t
                step = f"{prev / t:.2f}x" if prev else "-"
                print(f"| {label(r)} | {r['unroll']} | {r['grid']} | {us(r['first_kernel']['median_ms'])} | {us(t)} | "
                      f"{r['total_gbps']:.0f} | {r['pct_of_theoretical']:.1f}% | {step} | {base / t:.2f}x |")
                prev = t
            print()


def sweep(s):
    print(header(s))
    print()
    res = [r for r in s["results"] if r["status"] == "ok"]
    keys = []
    for r in res:
        k = (r["variant"], r["block_size"], r["unroll"])
        if k not in keys:
            keys.append(k)
    sizes = sorted({r["size"] for r in res})
    cols = [f"{v} B={b} U={u}" if b else v for v, b, u in keys]
    print("| N | " + " | ".join(cols) + " | best / CUB |")
    print("| ---: | " + " | ".join("---:" for _ in cols) + " | ---: |")
    for n in sizes:
        cells, best, cub = [], None, None
        for k in keys:
            m = [r for r in res if r["size"] == n and (r["variant"], r["block_size"], r["unroll"]) == k]
            if not m:
                cells.append("")
                continue
            t = m[0]["total"]["median_ms"]
            cells.append(f"{us(t)} us ({m[0]['pct_of_theoretical']:.0f}%)")
            if k[0] == "cub_device_reduce":
                cub = t
            elif best is None or t < best:
                best = t
        ratio = f"{cub / best:.2f}x" if best and cub else ""
        exp = n.bit_length() - 1
        name = f"2^{exp}" if n == 1 << exp else str(n)
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("ladder", "sweep"):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        session = json.load(f)
    {"ladder": ladder, "sweep": sweep}[sys.argv[1]](session)
