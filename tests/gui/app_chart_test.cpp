// What the charts say: step and cumulative speed-ups on the ladder, wrong results never drawn
// as speed-ups, log axes without values <= 0, overlays named by device, roof lines, baseline.
#include <gtest/gtest.h>

#include <QRegularExpression>

#include "app_sample_session.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "session_store.h"

using namespace rl::gui;
using charts::SeriesKind;

TEST(AppCharts, LadderShowsCumulativeAndStepSpeedups) {
  const rl::Session s = test::sample_session();
  const charts::Chart c = build_chart("ladder_speedup", {{&s, "Test GPU"}}, "neighbored");
  ASSERT_EQ(c.x.categories.size(), 5);
  EXPECT_EQ(c.x.categories[0], "Neighbored");  // the classic names without "reduce"
  EXPECT_EQ(c.x.categories[3], "Unroll4");
  ASSERT_EQ(c.series.size(), 1);
  const auto& pts = c.series[0].points;
  ASSERT_EQ(pts.size(), 5);
  EXPECT_DOUBLE_EQ(pts[1].y, 2.0);  // 4 ms -> 2 ms
  EXPECT_TRUE(pts[1].label.contains("×2.00"));
  EXPECT_TRUE(pts[2].label.contains("step ×2.00"));
  // The wrong rung: flagged, no bar height, never a speed-up.
  EXPECT_TRUE(pts[3].wrong);
  EXPECT_EQ(pts[3].y, 0);
  EXPECT_EQ(pts[3].label, "wrong");
  EXPECT_FALSE(pts[3].tooltip.contains("cumulative"));
  // The next rung steps from the last correct one (1 ms -> 0.4 ms).
  EXPECT_DOUBLE_EQ(pts[4].y, 10.0);
  EXPECT_TRUE(pts[4].label.contains("step ×2.50"));
  EXPECT_TRUE(c.warnings.join(" ").contains("wrong"));
}

TEST(AppCharts, WrongResultsAreMarkedButNeverASpeedup) {
  const rl::Session s = test::sample_session();
  const charts::Chart time = build_chart("time_vs_unroll", {{&s, "Test GPU"}}, "neighbored");
  ASSERT_EQ(time.series.size(), 1);  // only "unroll" has two or more unroll factors
  int wrong = 0;
  for (const auto& p : time.series[0].points) wrong += p.wrong;
  EXPECT_EQ(wrong, 1);
  const charts::Chart speedup = build_chart("speedup_vs_unroll", {{&s, "Test GPU"}}, "neighbored");
  ASSERT_EQ(speedup.series.size(), 1);
  for (const auto& p : speedup.series[0].points) {
    EXPECT_FALSE(p.wrong);
    EXPECT_NE(p.x, 4.0) << "the wrong point was drawn as a speed-up";
  }
  EXPECT_TRUE(speedup.warnings.join(" ").contains("wrong result, no speed-up: reduceUnroll4"));
  charts::ChartWidget widget;
  widget.set_chart(time);
  EXPECT_EQ(widget.drawn_points(), 3);  // two on the line, one red marker
}

TEST(AppCharts, LogAxisLeavesOutValuesAtOrBelowZero) {
  charts::Chart c;
  c.id = "test";
  c.title = "decades";
  c.x.scale = charts::AxisScale::Log2;
  c.y.scale = charts::AxisScale::Auto;
  charts::Series s;
  s.name = "values";
  for (double x : {1.0, 2.0, 4.0, 8.0}) {
    charts::Point p;
    p.x = x;
    p.y = x == 2.0 ? 0.0 : x * x * x * 100;  // 100 .. 51200: log scale; one zero
    s.points.append(p);
  }
  c.series.append(s);
  charts::ChartWidget widget;
  widget.set_chart(c);
  EXPECT_EQ(widget.drawn_points(), 3);
  EXPECT_TRUE(widget.grab_image().width() > 0);
}

TEST(AppCharts, BandwidthHasRoofsAndOverlaysAreNamedByDevice) {
  rl::Session a = test::sample_session("NVIDIA H200");
  rl::Session b = test::sample_session("NVIDIA A100");
  for (auto& r : b.results) r.total.median_ms *= 2;
  // a: only the device's read floor (at 1 GiB); b: the floor at the chart's own N as well.
  a.device.measured_read_gbps = 900;
  a.device.read_floor_bytes = std::uint64_t(1) << 30;
  b.device.measured_read_gbps = 700;
  b.device.read_floor_bytes = std::uint64_t(1) << 30;
  rl::ReadFloor floor;
  floor.bytes = std::uint64_t(4) << 20;  // the sample's N = 2^20 int32
  floor.time.samples = 5;
  floor.time.median_ms = 0.0125;  // 335.5 GB/s
  b.read_floors.push_back(floor);
  SessionStore store;
  store.set_primary(a, "a.json");
  store.add_overlay(b);
  const charts::Chart c = build_chart("bandwidth_vs_unroll", store.shown(), store.baseline());
  int roofs = 0, lines = 0, dashed = 0;
  QStringList roof_names;
  for (const auto& s : c.series) {
    roofs += s.kind == SeriesKind::Roof;
    if (s.kind == SeriesKind::Roof) roof_names << s.name;
    if (s.kind == SeriesKind::Line) {
      ++lines;
      dashed += s.dashed;
      EXPECT_TRUE(s.name.startsWith("H200") || s.name.startsWith("A100")) << s.name.toStdString();
    }
  }
  EXPECT_EQ(roofs, 4) << roof_names.join(" | ").toStdString();  // theoretical and read floor
  // A copy reads and writes: information, never a roof.
  EXPECT_TRUE(roof_names.filter("copy").isEmpty()) << roof_names.join(" | ").toStdString();
  EXPECT_EQ(roof_names.filter(QRegularExpression("^H200 read floor at 1.0 GiB 900")).size(), 1)
      << roof_names.join(" | ").toStdString();
  EXPECT_EQ(roof_names.filter(QRegularExpression("^A100 read floor at this N 33[56]")).size(), 1)
      << roof_names.join(" | ").toStdString();
  EXPECT_EQ(lines, 2);
  EXPECT_EQ(dashed, 1);
  EXPECT_TRUE(c.subtitle.contains("H200 vs A100")) << c.subtitle.toStdString();
}

TEST(AppCharts, ChangingTheBaselineRecomputesSpeedups) {
  SessionStore store;
  store.set_primary(test::sample_session(), "s.json");
  auto speedup_of = [&](const std::string& v, int u) {
    for (const auto& r : store.primary().results)
      if (r.point.variant == v && r.point.unroll == u) return r.speedup.value_or(-1);
    return -2.0;
  };
  EXPECT_DOUBLE_EQ(speedup_of("interleaved", 1), 2.0);
  store.set_baseline("interleaved");
  EXPECT_DOUBLE_EQ(speedup_of("interleaved", 1), 1.0);
  EXPECT_DOUBLE_EQ(speedup_of("unroll", 8), 5.0);
  EXPECT_EQ(speedup_of("unroll", 4), -1);  // wrong: no speed-up
  const charts::Chart c = build_chart("ladder_speedup", store.shown(), store.baseline());
  EXPECT_DOUBLE_EQ(c.series[0].points[1].y, 1.0);
}

TEST(AppCharts, EmptySessionsGiveHintsNotData) {
  for (const ChartKind& k : chart_kinds()) {
    const charts::Chart c = build_chart(k.id, {}, "neighbored");
    EXPECT_TRUE(c.empty()) << k.id.toStdString();
    EXPECT_FALSE(c.empty_hint.isEmpty()) << k.id.toStdString();
  }
}

namespace rl::gui {
namespace {

// The size charts draw the read floor against N where the session measured it: the least that
// reading N elements costs, beside what each variant costs.
TEST(AppCharts, SizeChartsDrawTheReadFloorCurve) {
  rl::Session s = test::sample_session();
  s.results.clear();
  for (int k = 16; k <= 20; k += 2) {
    const std::uint64_t n = std::uint64_t(1) << k;
    s.results.push_back(test::sample_point("neighbored", 1, 1024, n, 0.01 * (1 << (k - 16))));
    rl::ReadFloor f;
    f.bytes = n * 4;
    f.shape = "B=256 U=1 grid=64";
    f.time.samples = 9;
    f.time.median_ms = 0.002 * (1 << (k - 16));
    s.read_floors.push_back(f);
  }
  SessionStore store;
  store.set_primary(s, "s.json");
  for (const char* id : {"time_vs_size", "bandwidth_vs_size"}) {
    const charts::Chart c = build_chart(id, store.shown(), store.baseline());
    const charts::Series* floor = nullptr;
    for (const auto& series : c.series)
      if (series.name.startsWith("read floor")) floor = &series;
    ASSERT_NE(floor, nullptr) << id;
    ASSERT_EQ(floor->points.size(), 3) << id;
    EXPECT_EQ(floor->points[0].x, 65536.0) << id;
    EXPECT_TRUE(floor->points[0].tooltip.contains("B=256 U=1")) << id;
    if (QString(id) == "time_vs_size")
      EXPECT_NEAR(floor->points[0].y, 2.0, 1e-9);  // µs
    else
      EXPECT_NEAR(floor->points[0].y, 65536.0 * 4 / 2e-6 / 1e9, 1e-6);  // GB/s
  }
}

}  // namespace
}  // namespace rl::gui
