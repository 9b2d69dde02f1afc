#!/usr/bin/env bash
# Builds on this machine (no GPU needed) for one GPU architecture and packs the binaries that
# scripts/gpu-check.sh and scripts/bench.sh use into .device/bin.tar.xz (git-ignored, small
# enough to copy to a GPU machine that has no build toolchain). CUDA_ARCHS: the architecture
# (default 90, Hopper; e.g. 80 for A100, 89 for L4/L40). On the GPU machine, from a copy of this
# repository: `scripts/gpu-check.sh` (it unpacks the archive), or unpack it and run
# `BIN=/tmp/rl/bin LD_LIBRARY_PATH=/tmp/rl/bin scripts/bench.sh NAME` (docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# BUILD_DIR: a build folder to pack from (default build-gpu, made here for CUDA_ARCHS; the
# commit that sessions record is read at every build).
build="${BUILD_DIR:-build-gpu}"
if [ -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" >/dev/null
else
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" >/dev/null
fi
cmake --build "$build" -j"$(nproc)"
rm -rf .device/bin && mkdir -p .device/bin
for f in tests/engine_tests tests/gpu_tests tests/gui_tests tests/rl_fake_worker \
         tests/rl_fault_worker tests/librl_fake_nvml.so worker/reductionlab-worker \
         cli/reductionlab-cli gui/reductionlab; do
  [ -x "$build/$f" ] && cp "$build/$f" .device/bin/
done
# giflib (the app's GIF export) may be missing on the GPU machine: its library travels with them
# (gpu-check.sh puts their folder on LD_LIBRARY_PATH).
cp -L "$(ldconfig -p | awk '/libgif.so.7 /{print $NF; exit}')" .device/bin/ || true
strip --strip-debug .device/bin/* || true
# The commit the binaries were built from (the GPU machine's copy of .git may be older or absent).
git rev-parse --short=12 HEAD > .device/bin/COMMIT
tar cJf .device/bin.tar.xz -C .device bin
rm -rf .device/bin   # only the archive travels
ls -la .device/bin.tar.xz
