// The counter charts beside the time charts: barrier stall against the unroll factor and
// the block size (the engine's sweeps, engine/views/counter_series.h, drawn), and the model's
// barriers beside the measured stall per rung, from the bundled H200 session; a session without
// them says how to get them.
#include <gtest/gtest.h>

#include <QFile>

#include <algorithm>

#include "app_sample_session.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "session_files.h"

using namespace rl::gui;

namespace {

std::optional<rl::Session> bundled() {
  QString error;
  if (!QFile::exists(":/sessions/h200-ladder.json")) return std::nullopt;
  return read_session_file(":/sessions/h200-ladder.json", &error);
}

const ChartKind* kind(const QString& id) {
  const auto& all = chart_kinds();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const ChartKind& k) { return k.id == id; });
  return it == all.end() ? nullptr : &*it;
}

}  // namespace

TEST(AppCounterCharts, EachLivesOnItsPage) {
  ASSERT_TRUE(kind("stall_vs_unroll"));
  EXPECT_EQ(kind("stall_vs_unroll")->group, "Unroll");
  ASSERT_TRUE(kind("stall_vs_block"));
  EXPECT_EQ(kind("stall_vs_block")->group, "Block size");
  ASSERT_TRUE(kind("ladder_barriers_stall"));
  EXPECT_EQ(kind("ladder_barriers_stall")->group, "Ladder");
}

TEST(AppCounterCharts, BarrierStallAgainstUnrollFromTheBundledSession) {
  const std::optional<rl::Session> h200 = bundled();
  if (!h200) GTEST_SKIP() << "no bundled session here";
  const charts::Chart c = build_chart("stall_vs_unroll", {{&*h200, ""}}, "neighbored");
  ASSERT_TRUE(c.empty_hint.isEmpty()) << c.empty_hint.toStdString();
  ASSERT_EQ(c.series.size(), 2);  // the session ran both workspaces
  EXPECT_EQ(c.series[0].name, "Unroll · global");
  EXPECT_EQ(c.series[1].name, "Unroll · shared");
  ASSERT_EQ(c.series[0].points.size(), 3);  // U = 2, 4, 8
  EXPECT_EQ(c.series[0].points[0].x, 2);
  EXPECT_GT(c.series[0].points[0].y, c.series[0].points[2].y);  // less stall as U grows
  EXPECT_TRUE(c.subtitle.contains("B=1024")) << c.subtitle.toStdString();
  EXPECT_TRUE(c.subtitle.contains("H200")) << c.subtitle.toStdString();
  EXPECT_TRUE(c.series[0].points[0].tooltip.contains("barrier_stall"))
      << c.series[0].points[0].tooltip.toStdString();
  EXPECT_TRUE(c.series[0].points[0].source.has_value());  // a click shows its code
  // The Ladder's setting is followed where it holds a sweep.
  const charts::Chart at16 =
      build_chart("stall_vs_unroll", {{&*h200, ""}}, "neighbored", TimeBasis::Whole,
                  rl::LadderSetting{1u << 16, rl::DType::Int32, 1024, 0});
  EXPECT_TRUE(at16.subtitle.contains("N=2^16")) << at16.subtitle.toStdString();
}

TEST(AppCounterCharts, WithoutSuchPointsTheChartSaysHowToGetThem) {
  const std::optional<rl::Session> h200 = bundled();
  if (!h200) GTEST_SKIP() << "no bundled session here";
  // The bundled session holds one block size.
  const charts::Chart block = build_chart("stall_vs_block", {{&*h200, ""}}, "neighbored");
  EXPECT_TRUE(block.empty());
  EXPECT_TRUE(block.empty_hint.contains("reductionlab-cli run --preset block-sizes --counters"))
      << block.empty_hint.toStdString();
  // A session without counters (the sample has an unroll sweep, timed only).
  const rl::Session plain = test::sample_session("NVIDIA A100");
  const charts::Chart unroll = build_chart("stall_vs_unroll", {{&plain, ""}}, "neighbored");
  EXPECT_TRUE(unroll.empty());
  EXPECT_TRUE(unroll.empty_hint.contains("No hardware counters"))
      << unroll.empty_hint.toStdString();
  EXPECT_TRUE(unroll.empty_hint.contains("--preset unroll --counters"));
  const charts::Chart rungs = build_chart("ladder_barriers_stall", {{&plain, ""}}, "neighbored");
  EXPECT_TRUE(rungs.empty());
  EXPECT_TRUE(rungs.empty_hint.contains("--counters")) << rungs.empty_hint.toStdString();
}

TEST(AppCounterCharts, ModelBarriersBesideMeasuredStallPerRung) {
  const std::optional<rl::Session> h200 = bundled();
  if (!h200) GTEST_SKIP() << "no bundled session here";
  const charts::Chart c = build_chart("ladder_barriers_stall", {{&*h200, ""}}, "neighbored");
  ASSERT_TRUE(c.empty_hint.isEmpty()) << c.empty_hint.toStdString();
  ASSERT_EQ(c.series.size(), 2);
  // What is drawn, named: the exact count and the measurement with its GPU.
  EXPECT_TRUE(c.series[0].name.contains("block model")) << c.series[0].name.toStdString();
  EXPECT_TRUE(c.series[0].name.contains("exact"));
  EXPECT_TRUE(c.series[1].name.contains("measured on H200")) << c.series[1].name.toStdString();
  EXPECT_EQ(c.series[0].points.size(), c.x.categories.size());
  EXPECT_EQ(c.series[1].points.size(), c.x.categories.size());
  EXPECT_EQ(c.x.categories.front(), "Neighbored");
  // CUB has counters but no block model: named, not drawn.
  EXPECT_TRUE(c.subtitle.contains("not drawn: cub_device_reduce: no block model"))
      << c.subtitle.toStdString();
  double most_barriers = 0, most_stall = 0;
  for (int i = 0; i < c.series[0].points.size(); ++i) {
    most_barriers = std::max(most_barriers, c.series[0].points[i].y);
    most_stall = std::max(most_stall, c.series[1].points[i].y);
    EXPECT_FALSE(c.series[0].points[i].label.isEmpty());
    EXPECT_TRUE(c.series[1].points[i].label.endsWith('%'));
  }
  EXPECT_DOUBLE_EQ(most_barriers, 100);
  EXPECT_DOUBLE_EQ(most_stall, 100);
  EXPECT_TRUE(c.series[0].points[0].tooltip.contains("the same on any GPU"));
  // Drawn, with every point.
  charts::ChartWidget w;
  w.resize(1200, 700);
  w.set_chart(c);
  EXPECT_EQ(w.drawn_points(), 2 * int(c.x.categories.size()));
}
