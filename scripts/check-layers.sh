#!/usr/bin/env bash
# The layers, checked (ctest `layers`): kernels -> engine -> cli / gui, nothing pointing back up.
# Include paths already keep the front ends from the kernels' launch interface and the engine's
# private headers; this catches what paths cannot: naming the kernels' namespace from a front
# end, an engine file including Qt or a front end, a kernel including the engine.
#
# Inside the engine the folders (engine/include/engine/<folder>/ and engine/src/<folder>/) are
# layers too, from the bottom:
#   core        error, types, statistics, text helpers: no other folder
#   device      what GPUs are here: DeviceInfo, discovery, links, occupancy, CUDA RAII users
#   catalog     the variants, built-in and the user's (their sources' value type)
#   user        user kernels: the contract, the registry, compiling with NVRTC
#   experiment  what to run: the spec and its grammar, presets, input data, the multi-GPU spec
#   session     what a session holds: results, counts, counter values, warp samples, the derived
#               numbers (metrics.h), the multi-GPU results
#   io          reading and writing sessions and files (JSON, CSV, resume, output locks)
#   backend     what runs a point: the Backend interface, the CUDA backend, user kernel modules
#   model       the block model (the host's emulation of each kernel)
#   trace       step-by-step traces of the block model and the counts made from them
#   counters    hardware counters and warp samples (CUPTI)
#   measure     the runner: warm-up, sampling and its stopping rule, verification, host backend
#   multi       several GPUs of one host (NCCL, NVML, the rig and its points)
#   process     worker processes: the supervisors, the worker, the run stream
#   run         the one entry point (run_target.h)
#   report      what front ends print: compare, format, time basis, lab sheets, counter text
#   code        the Code view's data (its own library, rl_code)
#   views       the app's view models (their own library, rl_views; the CLI does not link it)
# A folder includes only its own and lower folders: an #include "engine/X/..." or a private
# "X/..." in folder Y fails where X is above Y, named with its file and line.
set -u
cd "$(dirname "$0")/.."
fail=0
check() {  # check WHY PATTERN DIRS...
  local why=$1 pattern=$2
  shift 2
  local hits
  hits=$(grep -rnE "$pattern" "$@" --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "layers: $why:"
    echo "$hits" | sed 's/^/  /'
    fail=1
  fi
}
check "the front ends use the engine's names (rl::DType, ...), not the kernels' namespace" \
  'kernels::' gui cli
check "the front ends never include the kernels' launch interface or CUDA headers" \
  '#include [<"](kernels/(launch|instrumented)\.h|cuda_runtime|cuda\.h)' gui cli
check "the engine includes neither Qt nor a front end" \
  '#include [<"](Q[A-Za-z]+|gui/|cli/)' engine
check "the kernels include nothing of the engine or the front ends" \
  '#include "(engine|gui|cli)/' kernels
check "the front ends run experiments through the engine's one entry point (engine/run/run_target.h, multi_supervisor.h run_multi_gpu), never a runner, supervisor or backend of their own" \
  'rl::(Runner|Supervisor)\b|make_(cuda|host)_backend|run_multi_in_worker|rl::run_multi\(' gui cli
engine_order=(core device catalog user experiment session io backend model trace counters measure
  multi process run report code views)
check_engine_order() {
  local i y f hits=""
  local folders
  folders=$(ls engine/include/engine engine/src | grep -v ':$' | grep -v '^$' | grep -v '\.' | sort -u)
  for y in $folders; do
    if ! printf '%s\n' "${engine_order[@]}" | grep -qx "$y"; then
      hits+="  engine folder $y is not in the order (scripts/check-layers.sh: engine_order)"$'\n'
    fi
  done
  for i in "${!engine_order[@]}"; do
    y=${engine_order[i]}
    local above=("${engine_order[@]:i+1}")
    [ ${#above[@]} -eq 0 ] && continue
    local alt
    alt=$(IFS='|'; echo "${above[*]}")
    for dir in "engine/include/engine/$y" "engine/src/$y"; do
      [ -d "$dir" ] || continue
      f=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"(engine/)?($alt)/" "$dir" \
        --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' 2>/dev/null)
      if [ -n "$f" ]; then hits+=$(echo "$f" | sed "s|^|  ($y includes a folder above it) |")$'\n'; fi
    done
  done
  if [ -n "$hits" ]; then
    echo "layers: the engine's folders include only their own and lower ones (${engine_order[*]}):"
    printf '%s' "$hits"
    fail=1
  fi
}
check_engine_order
if [ "$fail" = 0 ]; then
  echo "layers: OK (kernels -> engine -> cli, gui; engine: ${engine_order[*]})"
fi
exit "$fail"
