// The counter charts' selection rules (engine/views/counter_series.h): which points form a
// barrier-stall line against the unroll factor or the block size, which setting is drawn, what a
// session without them is told, and the ladder's model barriers beside the measured stall.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/io/export.h"
#include "engine/trace/model_counts.h"
#include "engine/views/counter_series.h"

namespace rl {
namespace {

PointResult point(const std::string& variant, int unroll, std::uint64_t n, int block,
                  std::optional<double> stall, PointStatus status = PointStatus::Ok,
                  Workspace ws = Workspace::Global) {
  PointResult r;
  r.point = {variant, ws, block, unroll, n, DType::Int32};
  r.status = status;
  if (stall) {
    PointCounters c;
    c.kernels.push_back({"first_kernel", {{std::string(barrier_stall_metric()), *stall}}});
    r.counters = c;
  }
  return r;
}

constexpr std::uint64_t k24 = 1u << 24, k20 = 1u << 20;

TEST(CounterSeries, UnrollLinesAreVariantsAtTwoOrMoreFactors) {
  Session s;
  for (int u : {8, 2, 4}) s.results.push_back(point("unroll", u, k24, 1024, 60.0 / u));
  s.results.push_back(point("neighbored", 1, k24, 1024, 70));         // one factor: no line
  s.results.push_back(point("unroll", 16, k24, 1024, std::nullopt));  // no counter: not drawn
  s.results.push_back(point("unroll", 1, k24, 1024, 1, PointStatus::Failed));
  const CounterSweeps cs = counter_sweeps(s, CounterAxis::Unroll);
  ASSERT_EQ(cs.series.size(), 1u) << cs.empty_reason;
  EXPECT_TRUE(cs.empty_reason.empty());
  EXPECT_EQ(cs.series[0].variant, "unroll");
  EXPECT_EQ(cs.series[0].block, 1024);
  ASSERT_EQ(cs.series[0].points.size(), 3u);
  EXPECT_EQ(cs.series[0].points[0].x, 2);  // by x
  EXPECT_EQ(cs.series[0].points[2].x, 8);
  EXPECT_DOUBLE_EQ(cs.series[0].points[2].value, 7.5);
  EXPECT_EQ(cs.series[0].points[2].result, &s.results[0]);
  EXPECT_EQ(cs.label(), "N=2^24 · B=1024 · int32");
  EXPECT_EQ(cs.other_settings, 0);
  EXPECT_FALSE(cs.series[0].points[2].range.has_value());  // one repeat: no range
}

// A point's range over the counter pass's repeats goes with it (the charts draw it as a band).
TEST(CounterSeries, PointsCarryTheirRangeOverTheRepeats) {
  Session s;
  for (int u : {2, 4}) s.results.push_back(point("unroll", u, k24, 1024, 30.0 / u));
  s.results[1].counters->kernels[0].ranges = {{std::string(barrier_stall_metric()), {6.9, 8.1}}};
  const CounterSweeps cs = counter_sweeps(s, CounterAxis::Unroll);
  ASSERT_EQ(cs.series.size(), 1u) << cs.empty_reason;
  EXPECT_FALSE(cs.series[0].points[0].range.has_value());
  EXPECT_EQ(cs.series[0].points[1].range, (CounterRange{6.9, 8.1}));
}

TEST(CounterSeries, TheSettingIsThePreferredOneWhenItHoldsASweep) {
  Session s;
  for (int u : {2, 4}) {
    s.results.push_back(point("unroll", u, k24, 1024, 10));
    s.results.push_back(point("unroll", u, k20, 1024, 20));
    s.results.push_back(point("unroll_warp_volatile", u, k20, 1024, 20));
  }
  // The most lines first.
  CounterSweeps cs = counter_sweeps(s, CounterAxis::Unroll);
  EXPECT_EQ(cs.size, k20);
  EXPECT_EQ(cs.series.size(), 2u);
  EXPECT_EQ(cs.other_settings, 1);
  // The ladder's setting where it holds one.
  cs = counter_sweeps(s, CounterAxis::Unroll, LadderSetting{k24, DType::Int32, 1024, 0});
  EXPECT_EQ(cs.size, k24);
  ASSERT_EQ(cs.series.size(), 1u);
  // Not where it holds none (another block size on the unroll axis).
  cs = counter_sweeps(s, CounterAxis::Unroll, LadderSetting{k24, DType::Int32, 512, 0});
  EXPECT_EQ(cs.size, k20);
}

TEST(CounterSeries, BlockSizeLinesKeepTheirUnrollFactor) {
  Session s;
  for (int b : {256, 512, 1024}) {
    s.results.push_back(point("unroll", 8, k24, b, b / 100.0));
    s.results.push_back(point("unroll", 4, k24, b, b / 50.0, PointStatus::Ok, Workspace::Shared));
  }
  s.results.push_back(point("cub_device_reduce", 1, k24, 0, 5));  // picks its own: no block axis
  const CounterSweeps cs = counter_sweeps(s, CounterAxis::BlockSize);
  ASSERT_EQ(cs.series.size(), 2u);
  EXPECT_EQ(cs.series[0].unroll, 8);  // global before shared
  EXPECT_EQ(cs.series[0].workspace, Workspace::Global);
  EXPECT_EQ(cs.series[1].unroll, 4);
  EXPECT_EQ(cs.series[0].points.back().x, 1024);
  EXPECT_EQ(cs.label(), "N=2^24 · int32");  // no block size on the block-size axis
  // The same session has no unroll sweep.
  EXPECT_TRUE(counter_sweeps(s, CounterAxis::Unroll).series.empty());
}

TEST(CounterSeries, EmptySessionsSayHowToGetTheChart) {
  Session none;
  for (int u : {2, 4}) none.results.push_back(point("unroll", u, k24, 1024, std::nullopt));
  CounterSweeps cs = counter_sweeps(none, CounterAxis::Unroll);
  EXPECT_TRUE(cs.series.empty());
  EXPECT_NE(cs.empty_reason.find("no hardware counters"), std::string::npos) << cs.empty_reason;
  EXPECT_NE(cs.empty_reason.find("reductionlab-cli run --preset unroll --counters"),
            std::string::npos)
      << cs.empty_reason;
  Session one;
  one.results.push_back(point("unroll", 2, k24, 1024, 3));
  cs = counter_sweeps(one, CounterAxis::BlockSize);
  EXPECT_NE(cs.empty_reason.find("two or more block sizes"), std::string::npos) << cs.empty_reason;
  EXPECT_NE(cs.empty_reason.find("--preset block-sizes --counters"), std::string::npos);
}

TEST(CounterSeries, BarriersBesideStallAreSharesOfTheLargest) {
  Session s;
  s.results.push_back(point("neighbored", 1, k24, 1024, 20));
  s.results.push_back(point("unroll", 8, k24, 1024, 10));
  s.results.push_back(point("neighbored_less", 1, k24, 1024, 50));
  s.results.push_back(point("cub_device_reduce", 1, k24, 0, 2));  // no block model
  s.results.push_back(point("interleaved", 1, k24, 1024, std::nullopt));
  const LadderSetting at{k24, DType::Int32, 1024, 0};
  const BarriersBesideStall b = barriers_beside_stall(s, at);
  ASSERT_EQ(b.rungs.size(), 3u) << b.empty_reason;
  EXPECT_EQ(b.rungs[0].result->point.variant, "neighbored");  // catalog order
  EXPECT_EQ(b.rungs[1].result->point.variant, "neighbored_less");
  EXPECT_DOUBLE_EQ(b.rungs[0].barriers_pct, 100);
  EXPECT_DOUBLE_EQ(b.rungs[0].stall_pct, 40);  // of the largest stall, neighbored_less's
  EXPECT_DOUBLE_EQ(b.rungs[1].stall_pct, 100);
  EXPECT_EQ(b.rungs[0].barriers, 16384u * 10);  // 2^24 / 1024 blocks x log2(1024)
  EXPECT_EQ(b.rungs[2].barriers, model_counts(s.results[1].point)->barriers());
  EXPECT_LT(b.rungs[2].barriers_pct, 20);  // an eighth of the blocks
  EXPECT_DOUBLE_EQ(b.rungs[2].stall_pct, 20);
  ASSERT_EQ(b.left_out.size(), 2u);
  EXPECT_EQ(b.left_out[0], "interleaved: no counters");
  EXPECT_EQ(b.left_out[1], "cub_device_reduce: no block model");

  Session plain;
  plain.results.push_back(point("neighbored", 1, k24, 1024, std::nullopt));
  const BarriersBesideStall e = barriers_beside_stall(plain, at);
  EXPECT_TRUE(e.rungs.empty());
  EXPECT_NE(e.empty_reason.find("--preset ladder --counters"), std::string::npos);
}

// The bundled H200 session (2^16..2^28 at B=1024, with counters): an unroll line, no block-size
// sweep, and the classic ladder's argument in its numbers.
TEST(CounterSeries, TheBundledSession) {
  const std::string path = std::string(RL_RESOURCES_DIR) + "/sessions/h200-ladder.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no bundled session at " << path;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const Session s = session_from_json(text.str());
  const CounterSweeps u = counter_sweeps(s, CounterAxis::Unroll);
  ASSERT_FALSE(u.series.empty()) << u.empty_reason;
  EXPECT_EQ(u.series[0].variant, "unroll");
  EXPECT_EQ(u.series[0].points.size(), 3u);  // U = 2, 4, 8
  EXPECT_GT(u.series[0].points.front().value, u.series[0].points.back().value);
  EXPECT_TRUE(counter_sweeps(s, CounterAxis::BlockSize).series.empty());
  const BarriersBesideStall b = barriers_beside_stall(s, *default_ladder_setting(s));
  ASSERT_GE(b.rungs.size(), 8u) << b.empty_reason;
  EXPECT_EQ(b.rungs.front().result->point.variant, "neighbored");
  for (const RungBarriers& r : b.rungs)
    if (r.result->point.variant == "unroll" && r.result->point.unroll == 8) {
      EXPECT_LT(r.barriers_pct, 25);  // the classic ladder's argument: fewer barriers, less stall
      EXPECT_LT(r.stall_pct, 75);
    }
}

}  // namespace
}  // namespace rl
