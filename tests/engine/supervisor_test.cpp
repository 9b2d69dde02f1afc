// The supervisor (engine/process/supervisor.h) with a fake worker (fake_worker.cpp: the host
// backend with faults, crashes and hangs chosen per point): finished points kept, the faulted point
// FAILED with its error, the rest run in a fresh worker, the restarts capped, a cancel that kills
// the worker at once, and no zombie or file descriptor left behind.
// The real fault on a GPU: tests/gpu/fault_gpu_test.cpp.
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "beside_this_test.h"
#include "engine/backend/backend.h"
#include "engine/core/error.h"
#include "engine/measure/runner.h"
#include "engine/process/supervisor.h"
#include "engine/session/line_samples.h"
#include "timeline_fixtures.h"

namespace rl {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using testing::beside_this_test;

int open_fds() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

ExperimentSpec five_points() {
  ExperimentSpec s;
  s.variants = {"reduceInterleaved"};
  s.block_sizes = {64};
  s.sizes = {1000, 2000, 3000, 4000, 5000};
  s.timing.budget_ms = 1;
  return s;
}

// Every test sets the fake worker's faults afresh.
class SupervisorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v :
         {"RL_FAKE_FAULT_SIZES", "RL_FAKE_CRASH_SIZES", "RL_FAKE_HANG_SIZES", "RL_FAKE_START_FAIL",
          "RL_FAKE_PID_FILE", "RL_FAKE_COUNTS", "RL_FAKE_COUNT_CRASH"})
      unsetenv(v);
    options_.worker = beside_this_test("rl_fake_worker");
    options_.device_index = -1;
    options_.device = make_host_backend()->device();
    options_.on_notice = [this](const std::string& m) { notices_.push_back(m); };
    ASSERT_EQ(access(options_.worker.c_str(), X_OK), 0) << options_.worker;
  }
  const PointResult& at(const Session& s, std::uint64_t size) {
    for (const PointResult& r : s.results)
      if (r.point.size == size) return r;
    static PointResult none;
    ADD_FAILURE() << "no point of size " << size;
    return none;
  }
  SupervisorOptions options_;
  std::vector<std::string> notices_;
};

TEST_F(SupervisorTest, RunsEveryPointInOneWorker) {
  Supervisor sup(options_);
  int results = 0, sessions = 0, progress = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { ++results; };
  cb.on_session = [&](const Session& s) {
    sessions += s.results.size() == std::size_t(sessions + 1);
  };
  cb.on_progress = [&](const Progress&) { ++progress; };
  const Session s = sup.run(five_points(), cb);
  ASSERT_EQ(s.results.size(), 5u);
  for (const PointResult& r : s.results) EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  EXPECT_EQ(results, 5);
  EXPECT_EQ(sessions, 5);
  EXPECT_EQ(progress, 6);  // before each point, and after the last
  EXPECT_EQ(sup.workers_started(), 1);
  EXPECT_FALSE(s.cancelled);
  EXPECT_TRUE(notices_.empty());
}

// A line-count run: each point is timed in a worker of its own ("next" after it), and each of
// its launch steps counted by a further worker (counters/line_count_pass.h): every point, in
// order, with the fake counts merged before its callback, and no failure and no notice.
TEST_F(SupervisorTest, ALineCountRunCountsEachStepInAProcessOfItsOwn) {
  setenv("RL_FAKE_COUNTS", "3000", 1);  // the 3000-element point has a finishing pass
  const std::string pids = ::testing::TempDir() + "rl_sup_count_pids.txt";
  std::remove(pids.c_str());
  setenv("RL_FAKE_PID_FILE", pids.c_str(), 1);
  options_.line_counts = true;
  Supervisor sup(options_);
  int results = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult& r) {
    ++results;
    EXPECT_TRUE(r.line_samples && r.line_samples->counted_launches == 1)
        << "counts merged before the callback";
  };
  const Session s = sup.run(five_points(), cb);
  unsetenv("RL_FAKE_COUNTS");
  ASSERT_EQ(s.results.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    const PointResult& r = s.results[i];
    EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
    EXPECT_EQ(r.point.size, 1000u * (i + 1));
    ASSERT_TRUE(r.line_samples.has_value());
    const PointLineSamples& ls = *r.line_samples;
    EXPECT_EQ(ls.arch, "sm_90");
    EXPECT_TRUE(ls.count_note.empty()) << ls.count_note;
    const bool two = r.point.size == 3000;
    ASSERT_EQ(ls.functions.size(), two ? 2u : 1u);
    EXPECT_EQ(ls.functions[0].role, two ? "first_kernel" : "whole");
    EXPECT_EQ(ls.functions[0].inst_executed(), 2 * (r.point.size / 32) + 48);
    if (two) EXPECT_EQ(ls.functions[1].function, "fake_finish");
    EXPECT_DOUBLE_EQ(thread_efficiency(ls.inst_executed(), ls.thread_inst_executed()), 0.75);
  }
  EXPECT_EQ(results, 5);
  EXPECT_EQ(sup.workers_started(), 5);  // the timed ones
  std::ifstream f(pids);
  int processes = 0;
  for (std::string line; std::getline(f, line);) ++processes;
  EXPECT_EQ(processes, 5 + 6);  // five timed, six counted steps
  EXPECT_FALSE(s.cancelled);
  EXPECT_TRUE(notices_.empty()) << notices_.front();
}

// A count worker that dies costs its point's counts only, said in count_note: the point keeps its
// times and the run goes on.
TEST_F(SupervisorTest, ALostCountWorkerLeavesANoteNotAFailure) {
  setenv("RL_FAKE_COUNTS", "0", 1);
  setenv("RL_FAKE_COUNT_CRASH", "1", 1);
  options_.line_counts = true;
  Supervisor sup(options_);
  const Session s = sup.run(five_points(), {});
  unsetenv("RL_FAKE_COUNTS");
  unsetenv("RL_FAKE_COUNT_CRASH");
  ASSERT_EQ(s.results.size(), 5u);
  for (const PointResult& r : s.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
    ASSERT_TRUE(r.line_samples.has_value());
    EXPECT_EQ(r.line_samples->counted_launches, 0);
    EXPECT_TRUE(contains(r.line_samples->count_note,
                         "no line counts for the first launch step: the line-count worker "
                         "process was killed by signal 6"))
        << r.line_samples->count_note;
  }
}

// A resumed line-count run keeps the file's points as they are (their counts not added again)
// and times and counts only the points it runs.
TEST_F(SupervisorTest, AResumedLineCountRunCountsOnlyThePointsItRuns) {
  setenv("RL_FAKE_COUNTS", "0", 1);
  options_.line_counts = true;
  const Session first = Supervisor(options_).run(five_points(), {});
  ASSERT_EQ(first.results.size(), 5u);
  Session resume = first;
  resume.results.resize(2);
  resume.timelines = {test::timeline_with({test::four_warp_block(test::SmClock{}, 7, 3)})};
  const std::string pids = ::testing::TempDir() + "rl_sup_resume_pids.txt";
  std::remove(pids.c_str());
  setenv("RL_FAKE_PID_FILE", pids.c_str(), 1);
  Supervisor sup(options_);
  const Session s = sup.run(five_points(), {}, nullptr, &resume);
  unsetenv("RL_FAKE_COUNTS");
  ASSERT_EQ(s.results.size(), 5u);
  EXPECT_EQ(s.timelines.size(), 1u);  // kept: a resumed file is written over
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(s.results[i].line_samples.has_value()) << i;
    EXPECT_EQ(s.results[i].line_samples->inst_executed(),
              first.results[i].line_samples->inst_executed())
        << "point " << i << " counted once";
  }
  std::ifstream f(pids);
  int processes = 0;
  for (std::string line; std::getline(f, line);) ++processes;
  EXPECT_EQ(processes, 3 + 3);  // three points timed, each counted in one step
}

// The real worker on the host: no counts, saying why, and the points keep their times.
TEST_F(SupervisorTest, LineCountsOnTheHostSayWhyThereAreNone) {
  options_.worker = beside_this_test("reductionlab-worker");
  options_.line_counts = true;
  Supervisor sup(options_);
  ExperimentSpec spec = five_points();
  spec.sizes = {4096};
  const Session s = sup.run(spec, {});
  ASSERT_EQ(s.results.size(), 1u);
  EXPECT_EQ(s.results[0].status, PointStatus::Ok) << s.results[0].message;
  ASSERT_TRUE(s.results[0].line_samples.has_value());
  const PointLineSamples& ls = *s.results[0].line_samples;
  EXPECT_TRUE(ls.functions.empty());
  EXPECT_EQ(ls.counted_launches, 0);
  EXPECT_TRUE(ls.note.empty());  // no samples were asked for
  EXPECT_TRUE(contains(ls.count_note, "no line counts on the host backend")) << ls.count_note;
}

// Counters, line samples and line counts need runs of their own.
TEST_F(SupervisorTest, ARunTakesOneOfCountersSamplesAndCounts) {
  options_.line_counts = true;
  options_.line_samples = true;
  try {
    Supervisor(options_).run(five_points(), {});
    FAIL() << "line counts with line samples accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), kCountersOrLineSamples);
  }
  options_.line_samples = false;
  options_.counters = {"barrier_stall"};
  EXPECT_THROW(Supervisor(options_).run(five_points(), {}), Error);
}

// The real reductionlab-worker (linked beside the tests) on the host backend: the same points,
// verified, as the runner gives in this process.
TEST_F(SupervisorTest, TheRealWorkerSpeaksTheProtocol) {
  options_.worker = beside_this_test("reductionlab-worker");
  ASSERT_EQ(access(options_.worker.c_str(), X_OK), 0) << options_.worker;
  Supervisor sup(options_);
  const Session s = sup.run(five_points(), {});
  Runner in_process(make_host_backend());
  const Session expected = in_process.run(five_points(), {});
  ASSERT_EQ(s.results.size(), expected.results.size());
  for (std::size_t i = 0; i < s.results.size(); ++i) {
    EXPECT_EQ(s.results[i].point, expected.results[i].point);
    EXPECT_EQ(s.results[i].status, PointStatus::Ok) << s.results[i].message;
    EXPECT_EQ(s.results[i].value, expected.results[i].value);
    EXPECT_EQ(s.results[i].counts.has_value(), expected.results[i].counts.has_value());
  }
  EXPECT_EQ(s.device.name, expected.device.name);
  EXPECT_EQ(sup.workers_started(), 1);
}

TEST_F(SupervisorTest, FaultFailsItsPointAndAFreshWorkerRunsTheRest) {
  setenv("RL_FAKE_FAULT_SIZES", "3000", 1);
  Supervisor sup(options_);
  int reported = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { ++reported; };
  const Session s = sup.run(five_points(), cb);
  ASSERT_EQ(s.results.size(), 5u);
  EXPECT_EQ(reported, 5);
  EXPECT_EQ(sup.workers_started(), 2);
  for (std::uint64_t size : {1000, 2000, 4000, 5000})
    EXPECT_EQ(at(s, size).status, PointStatus::Ok) << at(s, size).message;
  const PointResult& f = at(s, 3000);
  EXPECT_EQ(f.status, PointStatus::Failed);
  EXPECT_TRUE(contains(f.message, "cudaErrorIllegalAddress")) << f.message;
  EXPECT_TRUE(contains(f.message, f.point.label())) << f.message;
  EXPECT_TRUE(contains(f.message, "could not be recovered")) << f.message;
  EXPECT_TRUE(contains(f.message, "run in a fresh worker process")) << f.message;
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_TRUE(contains(notices_[0], "remaining 2 point(s)")) << notices_[0];
}

TEST_F(SupervisorTest, CrashFailsItsPointSayingHowTheWorkerDied) {
  setenv("RL_FAKE_CRASH_SIZES", "2000", 1);
  Supervisor sup(options_);
  const Session s = sup.run(five_points(), {});
  ASSERT_EQ(s.results.size(), 5u);
  EXPECT_EQ(sup.workers_started(), 2);
  const PointResult& f = at(s, 2000);
  EXPECT_EQ(f.status, PointStatus::Failed);
  EXPECT_TRUE(contains(f.message, "killed by signal 6")) << f.message;
  EXPECT_TRUE(contains(f.message, "crashing on purpose")) << f.message;  // its stderr
  for (std::uint64_t size : {1000, 3000, 4000, 5000})
    EXPECT_EQ(at(s, size).status, PointStatus::Ok) << at(s, size).message;
}

TEST_F(SupervisorTest, RestartsAreCappedAndTheRestSayWhy) {
  setenv("RL_FAKE_FAULT_SIZES", "2000,3000", 1);
  setenv("RL_FAKE_CRASH_SIZES", "4000", 1);
  options_.max_consecutive_failures = 3;
  Supervisor sup(options_);
  const Session s = sup.run(five_points(), {});
  ASSERT_EQ(s.results.size(), 5u);
  EXPECT_EQ(sup.workers_started(), 3);
  EXPECT_EQ(at(s, 1000).status, PointStatus::Ok);
  for (std::uint64_t size : {2000, 3000, 4000}) EXPECT_EQ(at(s, size).status, PointStatus::Failed);
  EXPECT_TRUE(contains(at(s, 4000).message, "failed too often")) << at(s, 4000).message;
  const PointResult& rest = at(s, 5000);
  EXPECT_EQ(rest.status, PointStatus::Failed);
  EXPECT_TRUE(contains(rest.message, "not run: the GPU worker process failed 3 times in a row"))
      << rest.message;
  EXPECT_TRUE(contains(rest.message, "killed by signal 6")) << rest.message;
}

TEST_F(SupervisorTest, AWorkerThatCannotStartFailsTheRunWithItsReason) {
  setenv("RL_FAKE_START_FAIL", "1", 1);
  Supervisor sup(options_);
  try {
    sup.run(five_points(), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "no device here")) << e.what();
  }
  EXPECT_EQ(sup.workers_started(), 1);
}

TEST_F(SupervisorTest, CancelKillsTheWorkerAtOnceAndKeepsTheFinishedPoints) {
  const std::string pids = ::testing::TempDir() + "supervisor_pids.txt";
  std::remove(pids.c_str());
  setenv("RL_FAKE_PID_FILE", pids.c_str(), 1);
  setenv("RL_FAKE_HANG_SIZES", "3000", 1);
  Supervisor sup(options_);
  std::atomic<bool> cancel{false};
  std::chrono::steady_clock::time_point cancelled_at;
  RunCallbacks cb;
  cb.on_progress = [&](const Progress& p) {
    if (p.current.size == 3000 && !cancel) {
      cancel = true;
      cancelled_at = std::chrono::steady_clock::now();
    }
  };
  const Session s = sup.run(five_points(), cb, &cancel);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelled_at).count();
  EXPECT_TRUE(s.cancelled);
  EXPECT_EQ(s.results.size(), 2u);
  EXPECT_LT(took, 1.0);
  std::ifstream in(pids);
  int pid = 0;
  ASSERT_TRUE(in >> pid);
  EXPECT_EQ(kill(pid, 0), -1);  // gone, and reaped: a zombie would still answer
  EXPECT_EQ(errno, ESRCH);
}

TEST_F(SupervisorTest, LeavesNoZombieAndNoOpenFile) {
  setenv("RL_FAKE_FAULT_SIZES", "2000", 1);
  setenv("RL_FAKE_CRASH_SIZES", "4000", 1);
  const int before = open_fds();
  Supervisor sup(options_);
  const Session s = sup.run(five_points(), {});
  EXPECT_EQ(s.results.size(), 5u);
  EXPECT_EQ(sup.workers_started(), 3);
  EXPECT_EQ(open_fds(), before);
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);  // no child left, reaped or not
  EXPECT_EQ(errno, ECHILD);
}

TEST_F(SupervisorTest, ResumeKeepsTheSavedPointsAcrossARestart) {
  setenv("RL_FAKE_FAULT_SIZES", "3000", 1);
  Session saved = Supervisor(options_).run(five_points(), {});  // 3000 FAILED
  ASSERT_EQ(saved.results.size(), 5u);
  // Keep 1000, 2000 and 5000 (4000 dropped, 3000 failed: both run again).
  saved.results.erase(saved.results.begin() + 3);
  const double kept_median = saved.results.back().total.median_ms;
  Supervisor sup(options_);
  int reported = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { ++reported; };
  const Session s = sup.run(five_points(), cb, nullptr, &saved);
  ASSERT_EQ(s.results.size(), 5u);
  EXPECT_EQ(reported, 5);
  EXPECT_EQ(sup.workers_started(), 2);
  EXPECT_EQ(at(s, 3000).status, PointStatus::Failed);   // run again, faulted again
  EXPECT_EQ(at(s, 4000).status, PointStatus::Ok);       // run by the fresh worker
  EXPECT_EQ(at(s, 5000).total.median_ms, kept_median);  // kept, not measured again
}

TEST(FindWorker, TheEnvironmentNamesIt) {
  const std::string fake = beside_this_test("rl_fake_worker");
  setenv("REDUCTIONLAB_WORKER", fake.c_str(), 1);
  EXPECT_EQ(find_worker(), fake);
  setenv("REDUCTIONLAB_WORKER", "/nonexistent/reductionlab-worker", 1);
  std::string looked_at;
  EXPECT_EQ(find_worker(&looked_at), "");
  EXPECT_EQ(looked_at, "/nonexistent/reductionlab-worker");
  unsetenv("REDUCTIONLAB_WORKER");
  find_worker(&looked_at);
  EXPECT_EQ(looked_at, beside_this_test("reductionlab-worker"));
}

}  // namespace
}  // namespace rl
