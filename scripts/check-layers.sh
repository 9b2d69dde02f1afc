#!/usr/bin/env bash
# The layers, checked (ctest `layers`): kernels -> engine -> cli / gui, nothing pointing back up.
# Include paths already keep the front ends from the kernels' launch interface and the engine's
# private headers; this catches what paths cannot: naming the kernels' namespace from a front
# end, an engine file including Qt or a front end, a kernel including the engine.
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
if [ "$fail" = 0 ]; then
  echo "layers: OK (kernels -> engine -> cli, gui)"
fi
exit "$fail"
