#!/usr/bin/env bash
# Fails when a tracked C++/CUDA source differs from what clang-format (Debian 12: 14) makes of it
# with the checked-in .clang-format; `clang-format -i FILE` mends one. Run by ctest as
# `clang_format`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check-format: not a git checkout, nothing to list; skipped"
  exit 0
fi
git ls-files -z '*.cpp' '*.h' '*.cu' '*.cuh' | xargs -0 clang-format --dry-run -Werror
echo "check-format: $(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | wc -l) files as .clang-format says"
