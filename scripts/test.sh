#!/usr/bin/env bash
# The README's second command: install what is missing, build, run every test. GPU tests skip,
# saying why, where there is no usable GPU; GUI tests run offscreen.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" --timeout 900
