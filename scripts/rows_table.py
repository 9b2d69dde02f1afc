#!/usr/bin/env python3
"""The rows-and-columns table of docs/benchmarks.md, from the files that made it.

Usage: scripts/rows_table.py PEERS.jsonl SESSION.json...

SESSION.json: `reductionlab-cli run --preset rows-and-columns [--total 2^28] --json ...` on a GPU.
PEERS.jsonl: `scripts/peers-rows-cols.py` on the same GPU (torch.sum and CuPy's sum over a
dimension; the product never runs them). One Markdown row per shape and reduced dimension, int32:
the read floor's time for the matrix's bytes, the fastest strategy and its time against the floor
(1.00x = the floor), CUB's segmented reduce (rows only), torch and CuPy; "-" where a file has no
such point. A shape in several sessions is taken from the last one given (a rerun of the shapes a
cancelled run left out)."""
import json
import sys


def floor_us(session, nbytes):
    for f in session.get("read_floors", []):
        if f["bytes"] == nbytes:
            return f["time"]["median_ms"] * 1e3
    return None


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    peers = {}
    with open(argv[1], encoding="utf-8") as f:
        for line in f:
            p = json.loads(line)
            if p["dtype"] == "int32" and p.get("verified", True):
                peers[(p["library"], p["reduce"], p["rows"], p["cols"])] = p["median_us"]
    table = {}
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        by_shape = {}
        for r in s["results"]:
            if r["status"] != "ok" or r["type"] != "int32" or not r.get("rows"):
                continue
            dim = "columns" if r["variant"].startswith("column") else "rows"
            by_shape.setdefault((r["rows"], r["cols"], dim), []).append(r)
        for (m, n, dim), rs in by_shape.items():
            best = min(rs, key=lambda r: r["total"]["median_ms"])
            t = best["total"]["median_ms"] * 1e3
            fl = floor_us(s, m * n * 4)
            cub = next((r["total"]["median_ms"] * 1e3 for r in rs
                        if r["variant"] == "cub_segmented_rows"), None)
            cell = lambda v: "-" if v is None else f"{v:.1f}"
            table[(dim, n, m)] = (f"| {m}x{n} | {dim} | {cell(fl)} | {best['variant']} | {t:.1f} | "
                  f"{'-' if fl is None else f'{t / fl:.2f}x'} | {cell(cub)} | "
                  f"{cell(peers.get(('torch', dim, m, n)))} | {cell(peers.get(('cupy', dim, m, n)))} |")
    print("| M x N | sums | read floor (us) | fastest strategy | its time (us) | x floor | "
          "CUB segmented (us) | torch.sum (us) | CuPy sum (us) |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(table):
        print(table[key])


if __name__ == "__main__":
    main(sys.argv)
