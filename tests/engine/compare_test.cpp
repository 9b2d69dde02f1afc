// Two sessions point by point (engine/report/compare.h): the verdict against the noisier
// measurement, points in one session only listed, failed points not comparable, the summary.
#include <gtest/gtest.h>

#include "engine/report/compare.h"
#include "engine/report/format.h"

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

// A host (CPU emulation) session and a GPU session hold different kinds of time: said once,
// in one place, for every front end.
TEST(CompareSessions, SaysWhenTheTimesAreOfDifferentKinds) {
  Session host, gpu, other_gpu;
  host.device.backend = "host";
  gpu.device.backend = other_gpu.device.backend = "cuda";
  host.results = gpu.results = other_gpu.results = {point("neighbored", 1024, 1.0)};
  EXPECT_TRUE(same_kind_of_time(gpu.device, other_gpu.device));
  EXPECT_TRUE(same_kind_of_time(host.device, host.device));
  EXPECT_FALSE(same_kind_of_time(host.device, gpu.device));
  EXPECT_EQ(compare_sessions(gpu, other_gpu).kinds_of_time, "");
  const std::string note = compare_sessions(gpu, host).kinds_of_time;
  EXPECT_NE(note.find("different kinds of time"), std::string::npos) << note;
  EXPECT_NE(note.find("A has GPU times, B CPU times (host emulation)"), std::string::npos) << note;
}

// A GPU session measured before a kernel's device code last changed says so, from the
// catalog's record; a later session, a host session and unchanged kernels say nothing.
TEST(EarlierCode, SessionsMeasuredBeforeADeviceCodeChangeSaySo) {
  Session s;
  s.device.backend = "cuda";
  s.created_utc = "2026-12-03T06:43:04Z";
  s.results = {point("epoch_pass", 1 << 24, 1.0), point("neighbored", 1 << 24, 1.0)};
  const std::string note = earlier_code_session_note(s);
  EXPECT_NE(note.find("Its epoch_pass points are of an earlier version of that kernel"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("37b4def"), std::string::npos) << note;
  EXPECT_EQ(note.find("neighbored"), std::string::npos) << note;
  EXPECT_NE(earlier_code_point_note(s, "epoch_pass").find("an earlier version of epoch_pass"),
            std::string::npos);
  EXPECT_EQ(earlier_code_point_note(s, "neighbored"), "");
  Session later = s;
  later.created_utc = "2026-12-05T00:00:00Z";
  EXPECT_EQ(earlier_code_session_note(later), "");
  Session host = s;
  host.device.backend = "host";
  EXPECT_EQ(earlier_code_point_note(host, "epoch_pass"), "");
}

}  // namespace
}  // namespace rl
