#include "engine/process/worker.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/io/resume.h"
#include "engine/measure/runner.h"
#include "engine/multi/multi_run.h"
#include "engine/process/stream.h"
#include "process/child_process.h"
#include "process/worker_protocol.h"

namespace rl {

namespace {

using detail::write_all;

// Where the lines to the supervisor go: stdout as it was given; the process's own stdout then
// points at stderr, so that nothing a library prints can break a line.
int protocol_fd = STDOUT_FILENO;

struct WorkerArgs {
  int device = 0;
  std::string input;
  bool continuing = false;
  std::size_t from = 0;
  std::vector<std::string> counters;
  bool line_samples = false;
  bool line_counts = false;
  bool multi = false;     // --multi: the input is a multi-GPU session's spec (multi_run.h)
  long count_point = -1;  // --count-point: count one launch step of this point, nothing else
  int count_step = 0;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    const std::string item = s.substr(start, comma == std::string::npos ? comma : comma - start);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

WorkerArgs parse_args(int argc, char** argv) {
  WorkerArgs a;
  bool have_device = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--continue") {
      a.continuing = true;
    } else if (arg == "--device" && has_value) {
      char* end = nullptr;
      const long d = std::strtol(argv[++i], &end, 10);
      if (!end || *end || d < -1 || d > 1024) throw Error("--device: not a device ordinal");
      a.device = int(d);
      have_device = true;
    } else if (arg == "--input" && has_value) {
      a.input = argv[++i];
    } else if (arg == "--from" && has_value) {
      char* end = nullptr;
      a.from = std::strtoul(argv[++i], &end, 10);
      if (!end || *end) throw Error("--from: not a point index");
    } else if (arg == "--counters" && has_value) {
      a.counters = split_commas(argv[++i]);
    } else if (arg == "--line-samples") {
      a.line_samples = true;
    } else if (arg == "--line-counts") {
      a.line_counts = true;
    } else if (arg == "--multi") {
      a.multi = true;
      have_device = true;  // the spec names its devices
    } else if (arg == "--count-point" && has_value) {
      char* end = nullptr;
      a.count_point = std::strtol(argv[++i], &end, 10);
      if (!end || *end || a.count_point < 0) throw Error("--count-point: not a point index");
    } else if (arg == "--count-step" && has_value) {
      const std::string v = argv[++i];
      if (v != "0" && v != "1") throw Error("--count-step: 0 or 1");
      a.count_step = v == "1" ? 1 : 0;
    } else {
      throw Error("unknown argument '" + arg +
                  "' (a worker is started by ReductionLab, not by hand: docs/architecture.md)");
    }
  }
  if (!have_device || a.input.empty()) throw Error("--device and --input are needed");
  return a;
}

// One line of the run stream (process/stream.h) to the supervisor. A write that fails means the
// supervisor is gone: nothing to do but stop (SIGPIPE usually ends the process first).
void put(const std::string& line) {
  if (!write_all(protocol_fd, line)) std::_Exit(detail::kWorkerExitError);
}

}  // namespace

std::unique_ptr<Backend> make_worker_backend(int device) {
  return device >= 0 ? make_cuda_backend(device) : make_host_backend();
}

CountedStep count_step_in_worker(int device, const PointSpec& p, const InputData& input, int step) {
  if (device < 0) {
    CountedStep s;
    s.steps = 1;
    s.note = "no line counts on the host backend: executed instructions are counted on a GPU";
    return s;
  }
  return count_launch_step(device, p, input, step);
}

namespace {

// --count-point: one launch step of one point, counted before anything else runs in this
// process (counters/line_count_pass.h); the reply is one `counted` line.
int count_one_step(const WorkerArgs& a, const Session& input, const WorkerStepCounter& count) {
  const std::vector<PointSpec> points = expand(input.spec);
  if (std::size_t(a.count_point) >= points.size())
    throw Error("--count-point " + std::to_string(a.count_point) + ": the spec has " +
                std::to_string(points.size()) + " points");
  const PointSpec& p = points[std::size_t(a.count_point)];
  // The finishing pass reads the partials only (counters/line_count_pass.h): no input for it.
  InputData data;
  data.type = p.type;
  if (a.count_step == 0) data = make_input(p.size, p.type);
  put(stream_counted_line(counted_step_to_json(count(a.device, p, data, a.count_step))));
  return 0;
}

// Set by SIGTERM: a --multi worker asked to stop after the current sample (the supervisor's
// cancel), so that the session so far is sent whole.
std::atomic<bool> multi_cancel{false};
extern "C" void on_term(int) {
  multi_cancel.store(true);
}

// --multi: the whole multi-GPU run, the session so far after each point.
int run_multi_worker(const std::string& input_path) {
  // First, so that a cancel that comes at once is taken too; SA_RESTART keeps the calls of
  // CUDA's and NCCL's threads from seeing EINTR.
  struct sigaction sa {};
  sa.sa_handler = on_term;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, nullptr);
  MultiSpec spec;
  try {
    spec = multi_session_from_json(read_text_file(input_path, kMaxSessionFileBytes)).spec;
  } catch (const Error& e) {
    throw Error("--input " + input_path + ": " + e.what());
  }
  MultiCallbacks cb;
  cb.on_notice = [](const std::string& what) { put(stream_notice_line(what)); };
  cb.on_session = [](const MultiSession& s) { put(stream_multi_line(s)); };
  const MultiSession done = run_multi(spec, cb, &multi_cancel);
  put(stream_multi_line(done));
  put(stream_multi_end_line(done));
  return 0;
}

}  // namespace

int worker_main(int argc, char** argv, const WorkerBackendFactory& make_backend,
                const WorkerStepCounter& count_step) {
  // Dies with the supervisor (a killed CLI or app leaves no worker holding the GPU).
  const pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) return detail::kWorkerExitError;
  const int own = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, detail::kWorkerInputFd + 1);
  if (own >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) protocol_fd = own;
  try {
    const WorkerArgs a = parse_args(argc, argv);
    if (a.multi) return run_multi_worker(a.input);
    Session input;
    try {
      input = session_from_json(read_text_file(a.input, kMaxSessionFileBytes));
    } catch (const Error& e) {
      throw Error("--input " + a.input + ": " + e.what());
    }
    if (a.count_point >= 0) return count_one_step(a, input, count_step);
    Runner runner(make_backend(a.device));
    runner.set_counters(a.counters);
    runner.set_line_samples(a.line_samples);
    runner.set_continuing(a.continuing);
    // The points before --from are the supervisor's already: not sent again.
    const std::size_t known = a.from;
    // The input's finished points are kept, not run: no "next" after them.
    const FinishedPoints kept(&input, a.continuing);
    const std::size_t total = expand(input.spec).size();
    put(stream_start_line(runner.device(), input.spec, total));
    RunCallbacks cb;
    cb.on_progress = [&](const Progress& p) {
      if (p.done < p.total && p.done >= known) put(stream_progress_line(p));
    };
    cb.on_session = [&](const Session& s) {
      if (s.results.size() <= known) return;
      put(stream_point_line(s));
      if (!runner.device_lost().empty()) {
        put(stream_lost_line(runner.device_lost()));
        // Nothing more can run in this process; the supervisor starts a fresh one.
        std::_Exit(detail::kWorkerExitDeviceLost);
      }
      // A line-count run: the supervisor counts this point's launch steps in fresh processes
      // of their own (counters/line_count_pass.h) before the next point is timed, in a fresh
      // worker too, so that no count runs beside a timed sample.
      if (a.line_counts && s.results.size() < total && !kept.find(s.results.back().point)) {
        put(stream_next_line());
        std::_Exit(0);
      }
    };
    const Session done = runner.run(input.spec, cb, nullptr, &input);
    put(stream_end_line(done, total));
    return 0;
  } catch (const std::exception& e) {
    put(stream_error_line(e.what()));
    return detail::kWorkerExitError;
  }
}

}  // namespace rl
