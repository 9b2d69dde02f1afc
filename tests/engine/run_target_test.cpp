// The one way to run an experiment (engine/run/run_target.h): which device a request gets, where
// it runs (worker processes or this one), what it says when it falls back, and what it refuses.
// The GPU here is the fake worker (fake_worker.cpp: the host backend behind the worker protocol).
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "beside_this_test.h"
#include "engine/run/run_target.h"

namespace rl {
namespace {

using testing::beside_this_test;

ExperimentSpec three_points() {
  ExperimentSpec s;
  s.variants = {"reduceInterleaved"};
  s.block_sizes = {64};
  s.sizes = {1000, 2000, 3000};
  s.timing.budget_ms = 1;
  return s;
}

// A machine with one "GPU" (the host's description under ordinal 0).
Discovery one_gpu() {
  Discovery d;
  d.host = make_host_backend()->device();
  DeviceInfo gpu = d.host;
  gpu.index = 0;
  gpu.name = "Fake GPU";
  d.gpus = {gpu};
  return d;
}

class RunTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"RL_FAKE_FAULT_SIZES", "RL_FAKE_CRASH_SIZES", "RL_FAKE_HANG_SIZES",
                          "RL_FAKE_START_FAIL", "RL_FAKE_PID_FILE", "RL_FAKE_COUNTS"})
      unsetenv(v);
    setenv("REDUCTIONLAB_WORKER", beside_this_test("rl_fake_worker").c_str(), 1);
  }
  void TearDown() override { unsetenv("REDUCTIONLAB_WORKER"); }
  RunTargetOptions options(int device, const Discovery* d) {
    RunTargetOptions o;
    o.device = device;
    o.discovery = d;
    o.on_notice = [this](const std::string& m) { notices_.push_back(m); };
    return o;
  }
  std::vector<std::string> notices_;
};

TEST_F(RunTargetTest, TheHostRunsInThisProcess) {
  RunTarget t(options(kHostDevice, nullptr));
  EXPECT_FALSE(t.in_workers());
  EXPECT_EQ(t.device_index(), kHostDevice);
  const Session s = t.run(three_points(), {}, {});
  ASSERT_EQ(s.results.size(), 3u);
  for (const PointResult& r : s.results) EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  EXPECT_TRUE(notices_.empty());
}

TEST_F(RunTargetTest, NoDeviceNamedAndNoGpuFallsBackToTheHostSayingWhy) {
  Discovery none;
  none.host = make_host_backend()->device();
  none.no_gpu_reason = "cudaGetDeviceCount: no CUDA-capable device";
  RunTarget t(options(kAutoDevice, &none));
  EXPECT_EQ(t.device_index(), kHostDevice);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_EQ(notices_[0],
            "no GPU (cudaGetDeviceCount: no CUDA-capable device); running on the host backend");
}

TEST_F(RunTargetTest, ADeviceThisMachineLacksIsRefusedSayingWhatThereIs) {
  const Discovery d = one_gpu();
  try {
    RunTarget t(options(3, &d));
    FAIL() << "cuda:3 accepted";
  } catch (const DeviceChoiceError& e) {
    EXPECT_STREQ(e.what(), "no such GPU; 1 found (cuda:0..cuda:0)");
  }
  Discovery none;
  none.no_gpu_reason = "no driver";
  try {
    RunTarget t(options(0, &none));
    FAIL() << "cuda:0 accepted without a GPU";
  } catch (const DeviceChoiceError& e) {
    EXPECT_STREQ(e.what(), "no GPU: no driver");
  }
}

TEST_F(RunTargetTest, AGpuRunsInWorkerProcesses) {
  const Discovery d = one_gpu();
  RunTarget t(options(kAutoDevice, &d));
  EXPECT_TRUE(t.in_workers());
  EXPECT_EQ(t.device_index(), 0);
  EXPECT_EQ(t.device().name, "Fake GPU");  // the discovered GPU until the worker reports
  EXPECT_EQ(t.profiling_problem(RunProfiling{{}, false, true}), "");  // line counts: workers
  const Session s = t.run(three_points(), {}, {});
  ASSERT_EQ(s.results.size(), 3u);
  for (const PointResult& r : s.results) EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  EXPECT_TRUE(notices_.empty());
}

TEST_F(RunTargetTest, WithoutTheWorkerAGpuRunsInThisProcessAndSaysWhatThatCosts) {
  setenv("REDUCTIONLAB_WORKER", "/nonexistent/reductionlab-worker", 1);
  const Discovery d = one_gpu();
  RunTarget t(options(0, &d));  // no GPU is opened until a run
  EXPECT_FALSE(t.in_workers());
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("no GPU worker process (/nonexistent/reductionlab-worker is "
                             "missing): runs happen in this process"),
            std::string::npos)
      << notices_[0];
  EXPECT_EQ(t.profiling_problem(RunProfiling{{}, false, true}), kLineCountsNeedWorkers);

  RunTargetOptions asked = options(0, &d);
  asked.in_process = true;  // asked for: nothing to say
  notices_.clear();
  RunTarget in_process(std::move(asked));
  EXPECT_FALSE(in_process.in_workers());
  EXPECT_TRUE(notices_.empty());
}

TEST_F(RunTargetTest, TwoKindsOfProfilingAreRefused) {
  RunTarget t(options(kHostDevice, nullptr));
  const RunProfiling both{{"barrier_stall"}, true, false};
  EXPECT_EQ(t.profiling_problem(both), kCountersOrLineSamples);
  EXPECT_THROW(t.run(three_points(), both, {}), Error);
  EXPECT_THROW(t.run(three_points(), RunProfiling{{}, false, true}, {}), Error);
}

TEST_F(RunTargetTest, ATestsBackendRunsInThisProcess) {
  RunTargetOptions o = options(0, nullptr);
  int made = 0;
  o.backend = [&made](int) {
    ++made;
    return make_host_backend();
  };
  RunTarget t(std::move(o));
  EXPECT_FALSE(t.in_workers());
  EXPECT_EQ(made, 1);
  EXPECT_EQ(t.run(three_points(), {}, {}).results.size(), 3u);
}

}  // namespace
}  // namespace rl
