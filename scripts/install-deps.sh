#!/usr/bin/env bash
# Installs what ReductionLab needs on Debian 12 from Debian's own packages. The CUDA toolkit
# (nvcc 13, in /usr/local/cuda) is expected to be there already; this script checks for it.
# Idempotent: installs only what is missing.
set -euo pipefail

# Real package names, not virtual ones (libqt6charts6-dev, libqt6svg6-dev name qt6-charts-dev and
# qt6-svg-dev): dpkg-query knows only real ones.
# ctest's install_deps_closure (scripts/check-deps.py, run by python3) fails when the build uses
# a package this list does not pull in, e.g. libqt6opengl6-dev: qt6-charts-dev needs it but does
# not depend on it.
packages=(
  cmake ninja-build g++ git clang-format python3 python3-venv dpkg-dev
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev
  libgif-dev
  nlohmann-json3-dev libcli11-dev
  googletest libgtest-dev
  fonts-dejavu-core
)
# --screenshot-tools: also what ../shared/tools/app-screenshot needs to look at the app in a real
# X window (Xvfb, a window manager, key presses, a screen grab). Not needed to build or test.
# --fuzz-tools: also what scripts/fuzz.sh needs: Debian's clang (clang++, clang-14) and its
# runtime libraries (libclang-rt-14-dev: libFuzzer, ASan, UBSan). Not needed to build or test.
for flag in "$@"; do
  case "$flag" in
    --screenshot-tools) packages+=(xvfb xdotool imagemagick openbox optipng) ;;
    --fuzz-tools) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "install-deps: unknown option $flag (--screenshot-tools, --fuzz-tools)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all Debian packages present"
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: the CUDA toolkit (nvcc) was not found in PATH or /usr/local/cuda;" \
       "install CUDA 13 from NVIDIA first" >&2
  exit 1
fi

# cuobjdump and nvdisasm, for the app's Code view (SASS, resource usage). Some CUDA
# installs lack them; NVIDIA ships them on PyPI too. They go to a venv that
# engine/code/CMakeLists.txt looks in after the toolkit. Without them (no network) the build
# still works and the Code view says why it has no SASS.
tools_dir="${HOME}/.local/share/reductionlab/cuda-tools"
cuda_bin="$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")"
if [ -x "$cuda_bin/cuobjdump" ]; then
  echo "install-deps: cuobjdump is in the CUDA toolkit"
elif ls "$tools_dir"/lib/python3*/site-packages/nvidia/cu*/bin/cuobjdump >/dev/null 2>&1; then
  echo "install-deps: cuobjdump present in $tools_dir"
elif /usr/bin/python3 -m venv "$tools_dir" &&
     "$tools_dir/bin/pip" install -q "nvidia-cuda-cuobjdump>=13,<14" "nvidia-cuda-nvdisasm>=13,<14"; then
  echo "install-deps: cuobjdump and nvdisasm installed in $tools_dir"
else
  echo "install-deps: could not install cuobjdump (pip, network?): the Code view will show" \
       "sources without SASS" >&2
fi

# NCCL, for one reduction across several GPUs (docs/multi-gpu.md): the
# nvidia-nccl-cu13 pip package in the same venv gives nccl.h, which engine/CMakeLists.txt builds
# against, and libnccl.so.2, which the engine opens at run time when the system has none. Without
# it (no network) the build still works and the NCCL exchanges say why they cannot run.
if ls "$tools_dir"/lib/python3*/site-packages/nvidia/nccl/include/nccl.h >/dev/null 2>&1; then
  echo "install-deps: NCCL present in $tools_dir"
elif { [ -x "$tools_dir/bin/pip" ] || /usr/bin/python3 -m venv "$tools_dir"; } &&
     "$tools_dir/bin/pip" install -q "nvidia-nccl-cu13>=2.28,<3"; then
  echo "install-deps: NCCL (nvidia-nccl-cu13) installed in $tools_dir"
else
  echo "install-deps: could not install nvidia-nccl-cu13 (pip, network?): multi-GPU runs will" \
       "use the naive exchanges only" >&2
fi
