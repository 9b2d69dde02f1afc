#!/usr/bin/env python3
"""The rows-and-columns table of docs/benchmarks.md, from the files that made it.

Usage: scripts/rows_table.py PEERS.jsonl SESSION.json...

SESSION.json: `reductionlab-cli run --preset rows-and-columns [--total 2^28] --json ...` on a GPU.
PEERS.jsonl: `scripts/peers-rows-cols.py` on the same GPU (torch.sum and CuPy's sum over a
dimension; the product never runs them). One Markdown row per shape and reduced dimension, int32,
in the order of the sessions given, then by dimension and width: the int64 sums' bytes against the
bytes read, the read floor's time for the matrix's bytes, the fastest strategy and its time against
the floor (1.00x = the floor), CUB's segmented reduce (rows only), torch with int32 sums and with
its own int64 sums, and CuPy; "-" where a file has no such point. On stderr, per total and
dimension: how many shapes are within 1.10x of the floor, and faster than each peer. A shape in
several sessions is taken from the last one given (a rerun of the shapes a cancelled run left out)."""
import json
import sys

# The peers' library names in PEERS.jsonl, in the table's order.
PEERS = ("torch", "torch_int64", "cupy")


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
    for order, path in enumerate(argv[2:]):
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        by_shape = {}
        for r in s["results"]:
            if r["status"] != "ok" or r["type"] != "int32" or not r.get("rows"):
                continue
            dim = "columns" if r["variant"].startswith("column") else "rows"
            by_shape.setdefault((r["rows"], r["cols"], dim), []).append(r)
        for (m, n, dim), rs in by_shape.items():
            # ReductionLab's own strategies; CUB is the reference they are measured against.
            own = [r for r in rs if r["variant"] != "cub_segmented_rows"]
            best = min(own, key=lambda r: r["total"]["median_ms"])
            t = best["total"]["median_ms"] * 1e3
            fl = floor_us(s, m * n * 4)
            cub = next((r["total"]["median_ms"] * 1e3 for r in rs
                        if r["variant"] == "cub_segmented_rows"), None)
            # The sums are int64: written bytes against the bytes read, the part of the time no
            # kernel that writes them can save.
            written = (n if dim == "columns" else m) * 8 / (m * n * 4)
            table[(order, dim, n)] = dict(m=m, n=n, dim=dim, floor=fl, best=best["variant"], t=t,
                                          cub=cub, written=written,
                                          **{lib: peers.get((lib, dim, m, n)) for lib in PEERS})
    cell = lambda v: "-" if v is None else f"{v:.1f}"
    print("| M x N | sums | sums written / read | read floor (us) | fastest strategy | its time (us) "
          "| x floor | CUB segmented (us) | torch.sum, int32 sums (us) | torch.sum, int64 sums (us) "
          "| CuPy sum (us) |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(table):
        r = table[key]
        ratio = "-" if r["floor"] is None else f"{r['t'] / r['floor']:.2f}x"
        print(f"| {r['m']}x{r['n']} | {r['dim']} | {100 * r['written']:.1f} % | {cell(r['floor'])} "
              f"| {r['best']} | {r['t']:.1f} | {ratio} | {cell(r['cub'])} | "
              + " | ".join(cell(r[lib]) for lib in PEERS) + " |")
    # The counts the text above the table gives, per total and dimension.
    groups = {}
    for (order, dim, _), r in table.items():
        groups.setdefault((argv[2 + order], dim), []).append(r)
    for (total, dim), rs in sorted(groups.items()):
        near = sum(1 for r in rs if r["floor"] and r["t"] <= 1.10 * r["floor"])
        beats = {lib: sum(1 for r in rs if r[lib] is not None and r["t"] < r[lib])
                 for lib in PEERS + ("cub",)}
        timed = {lib: sum(1 for r in rs if r[lib] is not None) for lib in beats}
        slower = {lib: [f"{r['m']}x{r['n']}" for r in rs if r[lib] is not None and r["t"] >= r[lib]]
                  for lib in beats}
        print(f"\n<!-- {total} {dim}: within 1.10x at {near} of {len(rs)}; faster than "
              + ", ".join(f"{lib} at {beats[lib]} of {timed[lib]} (not at {slower[lib]})"
                          for lib in beats if timed[lib]) + " -->", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
