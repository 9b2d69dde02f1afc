// Resuming a saved run (engine/resume.h, Runner::run's `resume`): finished points are kept as
// they are, a FAILED one runs again, and a session from another device is refused.
#include <gtest/gtest.h>

#include "engine/backend/backend.h"
#include "engine/io/resume.h"
#include "engine/measure/runner.h"
#include "timeline_fixtures.h"

namespace rl {
namespace {

ExperimentSpec small_spec() {
  ExperimentSpec s;
  s.variants = {"neighbored", "interleaved"};
  s.block_sizes = {64};
  s.sizes = {1000, 4096};
  s.timing.budget_ms = 2;
  s.timing.min_samples = 3;
  s.timing.max_samples = 5;
  return s;
}

TEST(Resume, FinishedPointsAreKeptAndFailedOnesRunAgain) {
  Runner runner(make_host_backend());
  const Session first = runner.run(small_spec(), {});
  ASSERT_EQ(first.results.size(), 4u);

  // Half done, one of those FAILED: the other is kept bit for bit, the rest are measured.
  Session saved = first;
  saved.results.resize(2);
  saved.results[1].status = PointStatus::Failed;
  saved.cancelled = true;
  saved.timelines = {test::timeline_with({test::four_warp_block(test::SmClock{}, 7, 3)})};
  const FinishedPoints finished(&saved);
  EXPECT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished.find(first.results[0].point), &saved.results[0]);
  EXPECT_EQ(finished.find(first.results[1].point), nullptr);

  int checkpoints = 0;
  RunCallbacks cb;
  cb.on_session = [&](const Session& s) {
    EXPECT_EQ(s.results.size(), std::size_t(++checkpoints));
  };
  const Session done = runner.run(small_spec(), cb, nullptr, &saved);
  EXPECT_EQ(checkpoints, 4);
  ASSERT_EQ(done.results.size(), 4u);
  EXPECT_FALSE(done.cancelled);
  EXPECT_EQ(done.results[0].total_samples_ms, saved.results[0].total_samples_ms);
  EXPECT_EQ(done.results[1].status, PointStatus::Ok);
  ASSERT_EQ(done.timelines.size(), 1u);  // kept: a resumed file is written over
  EXPECT_EQ(done.timelines[0].blocks[0].block, 7u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(done.results[i].point, first.results[i].point);
}

TEST(Resume, AnotherDeviceIsRefused) {
  Session saved;
  saved.device.backend = "cuda";
  saved.device.name = "NVIDIA H200";
  saved.device.cc_major = 9;
  saved.device.index = 0;
  DeviceInfo host;
  host.backend = "host";
  host.name = "some CPU";
  EXPECT_EQ(resume_mismatch(saved, host).rfind("measured on cuda:0 NVIDIA H200", 0), 0u)
      << resume_mismatch(saved, host);
  EXPECT_EQ(resume_mismatch(saved, saved.device), "");
}

}  // namespace
}  // namespace rl
