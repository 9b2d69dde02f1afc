#!/usr/bin/env bash
# Measures one table of docs/benchmarks.md on the GPU machine this runs on, and writes it:
#   scripts/bench.sh NAME [NAME ...]      NAME: ladder floor cub counters lines multi labs, or all
# Each NAME writes NAME.json (the CLI's session; some write more files beside it) and NAME.md,
# the table as docs/benchmarks.md shows it, headed with the date, GPU, driver and commit the
# session records and the command that made it (scripts/bench_tables.py makes the tables).
#
# Runs on any machine with an NVIDIA GPU and a built tree. Settings (environment):
#   BIN  folder holding reductionlab-cli (default build/cli; the worker is looked for beside it,
#        then in BIN/../worker, unless REDUCTIONLAB_WORKER names it)
#   OUT  folder for the files (default out/bench, git-ignored)
# counters and the line-count check of lines also need Nsight Compute (ncu) on PATH and the
# right to read GPU counters; multi wants two GPUs or more (one gives the single-GPU row).
# With the binaries packed by scripts/pack-device.sh on another machine: unpack them and point
# BIN there, e.g.
#   mkdir -p /tmp/rl && tar xJf .device/bin.tar.xz -C /tmp/rl
#   BIN=/tmp/rl/bin LD_LIBRARY_PATH=/tmp/rl/bin scripts/bench.sh all
set -uo pipefail
[ $# -gt 0 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
bin="${BIN:-$here/../build/cli}"
out="${OUT:-out/bench}"
cli="$bin/reductionlab-cli"
[ -x "$cli" ] || { echo "bench.sh: no reductionlab-cli in $bin (set BIN)" >&2; exit 2; }
if [ -z "${REDUCTIONLAB_WORKER:-}" ] && [ ! -x "$bin/reductionlab-worker" ] &&
   [ -x "$bin/../worker/reductionlab-worker" ]; then
  export REDUCTIONLAB_WORKER="$bin/../worker/reductionlab-worker"
fi
mkdir -p "$out"
driver="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
tables() {  # NAME FILES...: NAME.md from the files
  local name="$1"; shift
  python3 "$here/bench_tables.py" "$name" "$@" --driver "${driver:-unknown}" \
    --command "scripts/bench.sh $name" > "$out/$name.md" && echo "wrote $out/$name.md"
}
run() {  # NAME, then the CLI's run flags: NAME.json and NAME.txt (the CLI's own table)
  local name="$1"; shift
  "$cli" run "$@" --json "$out/$name.json" > "$out/$name.txt" 2>&1 ||
    echo "bench.sh: reductionlab-cli run for $name failed, see $out/$name.txt" >&2
}
has_ncu() { command -v ncu >/dev/null 2>&1 || { echo "bench.sh: $1 needs ncu on PATH" >&2; false; }; }
ladder12="reduceNeighbored,reduceNeighboredLess,reduceInterleaved,reduceUnroll2,reduceUnroll4,\
reduceUnroll8,reduceUnrollWarp8,unroll_warp_sync,reduceCompleteUnrollWarp8,complete_unroll_warp_sync,\
reduceCompleteUnroll,complete_unroll_sync"

bench_ladder() {
  run ladder --variants "$ladder12" --workspace both --block-sizes 1024 --sizes 2^24,2^28
  tables ladder "$out/ladder.json"
}
bench_floor() {  # every one-launch and two-pass kernel past the classic ladder, int32 and float32
  run floor --variants reduceInterleaved,warp_shuffle,vectorized,single_pass,epoch_pass,cub_device_reduce \
    --block-sizes 512 --unroll 4 --sizes 2^16..2^28 --type both --baseline cub_device_reduce
  tables floor "$out/floor.json"
}
bench_cub() {  # the one-launch kernels in every shape against CUB; with ncu, the harness against it
  local pts=(--variants single_pass,epoch_pass,cub_device_reduce --block-sizes 128,256,512,1024
             --unroll 1,2,4,8 --sizes 2^16..2^28)
  run cub "${pts[@]}" --baseline cub_device_reduce
  tables cub "$out/cub.json"
  if command -v ncu >/dev/null 2>&1; then
    ncu --clock-control none --csv --metrics gpu__time_duration.sum \
      -k 'regex:single_pass|epoch_pass|DeviceReduce' "$cli" run --in-process "${pts[@]}" \
      --min-samples 5 --max-samples 5 --json "$out/cub_profiled.json" > "$out/cub_ncu.csv" 2> "$out/cub_ncu.err"
    python3 "$here/ncu_compare.py" "$out/cub_ncu.csv" "$out/cub_profiled.json" "$out/cub.json" \
      > "$out/cub_ncu.md" && echo "wrote $out/cub_ncu.md"
  fi
}
bench_counters() {  # the app's counters (three repeats) against ncu's (three launches per point)
  has_ncu counters || return
  CLI="$cli" OUT="$out/counters" NCU_SAMPLES=3 COUNTERS=default,sm_frequency,dram_frequency \
    "$here/counters-vs-ncu.sh" > "$out/counters.txt" 2>&1
  cp "$out/counters/app_ladder.json" "$out/counters.json"
  local c="$out/counters"
  tables counters "$c/app_ladder.json" "$c/ncu_ladder.csv" "$c/ncu_run_ladder.json" \
    "$c/app_modern.json" "$c/ncu_modern.csv" "$c/ncu_run_modern.json"
}
bench_lines() {  # warp samples per rung, beside the counters; executed instructions against ncu
  run lines --preset ladder --workspace both --line-samples
  run lines_counters --preset ladder --workspace both --counters
  local counted=()
  if command -v ncu >/dev/null 2>&1; then
    run lines_counts --preset ladder --workspace global --line-counts
    for v in reduceNeighbored reduceInterleaved reduceUnrollWarp8; do
      ncu --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum --csv \
        -k regex:'reduce|finish_partials' -c 2 "$cli" run --in-process --variants $v --sizes 2^24 \
        --block-sizes 1024 --workspace global --min-samples 1 --max-samples 1 \
        > "$out/lines_ncu_$v.csv" 2> "$out/lines_ncu_$v.err"
      counted+=("$v=$out/lines_ncu_$v.csv")
    done
    counted=("$out/lines_counts.json" "${counted[@]}")
  fi
  tables lines "$out/lines.json" "$out/lines_counters.json" "${counted[@]}"
}
bench_multi() {  # one reduction over every GPU of the machine, each way of combining the partials
  NCCL_NVLS_ENABLE=0 run multi --gpus all --sizes 2^28,2^30 --type int32
  tables multi "$out/multi.json"
}
bench_labs() {
  for p in divergence divergence-sweep predicates unroll-pragma; do run "labs_$p" --preset $p; done
  run labs_counters --preset divergence --counters branch_uniformity,threads_per_inst,inst_executed
  cp "$out/labs_divergence.json" "$out/labs.json"
  tables labs "$out"/labs_{divergence,divergence-sweep,predicates,unroll-pragma,counters}.json
}

names=("$@")
[ "$1" = all ] && names=(ladder floor cub counters lines multi labs)
for name in "${names[@]}"; do
  case "$name" in
    ladder | floor | cub | counters | lines | multi | labs) "bench_$name" ;;
    *) echo "bench.sh: unknown table '$name' (ladder floor cub counters lines multi labs all)" >&2; exit 2 ;;
  esac
done
