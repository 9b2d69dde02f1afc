#!/usr/bin/env bash
# The checks that need a GPU: the GPU tests, the sanitizers, the GUI's GPU tests, and the tables
# of docs/benchmarks.md (scripts/bench.sh). Runs on any machine with an NVIDIA GPU, from the
# repository root, with either
#   - binaries packed elsewhere by scripts/pack-device.sh (.device/bin.tar.xz, carried along), or
#   - a tree built here (scripts/build.sh; BUILD_DIR, default build).
# Every step writes a log under $OUT (default gpu-out), packed into $OUT/results.tar.gz.
#   STEPS="tests memcheck racecheck memcheck_runner gui story remote session timelines" (default: the
#   first three); ladder floor cub counters lines multi labs run scripts/bench.sh NAME.
# gui, story and remote need Qt's runtime: installed (scripts/install-deps.sh), or packed as
# .device-qt/qt-runtime.tar.xz with an env.sh that sets QT_PLUGIN_PATH and LD_LIBRARY_PATH.
set -uo pipefail
cd "$(dirname "$0")/.."
final="${OUT:-gpu-out}"
out=/tmp/rl-out
rm -rf "$out" /tmp/rl/bin; mkdir -p "$out" /tmp/rl/bin "$final"
B=/tmp/rl/bin
if [ -f .device/bin.tar.xz ]; then
  tar xJf .device/bin.tar.xz -C /tmp/rl
else
  build="${BUILD_DIR:-build}"
  for f in tests/engine_tests tests/gpu_tests tests/gui_tests tests/rl_fake_worker \
           tests/rl_fault_worker worker/reductionlab-worker cli/reductionlab-cli gui/reductionlab; do
    [ -x "$build/$f" ] && ln -s "$(realpath "$build/$f")" "$B/"
  done
  git rev-parse --short=12 HEAD > "$B/COMMIT"
fi
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # libgif.so.7 (pack-device.sh)
steps="${STEPS:-tests memcheck racecheck}"
commit="$(cat "$B/COMMIT" 2>/dev/null || echo unknown)"
{ date -u; echo "commit $commit"; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } > "$out/env.txt" 2>&1
has() { [[ " $steps " == *" $1 "* ]]; }
qt_runtime() {
  [ -n "${QT_PLUGIN_PATH:-}" ] || [ ! -f .device-qt/qt-runtime.tar.xz ] ||
    { tar xJf .device-qt/qt-runtime.tar.xz -C /tmp && source /tmp/qt-runtime/env.sh; }
}

if has tests; then
  # From a folder one below the root, as ctest runs them from build/: a build made with a
  # compiler cache's base_dir finds the fixtures beside the tests' sources through ../.
  mkdir -p .device-run
  (cd .device-run &&
   timeout 200 $B/gpu_tests --gtest_brief=1 > "$out/gpu_tests.log" 2>&1; echo "gpu_tests exit $?" >> "$out/gpu_tests.log"
   timeout 60 $B/engine_tests --gtest_brief=1 >> "$out/gpu_tests.log" 2>&1; echo "engine_tests exit $?" >> "$out/gpu_tests.log")
fi
if has memcheck; then
  RL_GPU_TEST_MAX_SIZE=1000003 timeout 240 compute-sanitizer --tool memcheck --print-limit 20 \
    $B/gpu_tests --gtest_brief=1 --gtest_filter='*_N33:*_N1000:*B1024*_N1000003' > "$out/memcheck.log" 2>&1
  echo "memcheck exit $?" >> "$out/memcheck.log"
fi
if has racecheck; then
  for v in ${RACECHECK_VARIANTS:-unroll_warp_volatile unroll_warp_sync complete_unroll_volatile complete_unroll_sync warp_shuffle single_pass cluster_single_pass epoch_pass}; do
    echo "== $v" >> "$out/racecheck.log"
    timeout 40 compute-sanitizer --tool racecheck --print-limit 4 $B/gpu_tests --gtest_brief=1 \
      --gtest_filter="*/${v}_*B256_U*_N1000:*/${v}_*int32_B256_U*_N1000" >> "$out/racecheck.log" 2>&1
    echo "racecheck $v exit $?" >> "$out/racecheck.log"
  done
fi
if has memcheck_runner; then
  timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $B/gpu_tests --gtest_brief=1 \
    --gtest_filter='RunnerOnGpu.*' > "$out/memcheck_runner.log" 2>&1
  echo "memcheck exit $?" >> "$out/memcheck_runner.log"
fi
if has gui; then
  qt_runtime
  export QT_QPA_PLATFORM=offscreen
  # From one below the root, as ctest runs them (the fixtures beside the tests' sources).
  mkdir -p .device-run
  (cd .device-run && timeout 120 $B/gui_tests --gtest_brief=1 --gtest_filter='-AppRemoteGpu.*' \
     > "$out/gui_tests.log" 2>&1; echo "gui_tests exit $?" >> "$out/gui_tests.log")
  mkdir -p "$out/shots"
  RL_GUI_SCREENSHOTS="$out/shots" timeout 200 $B/gui_tests --gtest_filter='AppGpu.ScreenshotsOfALiveLadder' >> "$out/gui_tests.log" 2>&1
  echo "live ladder exit $?" >> "$out/gui_tests.log"
fi
if has story; then
  # A live story run of the classic ladder (three steps measured now), with screenshots.
  qt_runtime
  mkdir -p "$out/story_shots"
  QT_QPA_PLATFORM=offscreen RL_STORY_SHOTS="$out/story_shots" timeout 300 $B/gui_tests \
    --gtest_filter='AppStoryGpu.*' > "$out/story.log" 2>&1
  echo "story exit $?" >> "$out/story.log"
fi
if has remote; then
  # The app on a GPU it reaches only through a launcher: the app's own process sees no GPU
  # (CUDA_VISIBLE_DEVICES=), as on a laptop; the launcher `env CUDA_VISIBLE_DEVICES=0` gives the
  # CLI the GPU back. Then the CLI's own stream and devices --json.
  qt_runtime
  mkdir -p "$out/remote_shots"
  CUDA_VISIBLE_DEVICES= QT_QPA_PLATFORM=offscreen RL_GUI_SCREENSHOTS="$out/remote_shots" \
    timeout 400 $B/gui_tests --gtest_filter='AppRemoteGpu.*:AppRemote.*' > "$out/remote.log" 2>&1
  echo "remote exit $?" >> "$out/remote.log"
  $B/reductionlab-cli devices --json > "$out/remote_devices.jsonl" 2>&1
  echo '{"sizes":[16777216]}' | timeout -s INT 120 $B/reductionlab-cli run --stream jsonl --spec - \
    --device cuda:0 > "$out/remote_stream.jsonl" 2> "$out/remote_stream.err"
  echo "exit $?" >> "$out/remote_stream.err"
fi
if has user; then
  # Kernels the user writes (docs/user-kernels.md): the GPU tests of them; the starters on the
  # ladder beside the built-in rungs; a kernel that faults and one that never finishes, each
  # survived by the worker process; and the time from a run's start to a verified bar.
  k=resources/kernels d=tests/data/user_kernels cli=$B/reductionlab-cli
  RL_TEST_SOURCE_DIR="$PWD" timeout 300 $B/gpu_tests --gtest_brief=1 \
    --gtest_filter='Starters/StarterOnGpu.*:Wrong/WrongKernelOnGpu.*:WritesTotalOnGpu.*' > "$out/user_tests.log" 2>&1
  echo "user gpu_tests exit $?" >> "$out/user_tests.log"
  # The lab sheets' solutions (resources/labs/solutions/) beside the built-in rungs they are
  # judged against, with counters: `reductionlab-cli lab SHEET --session user-ladder.json`.
  l=resources/labs/solutions
  timeout 300 $cli run --device cuda:0 --counters --kernel $l/remove-divergence.cu \
    --kernel $l/unroll-by-two.cu --kernel $l/last-warp.cu --kernel $l/warp-shuffle.cu \
    --variants reduceNeighbored,reduceNeighboredLess,reduceInterleaved,unroll,\
unroll_warp_sync,complete_unroll_sync,warp_shuffle --block-sizes 1024 --unroll 1,2,8 \
    --sizes 2^24 --json "$out/user-ladder.json" > "$out/user_ladder.txt" 2>&1
  echo "exit $?" >> "$out/user_ladder.txt"
  for bad in out_of_bounds endless_loop; do
    timeout 120 $cli run --device cuda:0 --kernel $d/$bad.cu --kernel-time-limit 5 \
      --variants reduceInterleaved --block-sizes 1024 --sizes 2^20 > "$out/user_$bad.txt" 2>&1
    echo "exit $?" >> "$out/user_$bad.txt"
  done
  { for i in 1 2 3; do
      sed "s/myInterleaved/edited$i/" $k/interleaved.cu > /tmp/edited$i.cu
      t0=$EPOCHREALTIME
      $cli run --device cuda:0 --kernel /tmp/edited$i.cu --block-sizes 1024 --sizes 2^24 \
        --variants edited$i
      echo "edited$i: $(awk "BEGIN{print $EPOCHREALTIME - $t0}") s from start to the verified bar (wall)"
      $cli code --kernel /tmp/edited$i.cu --block-size 1024 2>&1 | grep compiled
    done; } > "$out/user_edit_to_bar.txt" 2>&1
fi
if has session; then
  # The session bundled with the app (resources/sessions/README.md has the command), with
  # hardware counters beside the times.
  timeout -s INT 400 $B/reductionlab-cli run --device cuda:0 --counters \
    --variants reduceNeighbored,reduceNeighboredLess,reduceInterleaved,reduceUnroll2,reduceUnroll4,reduceUnroll8,reduceUnrollWarp8,reduceCompleteUnrollWarp8,reduceCompleteUnroll,complete_unroll_sync,warp_shuffle,single_pass,cluster_single_pass,epoch_pass,cub_device_reduce \
    --workspace both --block-sizes 1024 --sizes 2^16,2^20,2^24,2^28 --json "$out/h200-ladder.json" > "$out/session.txt" 2>&1
  echo "exit $?" >> "$out/session.txt"
fi
if has timelines; then
  # Measured warp timelines of the classic ladder's nine rungs at 2^24 x 1024, in its own global
  # workspace and in shared memory (the four blocks SM 0 runs first; the twin against the real
  # kernel over 50 launches each), and the kernels past the ladder that have a twin at 2^28 x 1024.
  # scripts/add-timelines.py puts them into the bundled session (the global ones and those past
  # the ladder); scripts/timeline_table.py makes docs/benchmarks.md's table of them.
  mkdir -p "$out/timelines"
  for ws in global shared; do
    for v in reduceNeighbored reduceNeighboredLess reduceInterleaved reduceUnroll2 reduceUnroll4 \
             reduceUnroll8 reduceUnrollWarp8 reduceCompleteUnrollWarp8 reduceCompleteUnroll; do
      timeout 60 $B/reductionlab-cli trace --measured --variant $v --block-size 1024 --size 2^24 \
        --workspace $ws --cost-runs 50 --json "$out/timelines/$v-$ws.json" \
        >> "$out/timelines.txt" 2>&1 || echo "$v $ws: exit $?" >> "$out/timelines.txt"
    done
  done
  for v in warp_shuffle reduce_add_sync vectorized single_pass cluster_single_pass; do
    timeout 60 $B/reductionlab-cli trace --measured --variant $v --block-size 1024 --size 2^28 \
      --cost-runs 50 --json "$out/timelines/$v-2e28.json" \
      >> "$out/timelines.txt" 2>&1 || echo "$v: exit $?" >> "$out/timelines.txt"
  done
fi
for name in ladder floor cub counters lines multi labs; do
  if has $name; then
    BIN=$B OUT="$out/bench" timeout 580 scripts/bench.sh $name > "$out/bench_$name.txt" 2>&1
    echo "exit $?" >> "$out/bench_$name.txt"
  fi
done
ls -la "$out"
tar czf "$final/results.tar.gz" -C "$out" .
