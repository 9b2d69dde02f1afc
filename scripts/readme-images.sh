#!/usr/bin/env bash
# Remakes the pictures README.md and docs/labs.md show, from the app as it is now, each at
# 1366x768 (a common laptop and projector size), then compresses them losslessly:
#
#   scripts/readme-images.sh APP [OUT_DIR]
#
# APP is the built app (build/gui/reductionlab); OUT_DIR defaults to docs/images. It builds
# nothing. Needs Xvfb, xdotool, imagemagick, openbox and optipng (scripts/install-deps.sh
# --screenshot-tools) and the screenshot tool ../shared/tools/app-screenshot beside the
# repository (APP_SCREENSHOT=PATH names another copy). The lab picture reads a session from the
# git history, so run it inside a clone with history.
#
# The app runs with no GPU visible and fresh settings, so each picture is what a first start on a
# machine without a GPU shows (the bundled H200 session), on any machine, every time. The window
# is driven by its keyboard shortcuts (Ctrl+N goes to the N-th tab); PAGE_LADDER, PAGE_BLOCK and
# PAGE_CODE name the tabs of "Ladder", "Inside a block" and "Code" if the tabs move. Look at every picture after a
# run: a shortcut that changed shows as a wrong picture, not as an error.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-}
out=${2:-$repo/docs/images}
shot=${APP_SCREENSHOT:-$repo/../shared/tools/app-screenshot}
size=1366x768
wait_s=${WAIT_S:-8}  # seconds from start to the first key: the window and the bundled session
page_ladder=${PAGE_LADDER:-1}
page_block=${PAGE_BLOCK:-8}
page_code=${PAGE_CODE:-9}

die() {
  echo "readme-images: $*" >&2
  exit 2
}
[ -n "$app" ] || die "usage: scripts/readme-images.sh APP [OUT_DIR] (APP: build/gui/reductionlab)"
[ -x "$app" ] || die "APP '$app' is not an executable file (build it: cmake --build build -t reductionlab)"
app=$(cd "$(dirname "$app")" && pwd)/$(basename "$app")
[ -x "$shot" ] || die "the screenshot tool '$shot' is missing (APP_SCREENSHOT=PATH names it)"
for tool in Xvfb xdotool import openbox optipng; do
  command -v "$tool" >/dev/null ||
    die "$tool is missing: scripts/install-deps.sh --screenshot-tools installs it"
done
mkdir -p "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Fresh settings (remembered sizes, panels and modes stay out), no GPU, one font look.
export XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
export CUDA_VISIBLE_DEVICES=
export QT_SCALE_FACTOR=1

# One picture of the window: NAME, then the keys to press (xdotool names), then app arguments
# after "--". app-screenshot starts the app under Xvfb, waits, sends the keys, takes the screen.
window() {
  local name=$1 keys=$2
  shift 2
  "$shot" --size "$size" --wait "$wait_s" --keys "$keys" "$tmp/$name" -- "$app" "$@" >/dev/null
  [ -s "$tmp/$name" ] || die "no picture for $name"
  cp "$tmp/$name" "$out/$name"
  echo "$out/$name"
}

# One chart as the app exports it, at the screen size: NAME, CHART id, then app arguments.
chart() {
  local name=$1 id=$2
  shift 2
  rm -rf "$tmp/charts"
  # stderr lists the charts with nothing to draw; shown only when the export fails.
  "$app" --export-charts "$tmp/charts" --size "$size" "$@" >/dev/null 2>"$tmp/export.log" ||
    die "the chart export for $name failed: $(cat "$tmp/export.log")"
  [ -s "$tmp/charts/$id.png" ] || die "the app wrote no $id.png for $name"
  cp "$tmp/charts/$id.png" "$out/$name"
  echo "$out/$name"
}

bundled=$repo/resources/sessions/h200-ladder.json
# The bundled session before the current one (measured 2026-12-03 at c25c86b, on another H200),
# for the comparison picture: the same kernels but epoch_pass, whose points the app marks.
git -C "$repo" show dc34926:resources/sessions/h200-ladder.json >"$tmp/h200-2026-12-03.json" ||
  die "cannot read the earlier H200 session from the git history (commit dc34926)"
# The divergence lab's session, from the commit that added the lab kernels it measured.
git -C "$repo" show 1bde331:docs/data/h200-labs-2026-12-01/lab_divergence.json \
  >"$tmp/lab_divergence.json" ||
  die "cannot read the divergence lab's session from the git history (commit 1bde331)"

# The first screen: the window at start, the bundled session on the Ladder page.
window app-start.png ""
# The classic ladder at the blog series' set-up: barriers (block model) beside barrier stall.
chart ladder.png ladder_barriers_stall --open "$bundled" --setting N=2^24,B=1024,type=int32
# Inside a block: its tab (which takes the keyboard), then three steps (PageDown).
window inside-a-block.png "ctrl+$page_block Next Next Next"
# The Code tab, reached from the animation's tab so that the keyboard lands in it; it opens at
# the setting the bundled line samples were taken at. F9 hides the experiment panel, so the
# source is whole beside its sample and count columns.
window code-view.png "ctrl+$page_block ctrl+$page_code F9"
# Story mode: the first story, at its second step.
window story.png "shift+F5 Next"
# Two sessions compared: the earlier session opened beside the bundled one; the Ladder page
# (reached from the animation's tab, so the keyboard lands in it) scrolled to its comparison.
window two-sessions.png "ctrl+$page_block ctrl+$page_ladder Tab End" --open "$tmp/h200-2026-12-03.json"
# Your own rung: the lab sheets' solutions (kernels written in the user-kernel contract)
# measured on an H200 beside the built-in rungs they are judged against.
chart your-rung.png speedup_vs_unroll --open "$repo/resources/sessions/h200-lab-solutions.json"
# The divergence lab.
chart lab-divergence.png ladder_speedup --open "$tmp/lab_divergence.json"

# Lossless: optipng keeps every pixel and only finds a smaller encoding.
optipng -quiet -o2 -strip all "$out"/app-start.png "$out"/ladder.png "$out"/inside-a-block.png \
  "$out"/code-view.png "$out"/story.png "$out"/two-sessions.png "$out"/lab-divergence.png \
  "$out"/your-rung.png
