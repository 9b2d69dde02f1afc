// rl_fake_worker: reductionlab-worker on the host backend, with faults chosen by the test
// (tests/engine/supervisor_test.cpp) through the environment, each a comma-separated list of
// input sizes:
//   RL_FAKE_FAULT_SIZES  the point faults like a GPU (fault_backend.h) and the device cannot be
//                        recovered: the worker reports it lost and exits
//   RL_FAKE_CRASH_SIZES  the worker aborts (SIGABRT) preparing the point, after a word on stderr
//   RL_FAKE_HANG_SIZES   the worker sleeps for ever preparing the point
// RL_FAKE_COUNTS set: a --count-point worker answers made-up counts (two PCs of a function
// named after the step; a point of size RL_FAKE_COUNTS has a finishing pass too), as a GPU's
// would look, so the supervisor's merging can be tested on the host; RL_FAKE_COUNT_CRASH set:
// such a worker aborts instead. RL_FAKE_START_FAIL set: the backend cannot be made.
// RL_FAKE_PID_FILE: each worker appends its pid there when it starts. RL_FAKE_ARGV_FILE: each
// worker appends its arguments there, one line (the app's tests: what the supervisor passed, e.g.
// `--counters IDS`).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "engine/core/error.h"
#include "engine/counters/counter_pass.h"
#include "engine/io/export.h"
#include "engine/process/stream.h"
#include "engine/process/worker.h"
#include "fault_backend.h"
#include "multi_fixtures.h"

namespace {

std::set<std::uint64_t> sizes_from(const char* name) {
  std::set<std::uint64_t> out;
  const char* v = std::getenv(name);
  if (!v) return out;
  std::string s = v;
  for (std::size_t start = 0; start < s.size();) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.insert(std::stoull(s.substr(start, comma - start)));
    start = comma + 1;
  }
  return out;
}

// The faulty host backend, and a crash or a hang where asked.
class FakeBackend final : public rl::Backend {
 public:
  FakeBackend()
      : faulty_([f = sizes_from("RL_FAKE_FAULT_SIZES")](
                    const rl::PointSpec& p) { return f.count(p.size) > 0; },
                /*recovery_fails=*/true),
        crash_(sizes_from("RL_FAKE_CRASH_SIZES")),
        hang_(sizes_from("RL_FAKE_HANG_SIZES")) {}
  const rl::DeviceInfo& device() const override { return faulty_.device(); }
  bool is_gpu() const override { return false; }
  std::string unsupported_reason(const rl::PointSpec& p) const override {
    return faulty_.unsupported_reason(p);
  }
  void prepare(const rl::PointSpec& p, const rl::InputData& input) override {
    if (crash_.count(p.size)) {
      std::fprintf(stderr, "fake worker: crashing on purpose at N=%llu\n",
                   static_cast<unsigned long long>(p.size));
      std::fflush(stderr);
      std::abort();
    }
    if (hang_.count(p.size))
      while (true) pause();
    faulty_.prepare(p, input);
  }
  unsigned grid() const override { return faulty_.grid(); }
  rl::SampleTimes run_sample(bool cold_l2) override { return faulty_.run_sample(cold_l2); }
  rl::ReductionOutput read_output() override { return faulty_.read_output(); }
  void release() override { faulty_.release(); }
  std::string recover() override { return faulty_.recover(); }

 private:
  rl::testing::FaultyHostBackend faulty_;
  std::set<std::uint64_t> crash_, hang_;
};

}  // namespace

int fake_multi_worker() {
  const rl::MultiSession all = rl::testing::make_multi_session();
  auto say = [](const std::string& line) {  // the run stream's lines, as the real worker's
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
  };
  auto after = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : -1;
  };
  const int crash = after("RL_FAKE_MULTI_CRASH_AFTER"), hang = after("RL_FAKE_MULTI_HANG_AFTER");
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, nullptr);
  say(rl::stream_notice_line("fake worker: measuring read floors"));
  rl::MultiSession s = all;
  s.points.clear();
  for (std::size_t i = 0; i < all.points.size(); ++i) {
    s.points.push_back(all.points[i]);
    say(rl::stream_multi_line(s));
    if (int(i) + 1 == crash) std::abort();
    if (int(i) + 1 == hang) {
      if (std::getenv("RL_FAKE_MULTI_DEAF"))  // SIGTERM blocked and never taken
        while (true) pause();
      int got = 0;
      sigwait(&term, &got);
      s.cancelled = true;
      say(rl::stream_multi_line(s));
      say(rl::stream_multi_end_line(s));
      return 0;
    }
  }
  say(rl::stream_multi_end_line(s));
  return 0;
}

int main(int argc, char** argv) {
  if (const char* path = std::getenv("RL_FAKE_ARGV_FILE")) {
    if (FILE* f = std::fopen(path, "a")) {
      for (int i = 1; i < argc; ++i) std::fprintf(f, "%s%s", i > 1 ? " " : "", argv[i]);
      std::fprintf(f, "\n");
      std::fclose(f);
    }
  }
  if (const char* pids = std::getenv("RL_FAKE_PID_FILE")) {
    if (FILE* f = std::fopen(pids, "a")) {
      std::fprintf(f, "%d\n", int(getpid()));
      std::fclose(f);
    }
  }
  for (int i = 1; i < argc; ++i)
    if (std::getenv("RL_FAKE_MULTI") && std::string(argv[i]) == "--multi")
      return fake_multi_worker();
  auto backend = [](int) -> std::unique_ptr<rl::Backend> {
    if (std::getenv("RL_FAKE_START_FAIL")) throw rl::Error("no device here (fake worker)");
    return std::make_unique<FakeBackend>();
  };
  auto count = [](int device, const rl::PointSpec& p, const rl::InputData& in, int step) {
    const char* fake = std::getenv("RL_FAKE_COUNTS");
    if (!fake) return rl::count_step_in_worker(device, p, in, step);
    if (std::getenv("RL_FAKE_COUNT_CRASH")) std::abort();
    rl::CountedStep s;
    s.steps = std::to_string(p.size) == fake ? 2 : 1;
    s.arch = "sm_90";
    s.kernels_in_step = 1;
    const std::string role = rl::counter_role(step, s.steps);
    rl::SampledFunction f{role, step == 0 ? "fake_first_kernel" : "fake_finish", {}};
    for (std::uint64_t off : {16, 32}) {
      rl::SampledPc pc{off, {}};
      pc.inst_executed = p.size / 32 + off;
      pc.thread_inst_executed = 24 * pc.inst_executed;
      f.pcs.push_back(pc);
    }
    s.functions.push_back(f);
    return s;
  };
  return rl::worker_main(argc, argv, backend, count);
}
