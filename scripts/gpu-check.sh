#!/usr/bin/env bash
# Runs on the GPU machine (see ../shared/device/README.md): unpacks the binaries that
# scripts/pack-device.sh made, then runs the GPU tests, the sanitizers, the benchmarks and an
# ncu cross-check. Every step writes a log under $OUT (or ./gpu-out). Steps: STEPS="tests
# memcheck racecheck ladder sweep ncu gui session final allsweep ncu2 ncu3 roof
# memcheck_runner counters floor17 labs remote lines linecounts story" (default: the first six).
# gui and remote need .device-qt/qt-runtime.tar.xz (../shared/device/pack-qt-runtime) carried along.
set -uo pipefail
final="${OUT:-gpu-out}"
out=/tmp/rl-out   # packed into $final/results.tar.gz at the end (the tool returns few files)
rm -rf "$out"; mkdir -p "$out" /tmp/rl "$final"
tar xJf .device/bin.tar.xz -C /tmp/rl
B=/tmp/rl/bin
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # libgif.so.7 (pack-device.sh)
steps="${STEPS:-tests memcheck racecheck ladder sweep ncu}"
commit="${RL_COMMIT:-$(cat $B/COMMIT 2>/dev/null || echo unknown)}"  # written by pack-device.sh
{ date -u; echo "commit $commit"; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } > "$out/env.txt" 2>&1
has() { [[ " $steps " == *" $1 "* ]]; }
ladder="reduceNeighbored,reduceNeighboredLess,reduceInterleaved,reduceUnroll2,reduceUnroll4,reduceUnroll8,reduceUnrollWarp8,unroll_warp_sync,reduceCompleteUnrollWarp8,complete_unroll_warp_sync,reduceCompleteUnroll,complete_unroll_sync"

if has tests; then
  timeout 200 $B/gpu_tests --gtest_brief=1 > "$out/gpu_tests.log" 2>&1; echo "gpu_tests exit $?" >> "$out/gpu_tests.log"
  timeout 60 $B/engine_tests --gtest_brief=1 >> "$out/gpu_tests.log" 2>&1; echo "engine_tests exit $?" >> "$out/gpu_tests.log"
fi
if has memcheck; then
  RL_GPU_TEST_MAX_SIZE=1000003 timeout 240 compute-sanitizer --tool memcheck --print-limit 20 \
    $B/gpu_tests --gtest_brief=1 --gtest_filter='*_N33:*_N1000:*B1024*_N1000003' > "$out/memcheck.log" 2>&1
  echo "memcheck exit $?" >> "$out/memcheck.log"
fi
if has racecheck; then
  for v in ${RACECHECK_VARIANTS:-unroll_warp_volatile unroll_warp_sync complete_unroll_volatile complete_unroll_sync warp_shuffle single_pass cluster_single_pass}; do
    echo "== $v" >> "$out/racecheck.log"
    timeout 40 compute-sanitizer --tool racecheck --print-limit 4 $B/gpu_tests --gtest_brief=1 \
      --gtest_filter="*/${v}_*B256_U*_N1000:*/${v}_*int32_B256_U*_N1000" >> "$out/racecheck.log" 2>&1
    echo "racecheck $v exit $?" >> "$out/racecheck.log"
  done
fi
if has ladder; then
  $B/reductionlab-cli devices --measure > "$out/devices.txt" 2>&1
  for n in 2^24 2^28; do
    tag="${n/^/p}"
    timeout -s INT 100 $B/reductionlab-cli run --variants "$ladder" --workspace both --block-sizes 1024 --sizes "$n" \
      --json "$out/ladder_$tag.json" > "$out/ladder_$tag.txt" 2>&1
    echo "exit $?" >> "$out/ladder_$tag.txt"
  done
fi
if has sweep; then
  timeout -s INT 130 $B/reductionlab-cli run --variants single_pass,vectorized,warp_shuffle,cub_device_reduce \
    --block-sizes 128,256,512,1024 --unroll 1,2,4,8 --sizes 2^16,2^20,2^24,2^28 --baseline cub_device_reduce \
    --json "$out/tune.json" > "$out/tune.txt" 2>&1
  echo "exit $?" >> "$out/tune.txt"
fi
if has labs; then
  # The labs of seeds 003 and 004 (issue 13): their presets, then ncu's view of the divergence
  # lab's kernels (branch uniformity, threads per instruction, instructions) at the preset's
  # shape, one launch per variant (the first, a warm-up: counters, not times).
  for p in divergence divergence-sweep predicates unroll-pragma; do
    timeout -s INT 150 $B/reductionlab-cli run --preset $p --json "$out/lab_$p.json" > "$out/lab_$p.txt" 2>&1
    echo "exit $?" >> "$out/lab_$p.txt"
  done
  # The app's own counters (CUPTI) on the same kernels, to set beside ncu's.
  timeout -s INT 150 $B/reductionlab-cli run --preset divergence --counters branch_uniformity,threads_per_inst,inst_executed \
    --json "$out/lab_counters.json" > "$out/lab_counters.txt" 2>&1
  echo "exit $?" >> "$out/lab_counters.txt"
  for v in ${LABS_NCU_VARIANTS-branch_divergent branch_uniform if_else_cheap select_cheap if_else_costly select_costly \
           loop_invariant_inside loop_invariant_hoisted abs_branch abs_bit_trick branch_data branch_partitioned}; do
    echo "== $v" >> "$out/lab_ncu.txt"
    timeout 60 ncu --clock-control none -k regex:branch_lab -c 1 --csv --metrics \
      gpu__time_duration.sum,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__sass_inst_executed.sum,smsp__sass_branch_targets_threads_divergent.sum \
      $B/reductionlab-cli run --in-process --variants $v --sizes 2^24 --block-sizes 256 --budget-ms 1 >> "$out/lab_ncu.txt" 2>&1
    echo "ncu exit $?" >> "$out/lab_ncu.txt"
  done
fi
if has ncu; then
  timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    -k regex:'reduce_interleaved|single_pass|DeviceReduce' -c 12 \
    $B/reductionlab-cli run --in-process --variants reduceInterleaved,single_pass,cub_device_reduce --sizes 2^24 --block-sizes 256 --unroll 4 \
    --budget-ms 1 --noise 0.5 --json "$out/ncu_run.json" > "$out/ncu.txt" 2>&1
  echo "ncu exit $?" >> "$out/ncu.txt"
fi
if has roof; then
  # The read floor: the device's, then a sweep 2^16..2^28 with % of the floor per N (int32 and
  # float32), and ncu's own durations of the floor kernel and the points for comparison.
  $B/reductionlab-cli devices --measure > "$out/roof_devices.txt" 2>&1; echo "exit $?" >> "$out/roof_devices.txt"
  timeout -s INT 240 $B/reductionlab-cli run --variants reduceInterleaved,single_pass,vectorized,cub_device_reduce \
    --block-sizes 512 --unroll 4 --sizes 2^16..2^28 --type both --baseline cub_device_reduce \
    --json "$out/roof_sweep.json" --csv "$out/roof_sweep.csv" > "$out/roof_sweep.txt" 2>&1
  echo "exit $?" >> "$out/roof_sweep.txt"
  timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:'read_stream|single_pass' \
    --csv $B/reductionlab-cli run --in-process --variants single_pass --block-sizes 512 --unroll 4 --sizes 2^16,2^20,2^24,2^28 \
    --budget-ms 1 --min-samples 5 --max-samples 5 --noise 0.5 > "$out/roof_ncu.csv" 2>&1
  echo "ncu exit $?" >> "$out/roof_ncu.csv"
fi
if has gui; then
  tar xJf .device-qt/qt-runtime.tar.xz -C /tmp && source /tmp/qt-runtime/env.sh
  export QT_QPA_PLATFORM=offscreen
  timeout 120 $B/gui_tests --gtest_brief=1 --gtest_filter='-AppRemoteGpu.*' > "$out/gui_tests.log" 2>&1; echo "gui_tests exit $?" >> "$out/gui_tests.log"
  mkdir -p "$out/shots"
  RL_GUI_SCREENSHOTS="$out/shots" timeout 200 $B/gui_tests --gtest_filter='AppGpu.ScreenshotsOfALiveLadder' >> "$out/gui_tests.log" 2>&1
  echo "live ladder exit $?" >> "$out/gui_tests.log"
fi
if has session; then
  # The session bundled with the app (resources/sessions/h200-ladder.json; its README has the
  # command), with hardware counters (issue 10) beside the times.
  timeout -s INT 400 $B/reductionlab-cli run --device cuda:0 --counters \
    --variants reduceNeighbored,reduceNeighboredLess,reduceInterleaved,reduceUnroll2,reduceUnroll4,reduceUnroll8,reduceUnrollWarp8,reduceCompleteUnrollWarp8,reduceCompleteUnroll,complete_unroll_sync,warp_shuffle,single_pass,cluster_single_pass,epoch_pass,cub_device_reduce \
    --workspace both --block-sizes 1024 --sizes 2^16,2^20,2^24,2^28 --json "$out/h200-ladder.json" > "$out/session.txt" 2>&1
  echo "exit $?" >> "$out/session.txt"
fi
if has counters; then
  # Issue 10: the counters of the seed's ladder and the modern kernels against ncu.
  CLI=$B/reductionlab-cli OUT="$out/counters" timeout 300 scripts/counters-vs-ncu.sh \
    > "$out/counters.txt" 2>&1
  echo "exit $?" >> "$out/counters.txt"
fi
if has counters_spread; then
  # Issue 10, item 4, what the disagreements are made of: every catalog counter (with the
  # kernel's duration, DRAM bytes and L2 sectors), three launches per point under ncu (ncu's own
  # spread) and two app runs (the app's), under ncu's default cache flush and with none (the
  # kernels then meet L2 as the app's own flush leaves it).
  for cache in all none; do
    CLI=$B/reductionlab-cli OUT="$out/counters_$cache" COUNTERS=all NCU_CACHE=$cache NCU_SAMPLES=3 \
      APP_RUNS=2 timeout 280 scripts/counters-vs-ncu.sh > "$out/counters_$cache.txt" 2>&1
    echo "exit $?" >> "$out/counters_$cache.txt"
  done
fi
if has cligap; then
  # Issue 17: the same single-pass kernel through reductionlab-cli's worker process, in process,
  # and in a worker started by ncu itself, under ncu; then the CLI's own timing (no ncu) through
  # the worker and in process (docs/data/h200-cligap-2026-12-01/README.md).
  mkdir -p "$out/cligap"
  nc="ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k regex:single_pass"
  pt="--variants single_pass --block-sizes 512 --unroll 4 --sizes 2^20,2^24 --type both"
  q="--min-samples 5 --max-samples 5 --budget-ms 1 --noise 0.5 --warm-l2"
  timeout 100 $nc $B/reductionlab-cli run $pt $q --json "$out/cligap/worker.json" > "$out/cligap/ncu-cli-worker.csv" 2>/dev/null
  timeout 100 $nc $B/reductionlab-cli run --in-process $pt $q --json "$out/cligap/inproc.json" > "$out/cligap/ncu-cli-inproc.csv" 2>/dev/null
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); j['results']=[]; json.dump(j, open(sys.argv[2],'w'))" \
    "$out/cligap/worker.json" /tmp/cligap-spec.json
  timeout 100 $nc $B/reductionlab-worker --device 0 --input /tmp/cligap-spec.json > "$out/cligap/ncu-worker-direct.csv" 2>/dev/null
  for k in 1 2; do
    timeout 60 $B/reductionlab-cli run $pt --min-samples 60 --max-samples 60 --budget-ms 1000 --json "$out/cligap/harness-worker_$k.json" > /dev/null 2>&1
    timeout 60 $B/reductionlab-cli run --in-process $pt --min-samples 60 --max-samples 60 --budget-ms 1000 --json "$out/cligap/harness-inproc_$k.json" > /dev/null 2>&1
  done
fi
if has lines; then
  # Issue 11: warp samples per instruction (CUPTI PC sampling) of the seed's ladder, both
  # workspaces, then the Code view's text of five rungs with them (resources/sessions/README.md
  # says how the bundled session takes them).
  mkdir -p "$out/lines"
  timeout -s INT 200 $B/reductionlab-cli run --preset ladder --workspace both --line-samples \
    --json "$out/lines/ladder-lines.json" > "$out/lines/run.txt" 2>&1
  echo "exit $?" >> "$out/lines/run.txt"
  for v in reduceNeighbored reduceNeighboredLess reduceInterleaved reduceUnroll8 reduceUnrollWarp8; do
    for mode in "" --source --sass; do
      $B/reductionlab-cli code --variant $v --block-size 1024 --samples "$out/lines/ladder-lines.json" \
        $mode > "$out/lines/code-$v${mode:+-${mode#--}}.txt" 2>&1
    done
  done
fi
if has linecounts; then
  # Executed instructions and thread efficiency per instruction (CUPTI's SASS metrics) of the
  # seed's ladder, then the Code view's text of four rungs with them; and the GPU test alone.
  mkdir -p "$out/linecounts"
  timeout 200 $B/gpu_tests --gtest_filter='LineCountsOnGpu.*' > "$out/linecounts/test.txt" 2>&1
  echo "exit $?" >> "$out/linecounts/test.txt"
  timeout -s INT 200 $B/reductionlab-cli run --preset ladder --workspace both --line-counts \
    --json "$out/linecounts/ladder-counts.json" > "$out/linecounts/run.txt" 2>&1
  echo "exit $?" >> "$out/linecounts/run.txt"
  for v in reduceNeighbored reduceNeighboredLess reduceInterleaved reduceUnrollWarp8; do
    for mode in "" --source --sass; do
      $B/reductionlab-cli code --variant $v --block-size 1024 \
        --samples "$out/linecounts/ladder-counts.json" $mode \
        > "$out/linecounts/code-$v${mode:+-${mode#--}}.txt" 2>&1
    done
  done
  # ncu's totals of the same kernels (one launch of each: counts do not vary between launches),
  # to compare with the sums of the per-instruction counts (scripts/line_counts_vs_ncu.py).
  for vw in reduceNeighbored:global reduceInterleaved:global reduceUnrollWarp8:global \
            single_pass:registers; do
    v=${vw%:*}
    timeout 120 ncu --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum --csv \
      -k regex:'reduce|finish_partials|single_pass' -c 2 $B/reductionlab-cli run --in-process \
      --variants $v --sizes 2^24 --block-sizes 1024 --workspace ${vw#*:} --min-samples 1 \
      --max-samples 1 > "$out/linecounts/ncu-$v.csv" 2> "$out/linecounts/ncu-$v.err"
  done
fi
if has story; then
  # Issue 12: a live story run of the seed's ladder (three steps measured now), with screenshots.
  [ -n "${QT_PLUGIN_PATH:-}" ] || { tar xJf .device-qt/qt-runtime.tar.xz -C /tmp && source /tmp/qt-runtime/env.sh; }
  mkdir -p "$out/story_shots"
  QT_QPA_PLATFORM=offscreen RL_STORY_SHOTS="$out/story_shots" timeout 300 $B/gui_tests \
    --gtest_filter='AppStoryGpu.*' > "$out/story.log" 2>&1
  echo "story exit $?" >> "$out/story.log"
fi
if has memcheck_runner; then
  timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $B/gpu_tests --gtest_brief=1 \
    --gtest_filter='RunnerOnGpu.*' > "$out/memcheck_runner.log" 2>&1
  echo "memcheck exit $?" >> "$out/memcheck_runner.log"
fi
if has final; then
  # Issue 3's recorded run: the single pass in every shape against CUB, 2^16..2^28, twice.
  for run in 1 2; do
    timeout -s INT 150 $B/reductionlab-cli run --variants single_pass,cub_device_reduce \
      --block-sizes 128,256,512,1024 --unroll 1,2,4,8 --sizes 2^16..2^28 --baseline cub_device_reduce \
      --noise 0.002 --budget-ms 60 --min-samples ${FINAL_MIN_SAMPLES:-5} --json "$out/final_$run.json" > "$out/final_$run.txt" 2>&1
    echo "exit $?" >> "$out/final_$run.txt"
  done
fi
if has allsweep; then
  # Every variant past the seed, CUB, and the seed's best rungs, at their default shapes.
  timeout -s INT 150 $B/reductionlab-cli run --variants \
    reduceInterleaved,reduceUnroll8,complete_unroll_sync,warp_shuffle,reduce_add_sync,cg_reduce,vectorized,single_pass,cub_device_reduce,cub_block_reduce_raking,cub_block_reduce_warp_reductions \
    --block-sizes 1024 --sizes 2^10..2^28 --baseline cub_device_reduce --json "$out/allsweep.json" > "$out/allsweep.txt" 2>&1
  echo "exit $?" >> "$out/allsweep.txt"
fi
if has ncu2; then
  for cc in all none; do
    timeout 100 ncu --clock-control none --cache-control $cc --csv --metrics gpu__time_duration.sum \
      -k 'regex:single_pass|DeviceReduce' $B/reductionlab-cli run --in-process --variants single_pass,cub_device_reduce \
      --block-sizes 256,1024 --unroll 4 --sizes 2^16,2^20,2^24,2^28 --budget-ms 1 --noise 0.5 \
      --json "$out/ncu_run_$cc.json" > "$out/ncu_$cc.csv" 2> "$out/ncu_$cc.err"
    echo "ncu $cc exit $?" >> "$out/ncu_$cc.err"
  done
fi
if has ncu3; then
  # Target 4 of the modern kernels: the harness (events, and GPU time with the timestamps taken out) against
  # ncu's gpu__time_duration, every size 2^16..2^28. Harness first, unprofiled; then ncu.
  pts=(--variants single_pass,vectorized,cub_device_reduce --block-sizes 256,512,1024 --unroll 4 --sizes 2^16..2^28)
  timeout -s INT 150 $B/reductionlab-cli run "${pts[@]}" --noise 0.002 --budget-ms 60 \
    --json "$out/ncu3_harness.json" > "$out/ncu3_harness.txt" 2>&1
  echo "exit $?" >> "$out/ncu3_harness.txt"
  timeout 250 ncu --clock-control none --csv --metrics gpu__time_duration.sum \
    -k 'regex:single_pass|DeviceReduce|vectorized_grid_stride|finish_partials' \
    $B/reductionlab-cli run --in-process "${pts[@]}" --min-samples 25 --max-samples 25 \
    --json "$out/ncu3_profiled.json" > "$out/ncu3.csv" 2> "$out/ncu3.err"
  echo "ncu exit $?" >> "$out/ncu3.err"
fi
floor17_run() {  # one run of the floor17 step into folder $1
  local o="$1"
  mkdir -p "$o"
  (cd "$o" && timeout 120 ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum \
    -k regex:exp_floor /tmp/sps floor "$o/floor_launches.csv" > "$o/floor_ncu.csv" 2> "$o/floor_ncu.err")
  echo "floor ncu exit $?" >> "$o/floor_ncu.err"
  # --warm-l2: ncu flushes the caches before every kernel; the harness's own flush would leave
  # dirty lines behind for ncu's flush to write back while the kernel reads (the floor has none).
  # FLOOR17_VARIANTS: the one-launch variants timed in every shape (the cluster rung apart, below;
  # FLOOR17_CLUSTER=0 leaves it out).
  timeout 300 ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k 'regex:single_pass|epoch_pass' \
    $B/reductionlab-cli run --in-process --variants "${FLOOR17_VARIANTS:-single_pass,epoch_pass}" --block-sizes 128,256,512,1024 --unroll 1,2,4,8 \
    --sizes 2^16..2^28 --type "${FLOOR17_TYPE:-both}" --min-samples 3 --max-samples 3 --budget-ms 1 --noise 0.5 --warm-l2 \
    --json "$o/floor17_profiled.json" > "$o/floor17_ncu.csv" 2> "$o/floor17.err"
  echo "ncu exit $?" >> "$o/floor17.err"
  if [ "${FLOOR17_CLUSTER:-1}" != 0 ]; then
    timeout 100 ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k 'regex:single_pass' \
      $B/reductionlab-cli run --in-process --variants cluster_single_pass --block-sizes 256,512 --unroll 2,4,8 \
      --sizes 2^16..2^28 --type both --min-samples 3 --max-samples 3 --budget-ms 1 --noise 0.5 --warm-l2 \
      --json "$o/floor17_cluster.json" > "$o/floor17_cluster_ncu.csv" 2> "$o/floor17_cluster.err"
    echo "ncu exit $?" >> "$o/floor17_cluster.err"
  fi
  local cluster_files=()
  [ -s "$o/floor17_cluster.json" ] && cluster_files=("$o/floor17_cluster_ncu.csv" "$o/floor17_cluster.json")
  python3 scripts/floor_targets.py "$o/floor_launches.csv" "$o/floor_ncu.csv" "$o/floor17_ncu.csv" \
    "$o/floor17_profiled.json" "${cluster_files[@]}" > "$o/floor17_table.md" 2>&1
}
if has floor17; then
  # Issue 17: the read floor per N (kernels/read_floor.cu's kernel in its six shapes, from the
  # experiment's floor mode) and the one-launch variants in every shape, int32 and float32, all
  # under ncu with caches flushed; scripts/floor_targets.py makes the table. FLOOR17_RUNS=R > 1
  # repeats the whole step R times (floor17_run1 ...; one run moves by as much as the targets'
  # margins) and scripts/floor_runs.py puts the runs side by side with their medians.
  nvcc -O3 -std=c++20 -arch=sm_90 docs/experiments/single_pass_shapes.cu -o /tmp/sps
  runs="${FLOOR17_RUNS:-1}"
  if [ "$runs" -le 1 ]; then
    floor17_run "$out"
  else
    dirs=()
    for k in $(seq 1 "$runs"); do floor17_run "$out/floor17_run$k"; dirs+=("$out/floor17_run$k"); done
    python3 scripts/floor_runs.py "${dirs[@]}" > "$out/floor17_runs.md" 2>&1
  fi
fi
if has remote; then
  # Issue 18: the app on a GPU it reaches only through a launcher. The app's own process sees no
  # GPU (CUDA_VISIBLE_DEVICES=), as on a laptop; the launcher `env CUDA_VISIBLE_DEVICES=0` gives
  # the CLI the H200 back. The seed's ladder live, point by point, and a two-device run (the GPU
  # and the host backend), with screenshots; then the CLI's own stream and devices --json.
  [ -n "${QT_PLUGIN_PATH:-}" ] || { tar xJf .device-qt/qt-runtime.tar.xz -C /tmp && source /tmp/qt-runtime/env.sh; }
  mkdir -p "$out/remote_shots"
  CUDA_VISIBLE_DEVICES= QT_QPA_PLATFORM=offscreen RL_GUI_SCREENSHOTS="$out/remote_shots" \
    timeout 400 $B/gui_tests --gtest_filter='AppRemoteGpu.*:AppRemote.*' > "$out/remote.log" 2>&1
  echo "remote exit $?" >> "$out/remote.log"
  $B/reductionlab-cli devices --json > "$out/remote_devices.jsonl" 2>&1
  echo '{"sizes":[16777216]}' | timeout -s INT 120 $B/reductionlab-cli run --stream jsonl --spec - \
    --device cuda:0 > "$out/remote_stream.jsonl" 2> "$out/remote_stream.err"
  echo "exit $?" >> "$out/remote_stream.err"
fi
ls -la "$out"
tar czf "$final/results.tar.gz" -C "$out" .
