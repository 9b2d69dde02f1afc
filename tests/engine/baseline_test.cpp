// Which point a speed-up is against (results.h): another variant's like-for-like point, or the
// variant's own lowest unroll factor when it is the baseline itself; one index for a session.
#include <gtest/gtest.h>

#include <chrono>

#include "engine/catalog/catalog.h"
#include "engine/session/results.h"

namespace rl {
namespace {

PointResult point(const std::string& variant, int unroll, double ms, int block = 1024,
                  Workspace ws = Workspace::Global, std::uint64_t n = 1 << 24) {
  PointResult r;
  r.point = {variant, ws, block, unroll, n, DType::Int32};
  r.total = summarize({ms});
  return r;
}

TEST(Baseline, TheUnrollingExperimentIsAgainstUOne) {
  // run --variants unroll --unroll 1,2,4,8 (unroll is its own baseline).
  std::vector<PointResult> rs{point("unroll", 1, 8.0), point("unroll", 2, 4.0),
                              point("unroll", 4, 2.0), point("unroll", 8, 1.0)};
  compute_speedups(rs, "unroll");
  for (const PointResult& r : rs) ASSERT_TRUE(r.speedup) << r.point.label();
  EXPECT_DOUBLE_EQ(*rs[0].speedup, 1.0);
  EXPECT_DOUBLE_EQ(*rs[1].speedup, 2.0);
  EXPECT_DOUBLE_EQ(*rs[2].speedup, 4.0);
  EXPECT_DOUBLE_EQ(*rs[3].speedup, 8.0);
}

TEST(Baseline, WithoutUOneTheLowestFactorThatVerifiedIsTheBaseline) {
  std::vector<PointResult> rs{point("unroll", 1, 8.0), point("unroll", 2, 4.0),
                              point("unroll", 8, 1.0)};
  rs[0].status = PointStatus::Wrong;      // never a baseline
  compute_speedups(rs, "reduceUnroll8");  // a classic name means its variant
  EXPECT_FALSE(rs[0].speedup);
  EXPECT_DOUBLE_EQ(*rs[1].speedup, 1.0);
  EXPECT_DOUBLE_EQ(*rs[2].speedup, 4.0);
}

TEST(Baseline, OwnVariantKeepsWorkspaceAndBlockSize) {
  std::vector<PointResult> rs{point("unroll", 1, 8.0, 1024), point("unroll", 1, 6.0, 256),
                              point("unroll", 4, 3.0, 256),
                              point("unroll", 1, 5.0, 1024, Workspace::Shared),
                              point("unroll", 4, 1.0, 1024, Workspace::Shared)};
  compute_speedups(rs, "unroll");
  EXPECT_DOUBLE_EQ(*rs[2].speedup, 2.0);  // against U=1 at B=256, not B=1024
  EXPECT_DOUBLE_EQ(*rs[4].speedup, 5.0);  // against U=1 in shared, not global
}

TEST(Baseline, AnotherVariantComparesLikeWithLike) {
  std::vector<PointResult> rs{point("unroll", 1, 8.0), point("unroll", 2, 4.0),
                              point("unroll_warp_sync", 2, 2.0), point("interleaved", 1, 6.0),
                              point("warp_shuffle", 4, 1.0, 1024, Workspace::Registers)};
  compute_speedups(rs, "unroll");
  EXPECT_DOUBLE_EQ(*rs[2].speedup, 2.0);  // the same U: what the last warp adds
  EXPECT_DOUBLE_EQ(*rs[3].speedup, 8.0 / 6.0);
  EXPECT_DOUBLE_EQ(*rs[4].speedup, 8.0);  // no U=4, no registers: the lowest factor
}

TEST(Baseline, NoneWhereTheBaselineDidNotRun) {
  std::vector<PointResult> rs{point("neighbored", 1, 2.0, 1024, Workspace::Global, 1000),
                              point("interleaved", 1, 1.0)};
  compute_speedups(rs, "neighbored");
  EXPECT_TRUE(rs[0].speedup);
  EXPECT_FALSE(rs[1].speedup) << "another size is not a baseline";
  EXPECT_EQ(find_baseline(rs, rs[1].point, "neighbored"), nullptr);
}

// find_baseline (one scan, the app's look-up) and the index agree on every point.
TEST(Baseline, IndexAndScanAgree) {
  std::vector<PointResult> rs;
  for (const char* v : {"neighbored", "unroll", "warp_shuffle"})
    for (int b : {256, 1024})
      for (int u : {1, 2, 8})
        for (std::uint64_t n : {1000u, 4096u})
          rs.push_back(point(v, u, double(b * u % 7 + 1), b, Workspace::Global, n));
  for (const char* base : {"neighbored", "unroll", "reduceUnroll2", "warp_shuffle"}) {
    const BaselineIndex index(rs, base);
    for (const PointResult& r : rs)
      EXPECT_EQ(index.find(r.point), find_baseline(rs, r.point, base)) << base << r.point.label();
  }
}

TEST(Baseline, AHundredThousandPointsTakeLittleTime) {
  std::vector<PointResult> rs;
  rs.reserve(100000);
  for (int i = 0; i < 100000; ++i)
    rs.push_back(point(i % 2 ? "interleaved" : "neighbored", 1, 1.0 + i % 3, 1024,
                       Workspace::Global, std::uint64_t(1000 + i / 2)));
  const auto start = std::chrono::steady_clock::now();
  compute_speedups(rs, "neighbored");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 2.0) << "quadratic matching took minutes at this size";
  for (const PointResult& r : rs) ASSERT_TRUE(r.speedup) << r.point.label();
}

}  // namespace
}  // namespace rl
