// The noise target on the host backend: a point that cannot reach it within its budget is
// flagged noisy (and still verified); one that does is not. Host runs have no read floor.
#include <gtest/gtest.h>

#include "engine/backend/backend.h"
#include "engine/measure/runner.h"
#include "engine/session/metrics.h"

namespace rl {
namespace {

Session run_one(double noise) {
  Runner runner(make_host_backend());
  ExperimentSpec s;
  s.variants = {"reduceInterleaved"};
  s.block_sizes = {64};
  s.sizes = {1000};
  s.timing.noise = noise;
  s.timing.budget_ms = 2;
  s.timing.max_samples = 200;
  return runner.run(s, {});
}

TEST(RunnerNoise, UnreachableTargetIsFlaggedNoisy) {
  const Session s = run_one(1e-12);
  ASSERT_EQ(s.results.size(), 1u);
  EXPECT_EQ(s.results[0].status, PointStatus::Ok) << s.results[0].message;
  EXPECT_TRUE(s.results[0].noisy);
  EXPECT_EQ(count_noisy(s.results), 1);
  EXPECT_TRUE(s.read_floors.empty());
  EXPECT_EQ(point_rates(s.results[0], s.device, s.read_floors).pct_of_read_floor, 0);
}

TEST(RunnerNoise, ReachedTargetIsNotNoisy) {
  const Session s = run_one(0.99);  // five samples of a tiny host point are within 99%
  ASSERT_EQ(s.results.size(), 1u);
  EXPECT_FALSE(s.results[0].noisy);
  EXPECT_EQ(s.results[0].total.samples, 5);
}

}  // namespace
}  // namespace rl
