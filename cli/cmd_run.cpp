// `reductionlab-cli run`: builds the spec from flags, picks where it runs, runs it with a live
// table, writes the files asked for, and turns the outcome into an exit code.
#include <fcntl.h>
#include <unistd.h>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

#include "cli.h"
#include "engine/backend/backend.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/process/stream.h"
#include "engine/run/run_target.h"
#include "live_table.h"
#include "output_files.h"
#include "parse_args.h"
#include "run_counters.h"
#include "run_counts.h"
#include "run_multi.h"
#include "run_outputs.h"
#include "run_resume.h"
#include "run_signals.h"
#include "run_spec.h"

namespace rlcli {

namespace {

// What a notice of the engine becomes: a line on stderr, and with --stream an event too.
using Notice = std::function<void(const std::string&)>;

// Where the flags ask the run to happen (the engine decides the rest: run/run_target.h), with
// the spec settled for that device first, before a GPU is opened, so a bad spec fails fast
// (run_spec.h settle_for_device).
std::unique_ptr<rl::RunTarget> pick_target(const RunArgs& a, rl::ExperimentSpec& spec,
                                           const Notice& notice) {
  rl::RunTargetOptions o;
  if (a.o_device->count() > 0) {
    const DeviceChoice c = parse_device("--device", a.device);
    o.device = c.cpu ? rl::kHostDevice : c.cuda_index;
  }
  o.in_process = a.in_process;
  o.on_notice = notice;
  std::unique_ptr<rl::RunTarget> target;
  try {
    target = std::make_unique<rl::RunTarget>(std::move(o));
  } catch (const rl::DeviceChoiceError& e) {
    throw UsageError("--device " + a.device + ": " + e.what());
  }
  spec = settle_for_device(spec, a, target->device());
  return target;
}

// What a run reads besides its times, from the flags.
rl::RunProfiling profiling_of(const CountersFlag& counters) {
  rl::RunProfiling p;
  p.counters = counter_ids(counters);
  p.line_samples = line_samples_asked(counters);
  p.line_counts = line_counts_asked(counters);
  return p;
}

// A cancelled run exits 128 + the signal that cancelled it (130 for Ctrl-C).
int exit_code_for(const rl::Session& s, int signal) {
  if (s.cancelled) return signal ? 128 + signal : kExitCancelled;
  bool wrong = false, failed = false;
  for (const rl::PointResult& r : s.results) {
    wrong = wrong || r.status == rl::PointStatus::Wrong;
    failed = failed || r.status == rl::PointStatus::Failed;
  }
  return wrong ? kExitWrong : failed ? kExitRuntime : kExitOk;
}

// --stream jsonl: one line per event (engine/process/stream.h), each flushed at once so that a
// reader at the other end of ssh sees the point as it finishes. The lines go to stdout as it was
// given; from then on the process's own stdout points at stderr, so that nothing a library
// prints can break a line (as the GPU worker does: engine/process/worker.cpp).
std::FILE* stream_out = nullptr;

void open_stream() {
  if (stream_out) return;
  std::fflush(stdout);
  const int own = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (own >= 0) stream_out = fdopen(own, "w");
  if (stream_out && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::fclose(stream_out);
    stream_out = nullptr;
  }
  if (!stream_out) stream_out = stdout;
}

void put_line(const std::string& line) {
  open_stream();
  std::fputs(line.c_str(), stream_out);
  std::fflush(stream_out);
}

int run_experiment(const RunArgs& a, const CountsFlags& counts, const CountersFlag& counters,
                   bool streaming) {
  if (wants_multi_gpu(a)) {
    if (streaming)
      throw UsageError(
          "--stream is for runs on one device; a multi-GPU run (--devices, --gpus) "
          "writes its session with --json");
    return run_multi_gpu(a, counts, counters);
  }
  check_one_profiling_kind(counters);
  const rl::RunProfiling profiling = profiling_of(counters);
  const std::vector<std::string>& counter_list = profiling.counters;
  const rl::TimeBasis basis = time_basis_of(a);  // a bad --time fails before anything runs
  const bool narrow = !streaming && narrow_table_wanted(a);
  // --resume FILE: FILE's experiment, its finished points kept (run_resume.h).
  const std::optional<rl::Session> resumed = read_resume(a);
  rl::ExperimentSpec spec = resumed ? resumed->spec : build_spec(a);
  // Names, directories, collisions and locks, before the run.
  RunOutputs outputs(a, resumed ? &*resumed : nullptr);

  const Notice notice = [streaming](const std::string& what) {
    std::fprintf(stderr, "reductionlab-cli: %s\n", what.c_str());
    if (streaming) put_line(rl::stream_notice_line(what));
  };
  const std::unique_ptr<rl::RunTarget> target = pick_target(a, spec, notice);
  if (const std::string why = target->profiling_problem(profiling); !why.empty())
    throw UsageError((profiling.line_counts ? "--line-counts: " : "--counters: ") + why);
  if (resumed) check_resume_device(a, *resumed, target->device());
  const std::vector<rl::PointSpec> points = rl::expand(spec);
  std::optional<LiveTable> table;
  if (streaming) {
    put_line(rl::stream_start_line(target->device(), spec, points.size()));
  } else {
    table.emplace(target->device(), points, spec.baseline, spec.timing.noise, basis);
    table->set_narrow(narrow);
    table->show_counts(show_counts(counts, target->device()));
    table->show_counters(counter_list);
    table->print_header();
  }
  CounterNotes counter_notes;

  rl::RunCallbacks callbacks;
  callbacks.on_progress = [&](const rl::Progress& p) {
    if (table)
      table->on_progress(p);
    else
      put_line(rl::stream_progress_line(p));
  };
  callbacks.on_session = [&](const rl::Session& s) {
    if (table)
      table->on_result(s);
    else
      put_line(rl::stream_point_line(s));
    counter_notes.on_result(s.results.back());
    outputs.checkpoint(s);
  };
  // Until the files are written: a signal then still leaves them whole (run_signals.h).
  const CancelOnSignals signals;
  std::optional<CancelWhenReaderGoes> reader_watch;
  if (streaming) reader_watch.emplace(fileno(stream_out));
  const rl::Session session =
      target->run(spec, profiling, callbacks, signals.flag(), resumed ? &*resumed : nullptr);
  if (table)
    table->print_footer(session, points.size());
  else
    put_line(rl::stream_end_line(session, points.size()));
  if (!outputs.write(session)) return kExitRuntime;
  const int code = exit_code_for(session, signals.signal());
  if (code == kExitWrong)
    std::fprintf(stderr, "reductionlab-cli: a point verified WRONG against the host (exit 3)\n");
  else if (code == kExitRuntime)
    std::fprintf(stderr, "reductionlab-cli: a point FAILED to run (exit 1)\n");
  return code;
}

// With --stream, a run that cannot start or go on also says why as an error event: the reader
// at the other end of a launcher may not see this stderr.
int run_command(const RunArgs& a, const CountsFlags& counts, const CountersFlag& counters) {
  if (counters.list == "help") {
    std::fputs(counter_catalog_text().c_str(), stdout);
    return kExitOk;
  }
  const bool streaming = stream_wanted(a);
  if (!streaming) return run_experiment(a, counts, counters, false);
  open_stream();
  try {
    return run_experiment(a, counts, counters, true);
  } catch (const UsageError& e) {
    std::string all = e.what();
    for (const std::string& more : e.more()) all += "; " + more;
    put_line(rl::stream_error_line(all));
    throw;
  } catch (const std::exception& e) {
    put_line(rl::stream_error_line(e.what()));
    throw;
  }
}

constexpr const char* kRunFooter = R"(
Variants: ids (see `reductionlab-cli variants`) or the classic kernel names, e.g.
  --variants reduceNeighbored,reduceInterleaved,reduceUnroll8; `all` = every variant that
  applies to the request and the device (the rest are listed once on stderr, with why).
Unroll factors: a classic name with a factor (reduceUnroll8) runs that variant at that factor
  only; --unroll gives the factors of variants named without one (ids such as unroll or
  unroll_warp_sync), each keeping the factors it takes; without --unroll such a variant runs at
  its default factor (the classic ladder's). Example: --variants reduceUnroll2,unroll --unroll
  4,8 runs unroll at U = 2, 4 and 8; --variants interleaved,reduceUnroll8 runs interleaved
  (U = 1) and unroll at U = 8.
Sizes: 1000003, 2^24, 16M (K, M, G = 2^10, 2^20, 2^30) and power-of-two ranges 2^10..2^28.
Defaults: the classic ladder (every variant with a classic name), global workspace, B = 1024,
  N = 2^24, int32, cuda:0 when there is a GPU, else cpu (host emulation, with a note on stderr).
--spec FILE: a JSON spec (the "spec" object of a saved session); flags given override it.
  --spec - reads it from stdin (what the app sends through a launcher: docs/remote.md).
--stream jsonl: instead of the table, one JSON line per event on stdout, each flushed: start
  (device, spec, points), progress, point (each finished point as the session file holds it),
  notice, end (cancelled, counts), or error; every line carries "schema_version": "1.0".
Files, checked before the run (names, directories, two flags naming one file, a file another
run is writing: refused) and written once, whole, when the run ends, also after Ctrl-C (a unique
temporary file beside FILE, fsync, rename; a symlink's target is replaced, the link kept; a file
with hard links is written in place, its space reserved first, so every name sees the new text;
a device, FIFO or /dev/stdout is written directly):
  --csv FILE   summary, one row per point, to FILE; raw samples, one row per sample, to FILE with
               .csv replaced by .samples.csv (run.csv -> run.samples.csv)
  --json FILE  the whole session (device, spec, every point and sample), schema_version 1; while
               the run goes on, its checkpoint is kept beside it (run.json ->
               run.checkpoint.json): --resume run.checkpoint.json finishes a run that was
               killed, keeping its points, and writes run.json
Output: a table row per finished point on stdout; progress and "wrote FILE" on stderr.
Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, or SIGPIPE when
  stdout's reader goes away) stops between samples, keeps the finished points, writes the files
  and exits 128 + the signal: 130 for Ctrl-C. SIGXFSZ is ignored: a file over `ulimit -f` is
  not written, and stderr says so.
Exit codes: 0 every point ok (or skipped on this device); 1 runtime failure (CUDA error, a point
  FAILED, a file or stdout could not be written); 2 bad argument (one line on stderr says what);
  3 a point verified WRONG against the host; 130 cancelled with Ctrl-C (143 SIGTERM, 129 SIGHUP,
  141 SIGPIPE, 131 SIGQUIT: 128 + the signal).)";

}  // namespace

Command add_run_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "run", "Run an experiment: variants x workspaces x block sizes x unroll x sizes x types");
  auto args = std::make_shared<RunArgs>();
  add_run_options(*sub, *args);
  auto counts = std::make_shared<CountsFlags>();
  add_counts_options(*sub, *counts);
  auto counters = std::make_shared<CountersFlag>();
  add_counters_option(*sub, *counters);
  sub->footer(kRunFooter);
  return Command{sub, [args, counts, counters] { return run_command(*args, *counts, *counters); }};
}

}  // namespace rlcli
