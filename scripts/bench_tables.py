#!/usr/bin/env python3
"""Turns ReductionLab sessions (reductionlab-cli run --json) into the tables of docs/benchmarks.md.
scripts/bench.sh runs the measurements and then this; run it alone on sessions kept from a run.
Every number is copied from the files, or computed here from them (ratios, sums) and nowhere else.

  bench_tables.py ladder SESSION.json [SESSION.json ...]   the classic ladder, per N and workspace
  bench_tables.py floor SESSION.json                       every point as % of the read floor
  bench_tables.py cub SESSION.json                         each variant's best shape per N vs CUB
  bench_tables.py counters APP.json NCU.csv NCU_RUN.json [...]  the app's counters vs ncu, per set
  bench_tables.py lines LINES.json COUNTERS.json [COUNTS.json VARIANT=NCU.csv ...]
  bench_tables.py multi SESSION.json                       one reduction over several GPUs
  bench_tables.py labs DIVERGENCE.json SWEEP.json PREDICATES.json UNROLL.json [COUNTERS.json]

Options (any subcommand): --driver TEXT (nvidia-smi's driver version: the session holds only the
CUDA driver API's), --command TEXT (the command that reproduces the table). Files may be .gz.
"""
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counters_vs_ncu  # noqa: E402
import line_counts_vs_ncu  # noqa: E402
import line_samples_table  # noqa: E402


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def us(ms):
    return f"{ms * 1000:.1f}"


def us2(ms):
    return f"{ms * 1000:.2f}"


def pow2(n):
    e = n.bit_length() - 1
    return f"2^{e}" if n == 1 << e else str(n)


def header(s, opts):
    """One line: date, GPU, driver, ReductionLab's commit (all from the session), the command."""
    devs = s.get("devices") or [s["device"]]
    d = devs[0]
    gpus = d["name"] if len(devs) == 1 else f"{len(devs)} x {d['name']}"
    cuda = d.get("driver_version", 0)
    driver = f"driver {opts['driver']} (CUDA {cuda // 1000}.{cuda % 1000 // 10})" if opts.get(
        "driver") else f"CUDA driver {cuda // 1000}.{cuda % 1000 // 10}"
    t = s.get("tool", {})
    line = (f"*{s['created_utc']}, {gpus} (sm_{d['cc_major']}{d['cc_minor']}, {d['sm_count']} SMs), "
            f"{driver}, ReductionLab {t.get('version', '?')} commit {t.get('git_commit', '?')}")
    if opts.get("command"):
        line += f"; reproduce: `{opts['command']}`"
    print(line + "*")
    print()


def ladder(files, opts):
    for path in files:
        s = load(path)
        header(s, opts)
        res = s["results"]
        for n in sorted({r["size"] for r in res}):
            for ws in ("global", "shared"):
                pts = [r for r in res if r["size"] == n and r["workspace"] == ws]
                if not pts:
                    continue
                print(f"**N = {n:,} {pts[0]['type']}, block {pts[0]['block_size']}, {ws} workspace**")
                print()
                print("| variant (classic name) | U | grid | first kernel us | total us | GB/s (total) "
                      "| % of theoretical | step speed-up | cumulative |")
                print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
                base = prev = None
                for r in pts:
                    name = f"{r['variant']} ({r['seed_name']})" if r.get("seed_name") else r["variant"]
                    if r["status"] != "ok":
                        print(f"| {name} | {r['unroll']} | | | | | | {r['status'].upper()}: "
                              f"{r['message']} | |")
                        continue
                    t = r["total"]["median_ms"]
                    base = base or t
                    step = f"{prev / t:.2f}x" if prev else "-"
                    print(f"| {name} | {r['unroll']} | {r['grid']} | {us(r['first_kernel']['median_ms'])} "
                          f"| {us(t)} | {r['total_gbps']:.0f} | {r['pct_of_theoretical']:.1f}% | {step} "
                          f"| {base / t:.2f}x |")
                    prev = t
                print()


def shape(r):
    return f"{r['variant']} B={r['block_size']} U={r['unroll']}" if r["block_size"] else r["variant"]


def floor(files, opts):
    s = load(files[0])
    header(s, opts)
    floors = {f["bytes"]: f["time"]["median_ms"] for f in s.get("read_floors", [])}
    res = [r for r in s["results"] if r["status"] == "ok"]
    cols = list(dict.fromkeys(shape(r) for r in res))
    print("| N | type | read floor us | " + " | ".join(cols) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in cols) + " |")
    for n in sorted({r["size"] for r in res}):
        for t in dict.fromkeys(r["type"] for r in res):
            pts = {shape(r): r for r in res if r["size"] == n and r["type"] == t}
            if not pts:
                continue
            fl = floors.get(n * 4)
            cells = [f"{us2(p['total']['median_ms'])} ({p['pct_of_read_floor']:.1f}%)" if p else ""
                     for p in (pts.get(c) for c in cols)]
            print(f"| {pow2(n)} | {t} | {us2(fl) if fl else '-'} | " + " | ".join(cells) + " |")
    bad = [r for r in s["results"] if r["status"] != "ok"]
    noisy = sum(r.get("noisy", False) for r in res)
    print()
    print(f"Whole reduction, event time, median (% of the read floor at that N); {len(res)} points "
          f"verified, {noisy} noisy, {len(bad)} not ok.")


def cub(files, opts):
    s = load(files[0])
    header(s, opts)
    res = [r for r in s["results"] if r["status"] == "ok"]
    variants = [v for v in dict.fromkeys(r["variant"] for r in res) if v != "cub_device_reduce"]
    print("| N | type | " + " | ".join(f"{v}: best (B, U) | us" for v in variants) +
          " | cub_device_reduce us | best / CUB |")
    print("| ---: | --- | " + " | ".join("--- | ---:" for _ in variants) + " | ---: | ---: |")
    for n in sorted({r["size"] for r in res}):
        for t in dict.fromkeys(r["type"] for r in res):
            pts = [r for r in res if r["size"] == n and r["type"] == t]
            cubs = [r["total"]["median_ms"] for r in pts if r["variant"] == "cub_device_reduce"]
            if not pts:
                continue
            cells, best = [], None
            for v in variants:
                mine = [r for r in pts if r["variant"] == v]
                if not mine:
                    cells.append("- | -")
                    continue
                b = min(mine, key=lambda r: r["total"]["median_ms"])
                cells.append(f"({b['block_size']}, {b['unroll']}) | {us2(b['total']['median_ms'])}")
                best = min(best or b["total"]["median_ms"], b["total"]["median_ms"])
            ratio = f"{best / cubs[0]:.3f}" if best and cubs else "-"
            print(f"| {pow2(n)} | {t} | " + " | ".join(cells) +
                  f" | {us2(cubs[0]) if cubs else '-'} | {ratio} |")
    print()
    print("Whole reduction, event time, median; best / CUB below 1 means faster than CUB.")


def counters(files, opts):
    header(load(files[0]), opts)
    BARRIER = "smsp__warp_issue_stalled_barrier_per_warp_active.pct"
    sets = []
    for i in range(0, len(files) - 2, 3):
        rows = counters_vs_ncu.compare(load(files[i]), files[i + 1], load(files[i + 2]))
        sets.append((os.path.basename(files[i]), rows))
    print("| point (first kernel) | barrier stall, app | app's range | ncu's range | agree |")
    print("| --- | ---: | ---: | ---: | --- |")
    for _, rows in sets[:1]:
        for row in rows:
            if row[1] == "first_kernel" and row[2] == BARRIER:
                print(f"| {row[0]} | {row[3]:.2f}% | {row[11]:.2f}-{row[12]:.2f}% "
                      f"| {row[7]:.2f}-{row[8]:.2f}% | {row[6]} |")
    print()
    print("| session | counters | agree with ncu's last launch | within ncu's range | "
          "ranges meet | ncu's own launches disagree |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, rows in sets:
        print(f"| {name} | {len(rows)} | {sum(r[6] == 'ok' for r in rows)} | "
              f"{sum(r[10] for r in rows)} | {sum(r[13] for r in rows)} | "
              f"{sum(not r[9] for r in rows)} |")


def lines(files, opts):
    header(load(files[0]), opts)
    c = load(files[1])
    print(f"*Counters column from {c['created_utc']}, commit {c['tool'].get('git_commit', '?')}.*")
    print()
    line_samples_table.main([files[0], files[1]])
    if len(files) > 2:
        c = load(files[2])
        print()
        print(f"*Line counts from {c['created_utc']}, commit {c['tool'].get('git_commit', '?')}; "
              "ncu's totals of one launch of the same point.*")
        print()
        line_counts_vs_ncu.main(["line_counts_vs_ncu.py"] + files[2:])


def multi(files, opts):
    s = load(files[0])
    header(s, opts)
    print("| exchange | G | N | local us | exchange us | total us | GB/s | summed read roof GB/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for p in s["points"]:
        if p["status"] != "ok":
            print(f"| {p['exchange']} | {p['gpu_count']} | {pow2(p['size'])} | "
                  f"{p['status']}: {p['message']} | | | | |")
            continue
        ph = p["phases"]
        print(f"| {p['exchange']} | {p['gpu_count']} | {pow2(p['size'])} | "
              f"{us(ph['local']['median_ms'])} | {ph['exchange']['median_ms'] * 1000:.2f} | "
              f"{us(ph['total']['median_ms'])} | {p['total_gbps']:.0f} | {p['read_roof_gbps']:.0f} |")
    links = ", ".join(f"cuda:{l['from']} -> cuda:{l['to']} {l['measured_gbps']:.0f} GB/s"
                      for l in s.get("links", []))
    print()
    print(f"Medians. Peer copies: {links or 'none'}. {s.get('nccl', {}).get('text', '')}")


def labs(files, opts):
    div, sweep, pred, unroll = (load(f) for f in files[:4])
    header(div, opts)
    gpu = lambda r: us(r["gpu_time"]["median_ms"])  # noqa: E731
    counted = {}  # variant: its first kernel's counters, from a run with --counters
    if len(files) > 4:
        c = load(files[4])
        print(f"*Counters from {c['created_utc']}, commit {c['tool'].get('git_commit', '?')}.*")
        print()
        for r in c["results"]:
            for k in (r.get("counters") or {}).get("kernels", []):
                if k["role"] == "first_kernel":
                    counted[r["variant"]] = k["metrics"]
    print("**Divergence** (`run --preset divergence`; counters of the first kernel: "
          "`--counters branch_uniformity,threads_per_inst,inst_executed`)")
    print()
    print("| variant | first kernel us | GPU time us | noise | uniform branches | "
          "threads / warp instruction | warp instructions |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in div["results"]:
        m = counted.get(r["variant"], {})
        uni = m.get("smsp__sass_average_branch_targets_threads_uniform.pct")
        tpi = m.get("smsp__thread_inst_executed_per_inst_executed.ratio")
        inst = m.get("smsp__inst_executed.sum")
        print(f"| `{r['variant']}` | {us(r['first_kernel']['median_ms'])} | {gpu(r)} | "
              f"{100 * r['total']['noise']:.1f}% | {'-' if uni is None else f'{uni:.2f}%'} | "
              f"{'-' if tpi is None else f'{tpi:.2f}'} | {'-' if inst is None else f'{inst:,.0f}'} |")
    print()
    print("**A data branch against a partition** (`run --preset divergence-sweep`; k of 256 values "
          "take path B; the partition's first kernel is CUB's)")
    print()
    print("| k | `branch_data` GPU time us | `branch_partitioned` first kernel us | "
          "`branch_partitioned` GPU time us |")
    print("| ---: | ---: | ---: | ---: |")
    by = {(r["variant"], r["unroll"]): r for r in sweep["results"]}
    for k in sorted({r["unroll"] for r in sweep["results"]}):
        d, p = by.get(("branch_data", k)), by.get(("branch_partitioned", k))
        print(f"| {k} | {gpu(d) if d else '-'} | {us(p['first_kernel']['median_ms']) if p else '-'} "
              f"| {gpu(p) if p else '-'} |")
    print()
    print("**Block-wide predicates** (`run --preset predicates`; GPU time us per tiles per block U)")
    print()
    us_ = sorted({r["unroll"] for r in pred["results"]})
    print("| variant | " + " | ".join(f"U={u}" for u in us_) + " |")
    print("| --- | " + " | ".join("---:" for _ in us_) + " |")
    for v in dict.fromkeys(r["variant"] for r in pred["results"]):
        pts = {r["unroll"]: r for r in pred["results"] if r["variant"] == v}
        print(f"| `{v}` | " + " | ".join(gpu(pts[u]) if u in pts else "-" for u in us_) + " |")
    print()
    print("**`#pragma unroll`** (`run --preset unroll-pragma`)")
    print()
    print("| variant | U | GPU time us | GB/s | % of read floor |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in unroll["results"]:
        print(f"| `{r['variant']}` | {r['unroll']} | {gpu(r)} | {r['total_gbps']:.0f} | "
              f"{r['pct_of_read_floor']:.1f}% |")


TABLES = {"ladder": ladder, "floor": floor, "cub": cub, "counters": counters, "lines": lines,
          "multi": multi, "labs": labs}


def main(argv):
    opts, files, it = {}, [], iter(argv[2:])
    for a in it:
        if a in ("--driver", "--command"):
            opts[a[2:]] = next(it, "")
        else:
            files.append(a)
    if len(argv) < 3 or argv[1] not in TABLES or not files:
        sys.exit(__doc__)
    TABLES[argv[1]](files, opts)


if __name__ == "__main__":
    main(sys.argv)
