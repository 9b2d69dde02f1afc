#!/usr/bin/env bash
# Fuzzes what ReductionLab reads from people: the session reader, the spec reader and
# the CLI's argument grammar (fuzz/*_fuzz.cpp), each a libFuzzer target under ASan + UBSan.
# Builds fuzz/ with clang++ into build-fuzz/ (scripts/install-deps.sh --fuzz-tools installs
# clang), then runs each target for a number of executions or a time, starting from the checked-in
# seeds (fuzz/corpus/TARGET/, never written to) plus what earlier runs found
# (build-fuzz/corpus/TARGET/). Prints per target: executions, seconds, coverage, corpus size and
# whether anything was found; exits 1 when any target found a crash, leak, timeout, out-of-memory
# or sanitizer report (the input is saved in build-fuzz/findings/TARGET/, its report in
# build-fuzz/logs/TARGET.log). docs/fuzzing.md says what the targets check and the last numbers.
#
# Usage: scripts/fuzz.sh [--runs N | --time SECONDS] [--long] [--fresh] [TARGET...]
#   --runs N        executions per target (default 1000000)
#   --time SECONDS  run each target this long instead
#   --long          also width and expansion: inputs up to 4 MiB (not the corpus's few KiB),
#                   seeds past every bound (fuzz/long_seeds.py: 4,097-key objects, arrays of
#                   2^20 + 1 items, a spec of 200,000 sizes, a session of 400 points), and a
#                   unit above 1 GB is a finding
#   --fresh         start from the seeds only (forget build-fuzz/corpus/)
#   TARGET          session_reader_fuzz, spec_reader_fuzz, cli_args_fuzz (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000000
seconds=""
fresh=0
long=0
targets=()
while (($#)); do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --long) long=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=(session_reader_fuzz spec_reader_fuzz cli_args_fuzz)

CXX="${CXX:-clang++}"
if ! command -v "$CXX" >/dev/null 2>&1; then
  echo "fuzz: no $CXX; run scripts/install-deps.sh --fuzz-tools (Debian's clang and its" \
       "libFuzzer runtime)" >&2
  exit 2
fi
# One build job per core left to the others on a shared machine; FUZZ_JOBS overrides.
jobs="${FUZZ_JOBS:-2}"
CXX="$CXX" cmake -S fuzz -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j "$jobs" --target "${targets[@]}"

# Stop at the first report (a UBSan report is a crash, not a line in a log); leaks checked.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:symbolize=1"

limit=(-runs="$runs")
[ -n "$seconds" ] && limit=(-max_total_time="$seconds")
# -timeout: a unit slower than 10 s is a finding (a hang on hostile input); -rss_limit_mb: an
# input that takes 2 GB is one too (a 1 MiB name once took the app to 8 GB). The long run's
# inputs are larger and its memory bound tighter: every reader is linear and bounded, so a 4 MiB
# input that takes 1 GB is a bug (under ASan, on a shared machine, a 1 MiB spec of 800,000 sizes
# read, validated and written back takes about 2 s, so the time bound stays 10 s).
bounds=(-timeout=10 -rss_limit_mb=2048)
seeds=()
if ((long)); then
  bounds=(-timeout=10 -rss_limit_mb=1024 -max_len=4194304)
  python3 fuzz/long_seeds.py build-fuzz/seeds-long \
    fuzz/corpus/session_reader_fuzz/h200-ladder-two-points.json
fi
mkdir -p build-fuzz/logs
failed=0
printf '%-20s %10s %8s %8s %8s %12s  %s\n' target executions seconds cov ft corpus found
for t in "${targets[@]}"; do
  work="build-fuzz/corpus/$t"
  findings="build-fuzz/findings/$t"
  log="build-fuzz/logs/$t.log"
  ((fresh)) && rm -rf "$work"
  rm -rf "$findings"
  mkdir -p "$work" "$findings"
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  seeds=("fuzz/corpus/$t")
  ((long)) && [ -d "build-fuzz/seeds-long/$t" ] && seeds+=("build-fuzz/seeds-long/$t")
  start=$(date +%s.%N)
  set +e
  "build-fuzz/$t" "${limit[@]}" "${dict[@]}" "${bounds[@]}" \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  set -e
  elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[KMG]*b\).*/\1/p' <<<"$last")  # units/size kept
  found="nothing"
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$findings")" ]; then
    found="FOUND (exit $rc): $(ls "$findings" | tr '\n' ' ')see $log"
    failed=1
  fi
  printf '%-20s %10s %8.0f %8s %8s %12s  %s\n' "$t" "${execs:-?}" "$elapsed" "${cov:-?}" \
    "${ft:-?}" "$corpus" "$found"
done
exit "$failed"
