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
  cmake ninja-build g++ git clang-format python3
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev
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
    --screenshot-tools) packages+=(xvfb xdotool imagemagick openbox) ;;
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
