#!/usr/bin/env bash
# Builds for the H200 (sm_90 only) and packs the binaries the GPU session needs into
# .device/bin.tar.xz (git-ignored), small enough to travel with `run`'s carry.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build build-gpu -j"$(nproc)"
rm -rf .device/bin && mkdir -p .device/bin
for f in build-gpu/tests/engine_tests build-gpu/tests/gpu_tests build-gpu/tests/gui_tests \
         build-gpu/tests/rl_fake_worker build-gpu/tests/rl_fault_worker \
         build-gpu/tests/librl_fake_nvml.so \
         build-gpu/worker/reductionlab-worker \
         build-gpu/cli/reductionlab-cli build-gpu/gui/reductionlab; do
  [ -x "$f" ] && cp "$f" .device/bin/
done
# giflib (the app's GIF export) is not on the GPU machine: its library travels with the binaries
# (gpu-check.sh puts their folder on LD_LIBRARY_PATH).
cp -L "$(ldconfig -p | awk '/libgif.so.7 /{print $NF; exit}')" .device/bin/ || true
strip --strip-debug .device/bin/* || true
# The commit the binaries were built from (the GPU machine's copy of .git may be older).
git rev-parse --short=12 HEAD > .device/bin/COMMIT
tar cJf .device/bin.tar.xz -C .device bin
rm -rf .device/bin   # only the archive travels (64 MiB carry limit)
ls -la .device/bin.tar.xz
