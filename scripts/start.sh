#!/usr/bin/env bash
# The README's first command: install what is missing, build, start the app.
# Extra arguments go to the app (e.g. --open SESSION).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec "${BUILD_DIR:-build}/gui/reductionlab" "$@"
