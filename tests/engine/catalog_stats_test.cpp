// The catalog resolves ids and classic names; statistics and speed-ups are computed right.
#include <gtest/gtest.h>

#include <set>

#include "engine/catalog/catalog.h"
#include "engine/core/stats.h"
#include "engine/experiment/input_data.h"
#include "engine/session/results.h"

namespace rl {
namespace {

TEST(Catalog, IdsAreUniqueAndEveryEntryIsDescribed) {
  std::set<std::string> ids;
  for (const auto& v : catalog()) {
    EXPECT_TRUE(ids.insert(v.id).second) << v.id;
    EXPECT_FALSE(v.display_name.empty()) << v.id;
    EXPECT_FALSE(v.explanation.empty()) << v.id;
    EXPECT_FALSE(v.phases.empty()) << v.id;
    EXPECT_FALSE(v.unroll_factors.empty()) << v.id;
    EXPECT_TRUE(v.takes_unroll(v.default_unroll)) << v.id;
  }
}

TEST(Catalog, ResolvesClassicNames) {
  auto r = resolve_variant("reduceInterleaved");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->variant->id, "interleaved");
  EXPECT_FALSE(r->unroll);
  r = resolve_variant("reduceUnroll8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->variant->id, "unroll");
  EXPECT_EQ(r->unroll, 8);
  r = resolve_variant("reduceUnrollWarp8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->variant->id, "unroll_warp_volatile");
  r = resolve_variant("reduceCompleteUnrollWarp8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->variant->id, "complete_unroll_warp_volatile");
  r = resolve_variant("reduceCompleteUnroll");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->variant->id, "complete_unroll_volatile");
  EXPECT_FALSE(resolve_variant("reduceUnrollX"));
  EXPECT_FALSE(resolve_variant("REDUCEINTERLEAVED"));
  EXPECT_EQ(find_variant_by_id("unroll")->seed_label(4), "reduceUnroll4");
}

TEST(Stats, Summary) {
  const Summary s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.samples, 4);
  EXPECT_DOUBLE_EQ(s.median_ms, 2.5);
  EXPECT_DOUBLE_EQ(s.mean_ms, 2.5);
  EXPECT_DOUBLE_EQ(s.min_ms, 1);
  EXPECT_DOUBLE_EQ(s.max_ms, 4);
  EXPECT_NEAR(s.stddev_ms, 1.2909944, 1e-6);
  EXPECT_NEAR(s.noise, 1.2909944 / 2 / 2.5, 1e-6);
  EXPECT_TRUE(summarize({}).empty());
  EXPECT_DOUBLE_EQ(summarize({7}).median_ms, 7);
}

TEST(Stats, GpuTimeTakesOneFloorPerSpanOut) {
  const Summary floor = summarize({0.0013, 0.0012, 0.0014});  // median 1.3 us
  const Summary one = gpu_time_of({0.010, 0.012, 0.011}, floor, 1);
  EXPECT_EQ(one.samples, 3);
  EXPECT_DOUBLE_EQ(one.median_ms, 0.011 - 0.0013);
  EXPECT_DOUBLE_EQ(one.min_ms, 0.010 - 0.0013);
  const Summary two = gpu_time_of({0.010, 0.012, 0.011}, floor, 2);
  EXPECT_DOUBLE_EQ(two.median_ms, 0.011 - 2 * 0.0013);
  EXPECT_TRUE(gpu_time_of({0.010}, Summary{}, 1).empty());  // no floor: nothing timed on a GPU
  EXPECT_TRUE(gpu_time_of({0.010}, floor, 0).empty());
  EXPECT_TRUE(gpu_time_of({}, floor, 1).empty());
}

TEST(Speedups, AgainstMatchingBaselinePoint) {
  std::vector<PointResult> rs(3);
  rs[0].point = {"neighbored", Workspace::Global, 1024, 1, 1 << 24, DType::Int32};
  rs[0].total = summarize({2.0});
  rs[1].point = {"unroll", Workspace::Global, 1024, 8, 1 << 24, DType::Int32};
  rs[1].total = summarize({0.5});
  rs[2].point = {"unroll", Workspace::Global, 1024, 8, 1 << 24, DType::Int32};
  rs[2].total = summarize({0.25});
  rs[2].status = PointStatus::Wrong;
  compute_speedups(rs, "reduceNeighbored");
  ASSERT_TRUE(rs[0].speedup);
  EXPECT_DOUBLE_EQ(*rs[0].speedup, 1.0);
  EXPECT_DOUBLE_EQ(*rs[1].speedup, 4.0);
  EXPECT_FALSE(rs[2].speedup) << "a wrong result is never shown as a speed-up";
}

TEST(InputData, DeterministicAndInRange) {
  const InputData a = make_input(1000, DType::Int32), b = make_input(1000, DType::Int32);
  EXPECT_EQ(a.i32, b.i32);
  for (int v : a.i32) {
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 255);
  }
  const InputData f = make_input(1000, DType::Float32);
  for (float v : f.f32) {
    EXPECT_GE(v, 0.f);
    EXPECT_LT(v, 1.f);
  }
  EXPECT_NEAR(f.exact_double() / 1000, 0.5, 0.05);
}

}  // namespace
}  // namespace rl
