#!/usr/bin/env bash
# The app's hardware counters against Nsight Compute on the same kernels (scripts/bench.sh
# counters runs it). Runs on any machine with an NVIDIA GPU, ncu and the right to read counters:
#   1. reductionlab-cli run --counters: the classic ladder at its set-up (N = 2^24, B = 1024,
#      global workspace) and the modern kernels at 2^24 (app_*.json, app_*.txt; the time each
#      counter run took is in app_*.time);
#   2. the same points under `ncu --metrics <every metric the app read>` without --counters, one
#      launch per point (no warm-up, one sample) (ncu_*.csv, ncu_run_*.json);
#   3. scripts/counters_vs_ncu.py: the comparison, one line per kernel and metric (compare_*.txt,
#      compare_*.md; spread_*.txt with NCU_SAMPLES > 1).
# Usage: CLI=path/to/reductionlab-cli OUT=dir scripts/counters-vs-ncu.sh
# Settings (environment): COUNTERS, the app's --counters list (default: default); NCU_CACHE, ncu's
# --cache-control (all, ncu's default, or none: the kernels then meet the cache as the app's
# own L2 flush leaves it, as in the app's pass); NCU_SAMPLES, launches per point under ncu
# (default 1; more give ncu's own spread, compared by `counters_vs_ncu.py --spread`); APP_RUNS,
# app counter runs per set (default 1; a second gives the app's own spread, app_NAME_2.json);
# NCU_REPLAY, ncu's --replay-mode (kernel, its default: ncu saves and restores the kernel's
# memory between passes; application: the whole run again per pass, nothing of ncu's between).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="${CLI:-/tmp/rl/bin/reductionlab-cli}"
out="${OUT:-counters-out}"
counters="${COUNTERS:-default}"
ncu_cache="${NCU_CACHE:-all}"
ncu_samples="${NCU_SAMPLES:-1}"
app_runs="${APP_RUNS:-1}"
ncu_replay="${NCU_REPLAY:-kernel}"
mkdir -p "$out"
modern="warp_shuffle,reduce_add_sync,cg_reduce,vectorized,single_pass,cub_device_reduce"
# Kernels of the points, not the read floor (read_stream) or the L2 flush (read_through).
kernels='regex:neighbored|interleaved|unroll|finish_partials|warp_shuffle|warp_family|reduce_add_sync|cg_reduce|vectorized|single_pass|DeviceReduce|cub_block'
# Under ncu every point launches once: no warm-up, one sample (flags given override the rest).
echo "{\"timing\": {\"warmup\": 0, \"min_samples\": $ncu_samples, \"max_samples\": $ncu_samples, \"budget_ms\": 1}}" \
  > "$out/one_launch.json"
run_set() {  # name, then the run's point flags
  local name="$1"; shift
  local start
  start=$(date +%s%N)
  timeout -s INT 120 "$cli" run "$@" --counters "$counters" --json "$out/app_$name.json" > "$out/app_$name.txt" 2>&1
  echo "exit $?" >> "$out/app_$name.txt"
  echo "$(( ($(date +%s%N) - start) / 1000000 ))" | sed 's/\(...\)$/.\1/' > "$out/app_$name.time"
  for ((k = 2; k <= app_runs; ++k)); do
    timeout -s INT 120 "$cli" run "$@" --counters "$counters" --json "$out/app_${name}_$k.json" \
      > "$out/app_${name}_$k.txt" 2>&1
  done
  local metrics
  metrics=$(python3 - "$out/app_$name.json" <<'PY'
import json, sys
names = []
for r in json.load(open(sys.argv[1]))["results"]:
    for k in (r.get("counters") or {}).get("kernels", []):
        names += [m for m in k["metrics"] if m not in names]
print(",".join(names))
PY
)
  if [ -z "$metrics" ]; then echo "no counters in app_$name.json: see app_$name.txt"; return; fi
  # --clock-control none: CUPTI's range profiler leaves the clocks as they are, so must ncu;
  # --cache-control all: ncu flushes caches before every replay, as the app flushes L2.
  timeout 300 ncu --clock-control none --cache-control "$ncu_cache" --replay-mode "$ncu_replay" --csv --metrics "$metrics" -k "$kernels" \
    "$cli" run --in-process "$@" --spec "$out/one_launch.json" --json "$out/ncu_run_$name.json" \
    > "$out/ncu_$name.csv" 2> "$out/ncu_$name.err"
  echo "ncu exit $?" >> "$out/ncu_$name.err"
  python3 "$here/counters_vs_ncu.py" "$out/app_$name.json" "$out/ncu_$name.csv" \
    "$out/ncu_run_$name.json" > "$out/compare_$name.txt" 2>&1
  python3 "$here/counters_vs_ncu.py" "$out/app_$name.json" "$out/ncu_$name.csv" \
    "$out/ncu_run_$name.json" --markdown > "$out/compare_$name.md" 2>&1
  if [ "$ncu_samples" -gt 1 ]; then
    python3 "$here/counters_vs_ncu.py" "$out/app_$name.json" "$out/ncu_$name.csv" \
      "$out/ncu_run_$name.json" --spread > "$out/spread_$name.txt" 2>&1
  fi
  for ((k = 2; k <= app_runs; ++k)); do
    python3 "$here/counters_vs_ncu.py" "$out/app_${name}_$k.json" "$out/ncu_$name.csv" \
      "$out/ncu_run_$name.json" > "$out/compare_${name}_$k.txt" 2>&1
  done
  echo "== $name: counter run $(cat "$out/app_$name.time") s"; tail -1 "$out/compare_$name.txt"
}
# The classic ladder, as the blog series names its kernels.
ladder="reduceNeighbored,reduceNeighboredLess,reduceInterleaved,reduceUnroll2,reduceUnroll4"
ladder+=",reduceUnroll8,reduceUnrollWarp8,reduceCompleteUnrollWarp8,reduceCompleteUnroll"
run_set ladder --variants "$ladder" --sizes 2^24 --block-sizes 1024 --workspace global
run_set modern --variants "$modern" --sizes 2^24 --block-sizes 1024 --baseline cub_device_reduce
