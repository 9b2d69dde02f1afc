// A multi-GPU run in a worker process (engine/process/multi_supervisor.h), with the fake worker
// (fake_worker.cpp: multi_fixtures.h's made-up points, a crash or a wait for SIGTERM where asked)
// and, for a run that cannot start, the real one: every point reported as it comes, the finished
// points kept when the worker is lost and the rest FAILED saying how, a cancel that gets the
// session so far, and a run that cannot start refused with the worker's reason. Real GPUs:
// tests/gpu/multi_gpu_test.cpp.
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "beside_this_test.h"
#include "engine/core/error.h"
#include "engine/process/multi_supervisor.h"
#include "multi_fixtures.h"

namespace rl {
namespace {

using testing::beside_this_test;

class MultiSupervisorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"RL_FAKE_MULTI", "RL_FAKE_MULTI_CRASH_AFTER", "RL_FAKE_MULTI_HANG_AFTER",
                          "RL_FAKE_MULTI_DEAF"})
      unsetenv(v);
    setenv("RL_FAKE_MULTI", "1", 1);
    worker_ = beside_this_test("rl_fake_worker");
    ASSERT_EQ(access(worker_.c_str(), X_OK), 0) << worker_;
    cb_.on_point = [this](const MultiPoint&, std::size_t index, std::size_t count) {
      indices_.push_back(index);
      count_ = count;
    };
    cb_.on_notice = [this](const std::string& n) { notices_.push_back(n); };
  }
  void TearDown() override {
    for (const char* v : {"RL_FAKE_MULTI", "RL_FAKE_MULTI_CRASH_AFTER", "RL_FAKE_MULTI_HANG_AFTER",
                          "RL_FAKE_MULTI_DEAF"})
      unsetenv(v);
  }
  const MultiSession expected_ = testing::make_multi_session();
  std::string worker_;
  MultiCallbacks cb_;
  std::vector<std::size_t> indices_;
  std::size_t count_ = 0;
  std::vector<std::string> notices_;
};

TEST_F(MultiSupervisorTest, ReportsEveryPointAsTheWorkerSendsIt) {
  const MultiSession s = run_multi_in_worker(expected_.spec, cb_, nullptr, worker_);
  ASSERT_EQ(s.points.size(), expected_.points.size());
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    EXPECT_EQ(s.points[i].point, expected_.points[i].point);
    EXPECT_EQ(s.points[i].status, expected_.points[i].status) << s.points[i].message;
    EXPECT_EQ(s.points[i].value, expected_.points[i].value);
  }
  ASSERT_EQ(indices_.size(), s.points.size());
  for (std::size_t i = 0; i < indices_.size(); ++i) EXPECT_EQ(indices_[i], i);
  EXPECT_EQ(count_, expected_.points.size());
  EXPECT_EQ(s.nccl, expected_.nccl);
  EXPECT_EQ(s.links.size(), expected_.links.size());
  EXPECT_FALSE(s.cancelled);
  ASSERT_FALSE(notices_.empty());
  EXPECT_EQ(notices_.front(), "fake worker: measuring read floors");
}

TEST_F(MultiSupervisorTest, ALostWorkerKeepsTheFinishedPointsAndFailsTheRest) {
  setenv("RL_FAKE_MULTI_CRASH_AFTER", "3", 1);
  const MultiSession s = run_multi_in_worker(expected_.spec, cb_, nullptr, worker_);
  ASSERT_EQ(s.points.size(), expected_.points.size());
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(s.points[i].point.label(), expected_.points[i].point.label());
    EXPECT_EQ(s.points[i].status, expected_.points[i].status);
  }
  const std::vector<MultiPointSpec> all = expand(expected_.spec);
  for (std::size_t i = 3; i < s.points.size(); ++i) {
    EXPECT_EQ(s.points[i].point.label(), all[i].label());
    EXPECT_EQ(s.points[i].status, PointStatus::Failed);
    EXPECT_NE(s.points[i].message.find("killed by signal 6"), std::string::npos)
        << s.points[i].message;
  }
  EXPECT_EQ(s.points[3].message.rfind("running " + s.points[3].point.label(), 0), 0u)
      << s.points[3].message;
  EXPECT_EQ(s.points[4].message.rfind("not run: ", 0), 0u) << s.points[4].message;
  EXPECT_EQ(indices_.size(), 3u);
  ASSERT_FALSE(notices_.empty());
  EXPECT_NE(notices_.back().find("worker process was lost"), std::string::npos);
}

TEST_F(MultiSupervisorTest, ACancelAsksTheWorkerAndKeepsItsSession) {
  setenv("RL_FAKE_MULTI_HANG_AFTER", "2", 1);
  std::atomic<bool> cancel{false};
  cb_.on_point = [&](const MultiPoint&, std::size_t index, std::size_t) {
    if (index == 1) cancel = true;
  };
  const auto start = std::chrono::steady_clock::now();
  const MultiSession s = run_multi_in_worker(expected_.spec, cb_, &cancel, worker_);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2))
      << "answered the SIGTERM, not killed after the grace";
  EXPECT_TRUE(s.cancelled);
  ASSERT_EQ(s.points.size(), 2u);  // the rest are not failed: they were not asked for
  EXPECT_EQ(s.nccl, expected_.nccl);
}

// A run cancelled while it waited in the queue starts no worker.
TEST_F(MultiSupervisorTest, ACancelBeforeTheStartRunsNothing) {
  std::atomic<bool> cancel{true};
  const MultiSession s = run_multi_in_worker(expected_.spec, cb_, &cancel, worker_);
  EXPECT_TRUE(s.cancelled);
  EXPECT_TRUE(s.points.empty());
  EXPECT_TRUE(notices_.empty());
}

// The real worker: a GPU no machine here has (or no GPU at all), refused with its reason, as
// run_multi throws.
TEST_F(MultiSupervisorTest, ARunThatCannotStartIsRefusedWithTheWorkersReason) {
  unsetenv("RL_FAKE_MULTI");
  const std::string real = beside_this_test("reductionlab-worker");
  ASSERT_EQ(access(real.c_str(), X_OK), 0) << real;
  MultiSpec spec;
  spec.devices = {99};
  spec.sizes = {1 << 20};
  try {
    run_multi_in_worker(spec, cb_, nullptr, real);
    FAIL() << "a multi-GPU run started on cuda:99";
  } catch (const Error& e) {
    const std::string why = e.what();
    EXPECT_TRUE(why.find("no GPU") != std::string::npos || why.find("cuda:99") != std::string::npos)
        << why;
  }
}

// A worker that does not answer the cancel (it may be loading an input) is stopped after the
// grace: the points it finished are the session, cancelled, and nothing is called lost.
TEST_F(MultiSupervisorTest, AWorkerDeafToTheCancelIsStoppedAndItsPointsKept) {
  setenv("RL_FAKE_MULTI_HANG_AFTER", "2", 1);
  setenv("RL_FAKE_MULTI_DEAF", "1", 1);
  std::atomic<bool> cancel{false};
  cb_.on_point = [&](const MultiPoint&, std::size_t index, std::size_t) {
    if (index == 1) cancel = true;
  };
  const MultiSession s = run_multi_in_worker(expected_.spec, cb_, &cancel, worker_);
  EXPECT_TRUE(s.cancelled);
  EXPECT_EQ(s.points.size(), 2u);
  ASSERT_FALSE(notices_.empty());
  EXPECT_NE(notices_.back().find("did not stop within 2 s"), std::string::npos) << notices_.back();
}

}  // namespace
}  // namespace rl
