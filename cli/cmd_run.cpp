// `reductionlab-cli run`: builds the spec from flags, picks the backend, runs it with a live
// table, writes the files asked for, and turns the outcome into an exit code.
#include <unistd.h>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "backend.h"
#include "cli.h"
#include "error.h"
#include "export.h"
#include "live_table.h"
#include "output_files.h"
#include "parse_args.h"
#include "run_spec.h"
#include "runner.h"

namespace rlcli {

namespace {

// Set by SIGINT; the runner checks it between samples. Lock-free, so safe in a handler.
std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) {
  g_cancel.store(true);
  static const char msg[] =
      "\nreductionlab-cli: cancelling after the current sample (Ctrl-C again to quit at once)\n";
  [[maybe_unused]] ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
}

// Installs the handler for the run's duration. SA_RESETHAND: a second Ctrl-C kills at once.
class SigintGuard {
 public:
  SigintGuard() {
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old_);
  }
  ~SigintGuard() { sigaction(SIGINT, &old_, nullptr); }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

 private:
  struct sigaction old_ {};
};

// The backend the flags ask for, settling the spec for that device first (before the CUDA
// backend measures copy bandwidth, so a bad spec fails fast): run_spec.h settle_for_device.
std::unique_ptr<rl::Backend> pick_backend(const RunArgs& a, rl::ExperimentSpec& spec) {
  bool cpu = false;
  int index = 0;
  if (a.o_device->count() > 0) {
    const DeviceChoice c = parse_device("--device", a.device);
    cpu = c.cpu;
    index = c.cuda_index;
  }
  if (!cpu) {
    const rl::Discovery found = rl::discover_devices();
    if (found.gpus.empty()) {
      if (a.o_device->count() > 0)
        throw UsageError("--device " + a.device + ": no GPU: " + found.no_gpu_reason);
      std::fprintf(stderr, "reductionlab-cli: no GPU (%s); running on the host backend\n",
                   found.no_gpu_reason.c_str());
      cpu = true;
    } else {
      if (index >= int(found.gpus.size()))
        throw UsageError("--device " + a.device + ": no such GPU; found " +
                         std::to_string(found.gpus.size()) +
                         " (cuda:0..cuda:" + std::to_string(found.gpus.size() - 1) + ")");
      spec = settle_for_device(spec, a, found.gpus[index]);
      return rl::make_cuda_backend(index);
    }
  }
  auto backend = rl::make_host_backend();
  spec = settle_for_device(spec, a, backend->device());
  return backend;
}

void write_outputs(const RunArgs& a, const rl::Session& s) {
  if (a.o_csv->count() > 0) {
    write_file_atomically(a.csv, rl::summary_csv(s.results));
    write_file_atomically(samples_path(a.csv), rl::samples_csv(s.results));
    std::printf("wrote %s and %s\n", a.csv.c_str(), samples_path(a.csv).c_str());
  }
  if (a.o_json->count() > 0) {
    write_file_atomically(a.json, rl::session_to_json(s));
    std::printf("wrote %s\n", a.json.c_str());
  }
}

int exit_code_for(const rl::Session& s) {
  if (s.cancelled) return kExitCancelled;
  bool wrong = false, failed = false;
  for (const rl::PointResult& r : s.results) {
    wrong = wrong || r.status == rl::PointStatus::Wrong;
    failed = failed || r.status == rl::PointStatus::Failed;
  }
  return wrong ? kExitWrong : failed ? kExitRuntime : kExitOk;
}

int run_experiment(const RunArgs& a) {
  rl::ExperimentSpec spec = build_spec(a);
  if (a.o_csv->count() > 0) {
    check_writable("--csv", a.csv);
    check_writable("--csv", samples_path(a.csv));
  }
  if (a.o_json->count() > 0) check_writable("--json", a.json);

  rl::Runner runner(pick_backend(a, spec));
  const std::vector<rl::PointSpec> points = rl::expand(spec);
  LiveTable table(runner.device(), points, spec.baseline, spec.timing.noise);
  table.print_header();

  rl::RunCallbacks callbacks;
  callbacks.on_progress = [&](const rl::Progress& p) { table.on_progress(p); };
  callbacks.on_result = [&](const rl::PointResult& r) { table.on_result(r); };
  rl::Session session;
  {
    SigintGuard guard;
    session = runner.run(spec, callbacks, &g_cancel);
  }
  table.print_footer(session, points.size());
  write_outputs(a, session);
  const int code = exit_code_for(session);
  if (code == kExitWrong)
    std::fprintf(stderr, "reductionlab-cli: a point verified WRONG against the host (exit 3)\n");
  else if (code == kExitRuntime)
    std::fprintf(stderr, "reductionlab-cli: a point FAILED to run (exit 1)\n");
  return code;
}

constexpr const char* kRunFooter = R"(
Variants: ids (see `reductionlab-cli variants`) or the seed's kernel names, e.g.
  --variants reduceNeighbored,reduceInterleaved,reduceUnroll8; `all` = every variant that
  applies to the request and the device (the rest are listed once on stderr, with why).
Unroll factors: a seed name with a factor (reduceUnroll8) runs that variant at that factor
  only; --unroll gives the factors of variants named without one (ids such as unroll or
  unroll_warp_sync), each keeping the factors it takes; without --unroll such a variant runs at
  its default (the seed's) factor. Example: --variants reduceUnroll2,unroll --unroll 4,8 runs
  unroll at U = 2, 4 and 8; --variants interleaved,reduceUnroll8 runs interleaved (U = 1) and
  unroll at U = 8.
Sizes: 1000003, 2^24, 16M (K, M, G = 2^10, 2^20, 2^30) and power-of-two ranges 2^10..2^28.
Defaults: the seed's ladder (every variant with a seed name), global workspace, B = 1024,
  N = 2^24, int32, cuda:0 when there is a GPU, else cpu (host emulation, with a note on stderr).
--spec FILE: a JSON spec (the "spec" object of a saved session); flags given override it.
Files, written atomically (FILE.tmp, then rename), also after Ctrl-C:
  --csv FILE   summary, one row per point, to FILE; raw samples, one row per sample, to FILE with
               .csv replaced by .samples.csv (run.csv -> run.samples.csv)
  --json FILE  the whole session (device, spec, every point and sample), schema_version 1
Output: a table row per finished point on stdout; progress on stderr (redrawn on a terminal).
Ctrl-C stops between samples, keeps the finished points, writes the files and exits 130.
Exit codes: 0 every point ok (or skipped on this device); 1 runtime failure (CUDA error, a point
  FAILED, a file could not be written); 2 bad argument (one line on stderr says what); 3 a point
  verified WRONG against the host; 130 cancelled with Ctrl-C.)";

}  // namespace

Command add_run_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "run", "Run an experiment: variants x workspaces x block sizes x unroll x sizes x types");
  auto args = std::make_shared<RunArgs>();
  add_run_options(*sub, *args);
  sub->footer(kRunFooter);
  return Command{sub, [args] { return run_experiment(*args); }};
}

}  // namespace rlcli
