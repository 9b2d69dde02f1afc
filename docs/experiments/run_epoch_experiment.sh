#!/usr/bin/env bash
# Runs one epoch-pass experiment binary on the GPU machine the way docs/data/*-float-* record
# it: `check` for each VALUES kind, then under ncu (gpu__time_duration.sum, --clock-control none)
# `ab` with warm (none) and flushed (all) caches and `profile` flushed, and the tables of
# ab_table.py / single_pass_shapes.py. Everything goes to OUT_DIR (then tar it).
#   run_epoch_experiment.sh BINARY OUT_DIR [VALUES kinds for check, default "integer unit wide"]
# MODES (default "ab_none ab_all prof") picks the ncu runs; ROUNDS and CANDS pass through.
set -uo pipefail
bin=$1 out=$2 kinds=${3:-integer unit wide}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
{ nvidia-smi -L; date -u; ncu --version | tail -1; } >"$out/env.txt" 2>&1
for k in $kinds; do
  v=$k; [ "$k" = integer ] && v=
  VALUES=$v "$bin" check >>"$out/check.txt" 2>&1
done
for m in ${MODES:-ab_none ab_all prof}; do
  case $m in
    ab_none) mode=ab cache=none ;;
    ab_all) mode=ab cache=all ;;
    prof*) mode=profile cache=all ;;
  esac
  ncu --clock-control none --cache-control "$cache" --csv --metrics gpu__time_duration.sum \
    -k regex:exp_ "$bin" "$mode" "$out/$m.csv" >"$out/${m}_ncu.csv" 2>"$out/$m.err"
  if [ "$mode" = ab ]; then
    python3 "$here/ab_table.py" "$out/$m.csv" "$out/${m}_ncu.csv" >"$out/$m.md" 2>&1
  else
    python3 "$here/single_pass_shapes.py" "$out/$m.csv" "$out/${m}_ncu.csv" >"$out/$m.md" 2>&1
  fi
  gzip -f "$out/${m}_ncu.csv"
done
