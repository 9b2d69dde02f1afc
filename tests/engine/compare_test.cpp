// Two sessions point by point (engine/report/compare.h): the verdict against the noisier
// measurement, points in one session only listed, failed points not comparable, the summary.
#include <gtest/gtest.h>

#include "engine/report/compare.h"

namespace rl {
namespace {

PointResult point(const std::string& variant, std::uint64_t n, double median_ms,
                  double stddev_ms = 0, PointStatus status = PointStatus::Ok) {
  PointResult r;
  r.point = {variant, Workspace::Global, 1024, 1, n, DType::Int32};
  r.status = status;
  r.total.samples = 10;
  r.total.median_ms = r.total.mean_ms = median_ms;
  r.total.stddev_ms = stddev_ms;
  return r;
}

TEST(CompareSessions, VerdictsAgainstTheNoisierMeasurement) {
  Session a, b;
  a.results = {point("neighbored", 1024, 1.0, 0.01), point("interleaved", 1024, 1.0, 0.01),
               point("unroll", 1024, 1.0, 0.01), point("unroll", 2048, 1.0, 0.2)};
  b.results = {point("neighbored", 1024, 0.5, 0.01),   // 2x faster
               point("interleaved", 1024, 1.5, 0.01),  // slower
               point("unroll", 1024, 1.005, 0.01),     // within 1%: same
               point("unroll", 2048, 1.15, 0.01)};     // 15% slower, but A's spread is 20%: same
  const SessionComparison c = compare_sessions(a, b);
  ASSERT_EQ(c.points.size(), 4u);
  EXPECT_EQ(c.points[0].verdict, Verdict::Faster);
  EXPECT_DOUBLE_EQ(c.points[0].ratio, 0.5);
  EXPECT_EQ(c.points[1].verdict, Verdict::Slower);
  EXPECT_EQ(c.points[2].verdict, Verdict::Same);
  EXPECT_EQ(c.points[3].verdict, Verdict::Same);
  EXPECT_DOUBLE_EQ(c.points[3].noise, 0.2);
  EXPECT_EQ(c.summary(), "1 faster, 1 slower, 2 same (B against A, whole reduction)");
}

TEST(CompareSessions, ListsWhatDoesNotMatchAndWhatCannotBeCompared) {
  Session a, b;
  a.results = {point("neighbored", 1024, 1.0), point("interleaved", 1024, 1.0),
               point("unroll", 4096, 1.0)};
  b.results = {point("neighbored", 1024, 1.0, 0, PointStatus::Failed),
               point("interleaved", 1024, 1.0), point("unroll", 8192, 1.0)};
  const SessionComparison c = compare_sessions(a, b);
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_EQ(c.points[0].verdict, Verdict::NotComparable);
  EXPECT_EQ(c.points[0].why, "B: failed");
  EXPECT_EQ(c.points[1].verdict, Verdict::Same);
  ASSERT_EQ(c.only_a.size(), 1u);
  EXPECT_EQ(c.only_a[0].size, 4096u);
  ASSERT_EQ(c.only_b.size(), 1u);
  EXPECT_EQ(c.only_b[0].size, 8192u);
  EXPECT_EQ(c.summary(),
            "0 faster, 0 slower, 1 same (B against A, whole reduction); 1 not comparable; 1 only "
            "in A; 1 only in B");
  // A time the points do not have: not comparable, saying which.
  const SessionComparison gpu = compare_sessions(a, a, TimeBasis::Gpu);
  EXPECT_EQ(gpu.points[1].verdict, Verdict::NotComparable);
  EXPECT_EQ(gpu.points[1].why, "A has no GPU time");
}

}  // namespace
}  // namespace rl
