#!/usr/bin/env bash
# Configures and builds everything (app, CLI, tests) in build/ for all supported GPUs.
# BUILD_DIR and CUDA_ARCHS override the folder and the GPU architectures (e.g. CUDA_ARCHS=90).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
build_dir="${BUILD_DIR:-build}"
args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release)
if [ -n "${CUDA_ARCHS:-}" ]; then args+=("-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}"); fi
cmake "${args[@]}"
cmake --build "$build_dir" -j"$(nproc)"
