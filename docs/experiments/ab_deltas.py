#!/usr/bin/env python3
"""Each candidate's median against a reference's, per N and shape, from ab_table.py's tables
(docs/experiments/ab_table.py: `| N | B/U | cand (q1-q3) | ... |`): the differences that
docs/benchmarks.md section 5.11 quotes as ranges.

  ab_deltas.py TABLE.md [--ref fx] [--int-ref int]

Candidates whose name starts with "int" are set against --int-ref, the others against --ref; the
last column is the reference less the int reference (float32's gap to int32)."""
import argparse


def read_table(path):
    """{(N, shape): {candidate: median us}} from an ab_table.py table."""
    header, rows = None, {}
    for line in open(path):
        if line.startswith("| N |"):
            header = [c.strip() for c in line.strip().strip("|").split("|")][2:]
        elif line.startswith("| 2^") and header:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[(cells[0], cells[1])] = {
                name: float(cell.split()[0])
                for name, cell in zip(header, cells[2:])
                if cell != "-"
            }
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--ref", default="fx")
    ap.add_argument("--int-ref", default="int")
    a = ap.parse_args()
    for (n, shape), medians in read_table(a.table).items():
        ref, iref = medians.get(a.ref), medians.get(a.int_ref)
        cells = []
        for name, t in medians.items():
            base = iref if name.startswith("int") else ref
            if name in (a.ref, a.int_ref) or base is None:
                continue
            cells.append(f"{name} {t - base:+.2f}")
        gap = f"  {a.ref}-{a.int_ref} {ref - iref:+.2f}" if ref is not None and iref is not None else ""
        print(f"{n} {shape}: " + " ".join(cells) + gap)


if __name__ == "__main__":
    main()
