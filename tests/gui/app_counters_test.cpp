// The measured hardware counters in the app. A GPU session run with --counters gets a
// "barrier stall per rung" chart on the Ladder page (the classic ladder's table, as bars), a
// barrier-stall column in the results table, and every counter in the point tooltips; a session
// without counters says how to get them.
#include <gtest/gtest.h>

#include <QFile>

#include "app_sample_session.h"
#include "charts/chart_builders.h"
#include "counters_text.h"
#include "engine/io/export.h"
#include "format.h"
#include "results_model.h"

using namespace rl::gui;

namespace {

constexpr const char* kStall = "smsp__warp_issue_stalled_barrier_per_warp_active.pct";

struct Rung {
  const char* variant;
  int unroll;
  double stall;  // an H200 run of 2026-11-30
};
const Rung kLadder[] = {{"neighbored", 1, 19.73},
                        {"interleaved", 1, 44.36},
                        {"unroll", 8, 27.64},
                        {"unroll_warp_volatile", 8, 22.81},
                        {"complete_unroll_volatile", 8, 22.5}};

rl::Session gpu_session(bool with_counters) {
  rl::Session s;
  s.device.backend = "cuda";
  s.device.index = 0;
  s.device.name = "NVIDIA H200";
  for (const Rung& r : kLadder) {
    rl::PointResult p = test::sample_point(r.variant, r.unroll, 1024, 1u << 24, 0.1);
    if (with_counters) {
      rl::PointCounters c;
      c.passes = 4;
      c.kernels.push_back({"first_kernel", {{kStall, r.stall}}});
      c.kernels.push_back({"finish", {{kStall, 12.0}}});
      p.counters = c;
    }
    s.results.push_back(p);
  }
  return s;
}

}  // namespace

TEST(AppCounters, BarrierStallChartHasOneBarPerRung) {
  const rl::Session s = gpu_session(true);
  const charts::Chart c = build_chart("ladder_barrier_stall", {{&s, ""}}, "neighbored");
  EXPECT_TRUE(c.empty_hint.isEmpty()) << c.empty_hint.toStdString();
  ASSERT_EQ(c.series.size(), 1);
  ASSERT_EQ(c.series.front().points.size(), int(std::size(kLadder)));
  EXPECT_EQ(c.x.categories.size(), int(std::size(kLadder)));
  for (int i = 0; i < int(std::size(kLadder)); ++i) {
    EXPECT_DOUBLE_EQ(c.series.front().points[i].y, kLadder[i].stall);
    EXPECT_TRUE(c.series.front().points[i].tooltip.contains("barrier_stall"));
  }
  EXPECT_EQ(c.series.front().points[1].label.toStdString(), "44.4%");
}

TEST(AppCounters, WithoutCountersTheChartSaysHowToGetThem) {
  const rl::Session s = gpu_session(false);
  const charts::Chart c = build_chart("ladder_barrier_stall", {{&s, ""}}, "neighbored");
  EXPECT_TRUE(c.empty_hint.contains("--counters")) << c.empty_hint.toStdString();
}

TEST(AppCounters, TableColumnAndTooltipsCarryTheCounters) {
  const rl::Session s = gpu_session(true);
  ResultsModel model;
  model.set_session(std::make_shared<const rl::Session>(s), "neighbored");
  const QModelIndex cell = model.index(1, ResultsModel::BarrierStall);
  EXPECT_EQ(model.data(cell, Qt::DisplayRole).toString().toStdString(), "44.4%");
  EXPECT_DOUBLE_EQ(model.data(cell, ResultsModel::SortRole).toDouble(), 44.36);
  const QString tip = model.data(cell, Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains("hardware counters")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("finish")) << tip.toStdString();
  const rl::Session none = gpu_session(false);
  EXPECT_FALSE(barrier_stall(none.results.front()).has_value());
  EXPECT_TRUE(counters_text(none.results.front()).isEmpty());
}

// The counter pass's repeats: a barrier stall whose profiled launches differ by more than 2
// points is marked unsteady in the table, on its bar (with the subtitle saying what "~" means)
// and in the tooltip, where its range stands beside the median.
TEST(AppCounters, UnsteadyCountersAreMarkedWhereTheyAreShown) {
  rl::Session s = gpu_session(true);
  for (rl::PointResult& r : s.results) r.counters->repeats = 3;
  s.results[1].counters->kernels[0].ranges = {{kStall, {40.1, 47.9}}};  // unsteady
  s.results[2].counters->kernels[0].ranges = {{kStall, {27.1, 28.0}}};  // steady
  ResultsModel model;
  model.set_session(std::make_shared<const rl::Session>(s), "neighbored");
  EXPECT_EQ(model.data(model.index(1, ResultsModel::BarrierStall), Qt::DisplayRole)
                .toString()
                .toStdString(),
            "44.4% unsteady");
  EXPECT_EQ(model.data(model.index(2, ResultsModel::BarrierStall), Qt::DisplayRole)
                .toString()
                .toStdString(),
            "27.6%");
  const QString tip =
      model.data(model.index(1, ResultsModel::BarrierStall), Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains("median of 3 profiled launches")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("barrier_stall 44.4% (40.1%..47.9%, unsteady)")) << tip.toStdString();
  const charts::Chart c = build_chart("ladder_barrier_stall", {{&s, ""}}, "neighbored");
  ASSERT_EQ(c.series.size(), 1);
  EXPECT_EQ(c.series.front().points[1].label.toStdString(), "44.4%~");
  EXPECT_EQ(c.series.front().points[2].label.toStdString(), "27.6%");
  EXPECT_TRUE(c.subtitle.contains("~ unsteady")) << c.subtitle.toStdString();
  // All steady: no mark, no word in the subtitle.
  s.results[1].counters->kernels[0].ranges = {{kStall, {44.0, 44.9}}};
  EXPECT_FALSE(
      build_chart("ladder_barrier_stall", {{&s, ""}}, "neighbored").subtitle.contains("~"));
}

// The stall reasons stacked per rung, from the bundled H200 session's counters: the
// barrier layer is the classic ladder's metric and shrinks from reduceNeighboredLess to the
// unrolled rungs.
TEST(AppCounters, StallReasonsStackPerRungFromTheBundledSession) {
  QFile f(":/sessions/h200-ladder.json");
  if (!f.open(QIODevice::ReadOnly)) GTEST_SKIP() << "no bundled session in this build";
  const rl::Session s = rl::session_from_json(f.readAll().toStdString());
  const charts::Chart c = build_chart("ladder_stall_reasons", {{&s, ""}}, "neighbored");
  ASSERT_FALSE(c.empty()) << c.empty_hint.toStdString();
  EXPECT_TRUE(c.stacked);
  ASSERT_EQ(c.series.size(), 6);
  EXPECT_EQ(c.series[0].name, "barrier (__syncthreads)");
  EXPECT_TRUE(c.subtitle.contains("N=2^24")) << c.subtitle.toStdString();
  const int less = int(c.x.categories.indexOf("NeighboredLess"));
  const int unroll8 = int(c.x.categories.indexOf("Unroll8"));
  ASSERT_GE(less, 0);
  ASSERT_GE(unroll8, 0);
  double at_less = -1, at_unroll8 = -1;
  for (const charts::Point& p : c.series[0].points) {
    if (int(p.x) == less) at_less = p.y;
    if (int(p.x) == unroll8) at_unroll8 = p.y;
    EXPECT_TRUE(p.tooltip.contains("barrier (__syncthreads): ")) << p.tooltip.toStdString();
    EXPECT_TRUE(p.label.isEmpty());  // stacked: values in the tooltips
  }
  EXPECT_GT(at_less, at_unroll8);
  // A session without counters says how to get them.
  const rl::Session none;
  EXPECT_TRUE(build_chart("ladder_stall_reasons", {{&none, ""}}, "neighbored").empty());
}
