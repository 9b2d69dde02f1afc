#!/usr/bin/env python3
"""Compares the counters ReductionLab read (a `run --counters --json` session) with what
`ncu --csv --metrics ...` measured for the same kernels in a separate, unprofiled-by-the-app run
of the same points (its own session JSON gives the launch order).

  scripts/counters_vs_ncu.py APP_SESSION.json NCU.csv NCU_RUN_SESSION.json [--markdown|--spread]

Every point of the ncu run launches `warmup` + samples times, each launch one kernel (the
variant writes the total itself), or two (first kernel and finishing pass; CUB's device reduce:
its two kernels, `whole` and `whole_2` in the app). The last launch of each point is compared. Agreement: within 2 percentage points for % metrics, 5% for the others (or 1 count
where both are near zero). Exit status 1 when a counter disagrees.

--spread (for an ncu run of several samples per point): ncu's own lowest and highest value over
the point's launches beside the app's (its median and its own range over the counter pass's
repeats), and whether ncu's launches agree with each other by the same rule: where they do not,
a single app-vs-ncu comparison of that counter cannot either; whether the app's value lies
within ncu's range widened by the rule ("in range", else OUTSIDE); and whether the two ranges
meet ("meet", else APART).

--self-test: the agreement rule on known cases (no files)."""
import csv
import gzip
import json
import sys


def open_text(path):
    """PATH, or PATH.gz compressed (recorded files are kept gzipped)."""
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def key(r):
    return (r["variant"], r["workspace"], r["block_size"], r["unroll"], r["size"], r["type"])


def ncu_launches(csv_path, metrics):
    """[{metric: value}] per profiled kernel, in launch order, plus its kernel name."""
    kernels, hdr, index = [], None, {}
    with open_text(csv_path) as f:
        for row in csv.reader(f):
            if row and row[0] == "ID":
                hdr = {name: i for i, name in enumerate(row)}
                continue
            if not hdr or len(row) < len(hdr):
                continue
            kid = row[hdr["ID"]]
            if kid not in index:
                index[kid] = len(kernels)
                kernels.append({"_name": row[hdr["Kernel Name"]]})
            name = row[hdr["Metric Name"]]
            if name in metrics:
                text = row[hdr["Metric Value"]].replace(",", "")
                try:
                    kernels[index[kid]][name] = float(text)
                except ValueError:
                    pass
    return kernels


def agree(metric, app, ncu):
    # Percent metrics (the catalog's unit %: `.pct` and `.pct_of_peak_...`) within 2 pp.
    if ".pct" in metric:
        return abs(app - ncu) <= 2.0, f"{app - ncu:+.2f} pp"
    if abs(app) <= 1 and abs(ncu) <= 1:
        return True, f"{app - ncu:+.0f}"
    rel = (app - ncu) / abs(ncu) if ncu else float("inf")
    return abs(rel) <= 0.05, f"{100 * rel:+.2f}%"


def within(metric, app, lo, hi):
    """Whether the app's value lies in ncu's own range over its launches, widened by the rule."""
    return lo <= app <= hi or agree(metric, app, lo)[0] or agree(metric, app, hi)[0]


def overlap(metric, app_lo, app_hi, lo, hi):
    """Whether the app's range over its repeats meets ncu's range over its launches, either
    widened by the rule: two instruments that each move from launch to launch measure the same
    thing when their ranges meet."""
    return app_lo <= hi and lo <= app_hi or agree(metric, app_hi, lo)[0] or \
        agree(metric, app_lo, hi)[0]


def self_test():
    """The agreement rule on cases whose answer is known (ctest counters_vs_ncu_rule)."""
    cases = [
        (agree("lts__t_sector_hit_rate.pct", 51.9, 50.0)[0], True),
        (agree("lts__t_sector_hit_rate.pct", 52.1, 50.0)[0], False),
        # percent of peak is a percent metric (the catalog's unit %): 2 pp, not 5%
        (agree("dram__throughput.avg.pct_of_peak_sustained_elapsed", 61.1, 64.1)[0], False),
        (agree("sm__warps_active.avg.pct_of_peak_sustained_active", 0.158, 0.14)[0], True),
        (agree("smsp__thread_inst_executed_per_inst_executed.ratio", 31.0, 32.0)[0], True),
        (agree("smsp__inst_executed.sum", 1060, 1000)[0], False),
        (agree("smsp__inst_executed.sum", 1, 0)[0], True),
        (within("lts__t_sector_hit_rate.pct", 29.2, 47.7, 59.6), False),
        (within("lts__t_sector_hit_rate.pct", 60.0, 47.7, 59.6), True),
        (within("smsp__inst_executed.sum", 1040, 900, 1000), True),
        (overlap("lts__t_sector_hit_rate.pct", 25.0, 29.2, 47.7, 59.6), False),
        (overlap("smsp__warp_issue_stalled_barrier_per_warp_active.pct", 9.9, 16.0, 10.7, 15.2), True),
        (overlap("smsp__warp_issue_stalled_barrier_per_warp_active.pct", 5.0, 8.8, 10.7, 15.2), True),
        (overlap("smsp__warp_issue_stalled_barrier_per_warp_active.pct", 5.0, 8.6, 10.7, 15.2), False),
        (overlap("smsp__warp_issue_stalled_barrier_per_warp_active.pct", 16.0, 17.0, 10.7, 15.2), True),
    ]
    failed = [i for i, (got, want) in enumerate(cases) if got != want]
    print(f"{len(cases) - len(failed)} of {len(cases)} rule cases hold" +
          (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


def compare(app, ncu_csv, ran):
    """One row per (point, kernel, metric) of the app's session that ncu also measured: label,
    role, metric, app, ncu's last launch, diff, ok/NO, ncu's lowest, highest, ncu steady, app in
    ncu's range, app's lowest, highest, ranges meet."""
    app_points = {key(r): r for r in app["results"] if r.get("counters")}
    metrics = set()
    for r in app_points.values():
        for k in r["counters"]["kernels"]:
            metrics.update(k["metrics"].keys())
    kernels = ncu_launches(ncu_csv, metrics)
    warmup = ran["spec"]["timing"]["warmup"]
    at, rows = 0, []
    for r in ran["results"]:
        if r["status"] not in ("ok", "wrong"):
            continue
        per_launch = 2 if r["variant"] == "cub_device_reduce" or r.get("event_spans") == 2 else 1
        launches = warmup + len(r["total_samples_ms"])
        last = kernels[at + (launches - 1) * per_launch: at + launches * per_launch]
        every = [kernels[at + i * per_launch: at + (i + 1) * per_launch]
                 for i in range(warmup, launches)]
        at += launches * per_launch
        mine = app_points.get(key(r))
        if not mine or len(last) != per_launch:
            continue
        label = f"{r['variant']}/{r['workspace']} B={r['block_size']} U={r['unroll']}"
        for k in mine["counters"]["kernels"]:
            # first_kernel, whole: the launch's first kernel; finish, whole_2: its second.
            second = k["role"] in ("finish", "whole_2")
            if second and len(last) < 2 or not second and per_launch == 2 and k["role"] == "whole" \
                    and not any(x["role"] == "whole_2" for x in mine["counters"]["kernels"]):
                continue  # one range over two kernels (a user range): nothing of ncu's matches
            ncu_k = last[1] if second else last[0]
            for metric, v in k["metrics"].items():
                if v is None or metric not in ncu_k:
                    continue
                ok, diff = agree(metric, v, ncu_k[metric])
                seen = [l[1 if second else 0].get(metric) for l in every if len(l) == per_launch]
                seen = [x for x in seen if x is not None]
                lo, hi = (min(seen), max(seen)) if seen else (float("nan"), float("nan"))
                self_ok = agree(metric, hi, lo)[0] if seen else True
                in_range = within(metric, v, lo, hi) if seen else ok
                # The app's own range over its repeats (sessions before repeats: its one value).
                app_lo, app_hi = (k.get("ranges") or {}).get(metric, [v, v])
                meet = overlap(metric, app_lo, app_hi, lo, hi) if seen else ok
                rows.append((label, k["role"], metric, v, ncu_k[metric], diff, "ok" if ok else "NO",
                             lo, hi, self_ok, in_range, app_lo, app_hi, meet))
    if at != len(kernels):
        print(f"warning: {len(kernels)} kernels profiled, {at} expected from the session",
              file=sys.stderr)
    return rows


def main(argv):
    if "--self-test" in argv:
        return self_test()
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    app = json.load(open_text(argv[1]))
    ran = json.load(open_text(argv[3]))
    markdown = "--markdown" in argv
    rows = compare(app, argv[2], ran)
    compared, bad = len(rows), sum(row[6] != "ok" for row in rows)
    if "--spread" in argv:
        unsteady = outside = app_unsteady = apart = 0
        for row in rows:
            unsteady += not row[9]
            outside += not row[10]
            app_unsteady += not agree(row[2], row[12], row[11])[0]
            apart += not row[13]
            print(f"{row[0]:<38} {row[1]:<12} {row[2]:<62} app {row[3]:>11.4g} "
                  f"({row[11]:.4g} .. {row[12]:.4g})  ncu {row[7]:>11.4g} .. {row[8]:<11.4g} "
                  f"{row[6]:<2} {'ncu steady' if row[9] else 'ncu UNSTEADY'} "
                  f"{'in range' if row[10] else 'OUTSIDE'} {'meet' if row[13] else 'APART'}")
        print(f"{compared - bad} of {compared} agree with ncu's last launch; ncu's own launches "
              f"disagree with each other (by the same rule) on {unsteady} of {compared}, the "
              f"app's repeats on {app_unsteady}; {compared - outside} of {compared} lie within "
              f"ncu's own range widened by the rule; the app's and ncu's ranges meet on "
              f"{compared - apart} of {compared}")
        return 0
    if markdown:
        print("| point | kernel | metric | app | ncu | diff | |")
        print("| --- | --- | --- | ---: | ---: | ---: | --- |")
        for row in rows:
            print(f"| {row[0]} | {row[1]} | `{row[2]}` | {row[3]:.4g} | {row[4]:.4g} | {row[5]} | {row[6]} |")
    else:
        for row in rows:
            print(f"{row[0]:<38} {row[1]:<12} {row[2]:<62} {row[3]:>12.4g} {row[4]:>12.4g} "
                  f"{row[5]:>10} {row[6]}")
    print(f"{compared - bad} of {compared} counters agree (2 pp for %, 5% otherwise)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
