// The runner after a point that leaves the device unusable (fault_backend.h stands in for a GPU
// fault): the point fails with the error and the reset named, the remaining points run, the
// finished ones are kept; when the device cannot be brought back, later points say so.
// The real fault on a GPU: tests/gpu/fault_gpu_test.cpp.
#include <gtest/gtest.h>

#include "engine/measure/runner.h"
#include "fault_backend.h"

namespace rl {
namespace {

ExperimentSpec three_points() {
  ExperimentSpec s;
  s.variants = {"reduceNeighbored", "reduceInterleaved", "reduceUnroll8"};
  s.block_sizes = {64};
  s.sizes = {1000};
  s.timing.budget_ms = 1;
  return s;
}

bool is_middle(const PointSpec& p) {
  return p.label().rfind("reduceInterleaved/", 0) == 0;  // ids may differ from classic names
}

TEST(RunnerFault, FaultFailsItsPointAndTheRestRun) {
  auto owned = std::make_unique<testing::FaultyHostBackend>(is_middle);
  testing::FaultyHostBackend* backend = owned.get();
  Runner runner(std::move(owned));
  int reported = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { ++reported; };
  const Session s = runner.run(three_points(), cb);
  ASSERT_EQ(s.results.size(), 3u);
  EXPECT_EQ(reported, 3);
  EXPECT_EQ(backend->resets(), 1);
  for (const PointResult& r : s.results) {
    if (!is_middle(r.point)) {
      EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
      continue;
    }
    EXPECT_EQ(r.status, PointStatus::Failed);
    EXPECT_NE(r.message.find("cudaErrorIllegalAddress"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find(r.point.label()), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("was reset"), std::string::npos) << r.message;
  }
}

TEST(RunnerFault, UnrecoverableDeviceFailsTheRemainingPointsAndKeepsTheFinished) {
  Runner runner(std::make_unique<testing::FaultyHostBackend>(is_middle, /*recovery_fails=*/true));
  const Session s = runner.run(three_points(), {});
  ASSERT_EQ(s.results.size(), 3u);
  bool after_fault = false;
  for (const PointResult& r : s.results) {
    if (is_middle(r.point)) {
      EXPECT_EQ(r.status, PointStatus::Failed);
      EXPECT_NE(r.message.find("could not be recovered"), std::string::npos) << r.message;
      after_fault = true;
    } else if (after_fault) {
      EXPECT_EQ(r.status, PointStatus::Failed);
      EXPECT_NE(r.message.find("device was lost"), std::string::npos) << r.message;
    } else {
      EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
    }
  }
  EXPECT_TRUE(after_fault);
}

}  // namespace
}  // namespace rl
