#!/usr/bin/env bash
# Installs a built tree into a temporary root twice, as `cmake --install` and as the .deb CPack
# makes (unpacked with dpkg-deb, no root needed), and runs the installed programs there: the CLI
# must start, find its worker in libexec/ and run a small experiment on the host backend; the app
# must start offscreen and answer --version. Usage: scripts/check-install.sh BUILD_DIR
set -euo pipefail
build="$(cd "${1:?usage: check-install.sh BUILD_DIR}" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

check_tree() {  # $1: the prefix, holding bin/ libexec/ share/
  local prefix="$1" out
  test -x "$prefix/bin/reductionlab-cli" || { echo "missing $prefix/bin/reductionlab-cli"; exit 1; }
  test -x "$prefix/libexec/reductionlab/reductionlab-worker" ||
    { echo "missing $prefix/libexec/reductionlab/reductionlab-worker"; exit 1; }
  test -f "$prefix/share/applications/reductionlab.desktop" || { echo "missing desktop entry"; exit 1; }
  out="$(env -u REDUCTIONLAB_WORKER "$prefix/bin/reductionlab-cli" devices)"
  grep -qx "worker  $prefix/bin/../libexec/reductionlab/reductionlab-worker" <<<"$out" ||
    { echo "the installed CLI did not find its worker:"; echo "$out"; exit 1; }
  "$prefix/bin/reductionlab-cli" run --device cpu --variants interleaved --sizes 4096 \
    --json "$tmp/run.json" >/dev/null
  test -s "$tmp/run.json" || { echo "the installed CLI wrote no session"; exit 1; }
  if [ -x "$prefix/bin/reductionlab" ]; then
    QT_QPA_PLATFORM=offscreen "$prefix/bin/reductionlab" --help | grep -q -- --open ||
      { echo "the installed app did not start"; exit 1; }
  fi
  echo "check-install: $prefix works"
}

cmake --install "$build" --prefix "$tmp/root" >/dev/null
check_tree "$tmp/root"

(cd "$build" && cpack -G DEB -B "$tmp/pkg" >/dev/null)
deb="$(ls "$tmp"/pkg/reductionlab_*.deb)"
dpkg-deb --info "$deb" | grep -E "^ (Package|Version|Depends):"
dpkg-deb -x "$deb" "$tmp/deb"
check_tree "$tmp/deb/usr"
