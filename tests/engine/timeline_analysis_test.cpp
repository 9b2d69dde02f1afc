// The numbers derived from measured warp timelines (session/timeline_analysis.h), on synthetic
// timelines whose every time is known: the 4-warp block of timeline_fixtures.h, at several
// SM clock rates.
#include "engine/session/timeline_analysis.h"

#include <functional>

#include <gtest/gtest.h>

#include "engine/core/error.h"
#include "timeline_fixtures.h"

namespace rl {
namespace {

using test::four_warp_block;
using test::SmClock;
using test::timeline_with;

// The fixture's clocks are multiples of 10 cycles, so these rates give exact ns.
class FourWarpBlock : public ::testing::TestWithParam<std::uint64_t> {
 protected:
  double cpn() const { return double(GetParam()); }
  MeasuredTimeline timeline() const {
    return timeline_with({four_warp_block(SmClock{100000, 5000000, GetParam()}, 7, 3)});
  }
};

TEST_P(FourWarpBlock, RecoversTheSmClockRate) {
  EXPECT_DOUBLE_EQ(summarize_timeline(timeline()).cycles_per_ns, cpn());
}

TEST_P(FourWarpBlock, TheLastWarpToArriveIsTheSlowestAndBarelyWaits) {
  const auto barriers = barrier_timings(timeline());
  ASSERT_EQ(barriers.size(), 1u);
  const BarrierTiming& b = barriers[0];
  EXPECT_EQ(b.block_slot, 0u);
  EXPECT_EQ(b.ordinal, 0u);
  EXPECT_EQ(b.warps, 4u);
  EXPECT_EQ(b.slowest_warp, 2u);
  EXPECT_DOUBLE_EQ(b.first_arrival_ns, 1200 / cpn());
  EXPECT_DOUBLE_EQ(b.last_arrival_ns, 1800 / cpn());
  EXPECT_DOUBLE_EQ(b.last_release_ns, 1810 / cpn());
  EXPECT_DOUBLE_EQ(b.wait_sum_ns, (610 + 410 + 10 + 510) / cpn());

  // Each warp's own wait is its BarrierWait span: 10 cycles for warp 2, the others longer.
  const double expected_wait[4] = {610, 410, 10, 510};
  int waits = 0;
  for (const TimelineSpan& s : timeline_spans(timeline()))
    if (s.kind == TimelineSpan::Kind::BarrierWait) {
      ++waits;
      EXPECT_EQ(s.index, 0u);
      EXPECT_DOUBLE_EQ(s.end_ns - s.start_ns, expected_wait[s.warp] / cpn()) << "warp " << s.warp;
      EXPECT_EQ(s.end_clock - s.start_clock, std::uint64_t(expected_wait[s.warp]));
    }
  EXPECT_EQ(waits, 4);
}

TEST_P(FourWarpBlock, SpansRunInOrderBetweenConsecutiveMarks) {
  const auto spans = timeline_spans(timeline());
  ASSERT_EQ(spans.size(), 4u * 5u);
  using K = TimelineSpan::Kind;
  const K kinds[5] = {K::Work, K::Work, K::BarrierWait, K::Work, K::Work};
  const char* phases[5] = {"", "load", "", "load", "tree"};
  const unsigned indices[5] = {0, 0, 0, 0, 16};
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const TimelineSpan& s = spans[i];
    SCOPED_TRACE("span " + std::to_string(i));
    EXPECT_EQ(s.block_slot, 0u);
    EXPECT_EQ(s.warp, i / 5);
    EXPECT_EQ(s.kind, kinds[i % 5]);
    EXPECT_EQ(s.phase, phases[i % 5]);
    EXPECT_EQ(s.index, indices[i % 5]);
    EXPECT_LE(s.start_ns, s.end_ns);
    if (i % 5 == 0) EXPECT_DOUBLE_EQ(s.start_ns, 0);
    if (i % 5 == 4) EXPECT_DOUBLE_EQ(s.end_ns, 1910 / cpn());
    if (i % 5) EXPECT_DOUBLE_EQ(s.start_ns, spans[i - 1].end_ns);
  }
}

TEST_P(FourWarpBlock, SummaryAddsUpPhasesWaitsAndCost) {
  MeasuredTimeline t = timeline();
  t.twin_median_ms = 1.1;
  t.real_median_ms = 1.0;
  const TimelineSummary s = summarize_timeline(t);
  EXPECT_DOUBLE_EQ(s.span_ns, 1910 / cpn());
  EXPECT_DOUBLE_EQ(s.block_median_ns, 1910 / cpn());
  EXPECT_DOUBLE_EQ(s.warp_time_sum_ns, 4 * 1910 / cpn());
  EXPECT_DOUBLE_EQ(s.barrier_wait_sum_ns, 1540 / cpn());
  EXPECT_DOUBLE_EQ(s.barrier_wait_share, 1540.0 / 7640.0);
  EXPECT_DOUBLE_EQ(s.instrumentation_cost, 1.1);
  EXPECT_EQ(s.truncated_warps, 0u);
  ASSERT_EQ(s.phase_ns.size(), 3u);
  EXPECT_EQ(s.phase_ns[0].first, "");
  EXPECT_DOUBLE_EQ(s.phase_ns[0].second, 40 / cpn());
  EXPECT_EQ(s.phase_ns[1].first, "load");
  EXPECT_DOUBLE_EQ(s.phase_ns[1].second, (1190 + 1390 + 1790 + 1290 + 40) / cpn());
  EXPECT_EQ(s.phase_ns[2].first, "tree");
  EXPECT_DOUBLE_EQ(s.phase_ns[2].second, 360 / cpn());
  EXPECT_TRUE(timeline_problems(t).empty());
}

INSTANTIATE_TEST_SUITE_P(ClockRates, FourWarpBlock, ::testing::Values(1, 2, 5, 10));

TEST(TimelineAnalysis, CostIsZeroUnlessBothTimesWereMeasured) {
  MeasuredTimeline t = timeline_with({four_warp_block(SmClock{}, 7, 3)});
  t.twin_median_ms = 1.1;
  EXPECT_EQ(summarize_timeline(t).instrumentation_cost, 0);
  t.twin_median_ms = 0;
  t.real_median_ms = 1.0;
  EXPECT_EQ(summarize_timeline(t).instrumentation_cost, 0);
}

TEST(TimelineAnalysis, ATruncatedWarpCountsUpToItsLastKeptMark) {
  MeasuredTimeline t = timeline_with({four_warp_block(SmClock{}, 7, 3)});
  WarpTimeline& w = t.blocks[0].warps[1];
  w.marks.resize(3);  // Start, Phase "load", Arrive at 1400: it ends waiting
  w.truncated = true;
  EXPECT_TRUE(timeline_problems(t).empty());

  int spans_of_warp_1 = 0;
  for (const TimelineSpan& s : timeline_spans(t)) spans_of_warp_1 += s.warp == 1;
  EXPECT_EQ(spans_of_warp_1, 2);
  const auto barriers = barrier_timings(t);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].warps, 4u);
  EXPECT_DOUBLE_EQ(barriers[0].wait_sum_ns, (610 + 10 + 510) / 2.0);
  const TimelineSummary s = summarize_timeline(t);
  EXPECT_EQ(s.truncated_warps, 1u);
  EXPECT_DOUBLE_EQ(s.warp_time_sum_ns, (3 * 1910 + 1400) / 2.0);
  EXPECT_DOUBLE_EQ(s.block_median_ns, 1910 / 2.0);
}

TEST(TimelineAnalysis, BlocksOnTwoSmsLineUpByGlobaltimer) {
  const SmClock sm3{50000, 1000000, 2}, sm7{9000000, 1000300, 2};
  // Blocks 0 and 1 on SM 3, one after the other; block 2 on SM 7, 300 ns after block 0.
  const MeasuredTimeline t = timeline_with(
      {four_warp_block(sm3, 0, 3), four_warp_block(sm3, 1, 3, 2000), four_warp_block(sm7, 2, 7)});
  EXPECT_TRUE(timeline_problems(t).empty());
  const TimelineSummary s = summarize_timeline(t);
  EXPECT_DOUBLE_EQ(s.cycles_per_ns, 2);
  EXPECT_DOUBLE_EQ(s.span_ns, (2000 + 1910) / 2.0);
  EXPECT_DOUBLE_EQ(s.block_median_ns, 1910 / 2.0);

  const auto barriers = barrier_timings(t);
  ASSERT_EQ(barriers.size(), 3u);
  EXPECT_DOUBLE_EQ(barriers[0].first_arrival_ns, 600);
  EXPECT_DOUBLE_EQ(barriers[1].first_arrival_ns, 1000 + 600);
  EXPECT_DOUBLE_EQ(barriers[2].first_arrival_ns, 300 + 600);
  for (const TimelineSpan& span : timeline_spans(t)) {
    const double block_start[3] = {0, 1000, 300};
    EXPECT_GE(span.start_ns, block_start[span.block_slot]);
    EXPECT_LE(span.end_ns, block_start[span.block_slot] + 955);
  }
}

TEST(TimelineAnalysis, AGlobaltimerThatDoesNotAdvanceCannotGiveTheClockRate) {
  MeasuredTimeline t = timeline_with({four_warp_block(SmClock{}, 7, 3)});
  for (WarpTimeline& w : t.blocks[0].warps)
    for (TimelineMark& m : w.marks) m.ns = 42;
  ASSERT_EQ(timeline_problems(t).size(), 1u);
  EXPECT_NE(timeline_problems(t)[0].find("the SM clock rate cannot be read"), std::string::npos);
  EXPECT_THROW(summarize_timeline(t), Error);
}

struct MarksCase {
  const char* name;
  std::function<void(std::vector<TimelineMark>&)> spoil;
  const char* message;
};

class UnreadableMarks : public ::testing::TestWithParam<MarksCase> {};

TEST_P(UnreadableMarks, EveryAnalysisThrowsNamingBlockAndWarp) {
  MeasuredTimeline t = timeline_with({four_warp_block(SmClock{}, 7, 3)});
  GetParam().spoil(t.blocks[0].warps[1].marks);
  const std::string expected = std::string("block slot 0 (block 7), warp 1: ") + GetParam().message;
  const std::function<void()> calls[] = {[&] { timeline_spans(t); }, [&] { barrier_timings(t); },
                                         [&] { summarize_timeline(t); }};
  for (const auto& call : calls) {
    try {
      call();
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  const auto problems = timeline_problems(t);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find(expected), std::string::npos) << problems[0];
}

using Marks = std::vector<TimelineMark>;
INSTANTIATE_TEST_SUITE_P(
    Cases, UnreadableMarks,
    ::testing::Values(
        MarksCase{"ReleaseWithoutArrive", [](Marks& m) { m.erase(m.begin() + 2); },
                  "Release from barrier 0 at mark 2 without an Arrive before it"},
        MarksCase{"ClockBackwards", [](Marks& m) { m[3].clock = m[2].clock - 1; },
                  "clock64 goes backwards at mark 3"},
        MarksCase{"GlobaltimerBackwards", [](Marks& m) { m[4].ns = m[3].ns - 1; },
                  "%globaltimer goes backwards at mark 4"},
        MarksCase{"NoStart", [](Marks& m) { m.erase(m.begin()); },
                  "its first mark is Phase, not Start"},
        MarksCase{"NoMarks", [](Marks& m) { m.clear(); }, "has no marks"},
        MarksCase{"ArriveWithoutRelease", [](Marks& m) { m.erase(m.begin() + 3); },
                  "Arrive at barrier 0 at mark 2 is followed by Phase, not its Release"},
        MarksCase{"NoEndNotTruncated", [](Marks& m) { m.pop_back(); },
                  "ends with Phase, not End, and is not marked truncated"},
        MarksCase{"BarrierOrdinalSkipped", [](Marks& m) { m[2].index = m[3].index = 1; },
                  "Arrive at barrier 1 at mark 2, expected barrier 0"},
        MarksCase{"ReleaseOfAnotherBarrier", [](Marks& m) { m[3].index = 1; },
                  "Release from barrier 1 at mark 3 follows Arrive at barrier 0"},
        MarksCase{"SecondStart", [](Marks& m) { m[1].kind = MarkKind::Start, m[1].phase = ""; },
                  "a second Start at mark 1"},
        MarksCase{"MarkAfterEnd", [](Marks& m) { m.push_back(m.back()); },
                  "a mark comes after End at mark 6"},
        MarksCase{"PhaseWithoutName", [](Marks& m) { m[1].phase = ""; },
                  "Phase at mark 1 has no name"}),
    [](const auto& info) { return std::string(info.param.name); });

struct ProblemCase {
  const char* name;
  std::function<void(MeasuredTimeline&)> spoil;
  const char* message;
};

class TimelineProblems : public ::testing::TestWithParam<ProblemCase> {};

TEST_P(TimelineProblems, SaysWhatIsWrong) {
  MeasuredTimeline t = timeline_with({four_warp_block(SmClock{}, 7, 3)});
  GetParam().spoil(t);
  const auto problems = timeline_problems(t);
  ASSERT_FALSE(problems.empty());
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  EXPECT_NE(all.find(GetParam().message), std::string::npos) << all;
}

using T = MeasuredTimeline;
INSTANTIATE_TEST_SUITE_P(
    Cases, TimelineProblems,
    ::testing::Values(
        ProblemCase{"TooManyBlocks",
                    [](T& t) {
                      t.blocks.clear();
                      for (unsigned b = 0; b <= kTimelineMaxBlocks; ++b)
                        t.blocks.push_back(four_warp_block(SmClock{}, b, 3));
                    },
                    "blocks: 17 recorded, more than the 16 a timeline keeps"},
        ProblemCase{"NoBlocks", [](T& t) { t.blocks.clear(); }, "blocks: no block recorded"},
        ProblemCase{"TooManyMarks",
                    [](T& t) {
                      auto& m = t.blocks[0].warps[0].marks;
                      while (m.size() <= kTimelineMaxMarksPerWarp) m.insert(m.begin() + 1, m[1]);
                    },
                    "block slot 0 (block 7), warp 0: 65 marks, more than the 64 a warp keeps"},
        ProblemCase{"WarpPastTheBlockSize", [](T& t) { t.block_size = 64; },
                    "block slot 0 (block 7), warp 2: past the block size 64 (2 warps)"},
        ProblemCase{"WarpListedTwice", [](T& t) { t.blocks[0].warps[1].warp = 0; },
                    "warps must be listed once each, by warp index"},
        ProblemCase{"BlockPastTheGrid", [](T& t) { t.grid = 7; },
                    "block slot 0 (block 7): block 7 is past the grid of 7 blocks"},
        ProblemCase{"BlockTwice", [](T& t) { t.blocks.push_back(t.blocks[0]); },
                    "block slot 1: block 7 is recorded twice"},
        ProblemCase{"BlockOnAnotherSm", [](T& t) { t.selection = "sm", t.sm = 4; },
                    "block slot 0 (block 7): ran on SM 3, but the timeline records the blocks "
                    "of SM 4"},
        ProblemCase{"UnknownSelection", [](T& t) { t.selection = "some"; },
                    "selection: \"some\" must be \"sm\" or \"blocks\""},
        ProblemCase{"BadBlockSize", [](T& t) { t.block_size = 100; },
                    "block_size: 100 must be a power of two"},
        ProblemCase{"NegativeTwinTime", [](T& t) { t.twin_median_ms = -1; },
                    "twin_median_ms: must be a finite time >= 0"},
        ProblemCase{"CostRuns", [](T& t) { t.cost_runs = 1001; },
                    "cost_runs: 1001 must be from 0 to 1000"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace rl
