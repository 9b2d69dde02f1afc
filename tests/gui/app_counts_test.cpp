// Without a GPU the ladder still teaches the right lesson. On a host session (CPU times
// of an emulation) the Ladder page leads with the block model's counts, one bar per rung falling
// from reduceNeighbored to the unrolled rungs, and the CPU times are labelled as CPU times,
// never as GPU speed-ups. A GPU session (the bundled H200 one) gets the count chart beside its
// times, from the model, though the file holds no counts.
#include <gtest/gtest.h>

#include <QComboBox>

#include <QFile>
#include <QLayout>
#include <QScrollArea>
#include <QTabWidget>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "engine/io/export.h"
#include "engine/trace/model_counts.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

struct Rung {
  const char* variant;
  int unroll;
  double cpu_ms;  // CPU times that say the opposite of the GPU
};

// The classic ladder at its set-up, measured on the host backend: reduceNeighboredLess slower
// than reduceNeighbored (x0.47), as CPU times can be.
const Rung kLadder[] = {{"neighbored", 1, 10.0},
                        {"neighbored_less", 1, 21.3},
                        {"interleaved", 1, 12.5},
                        {"unroll", 2, 9.0},
                        {"unroll", 4, 8.0},
                        {"unroll", 8, 7.5},
                        {"unroll_warp_volatile", 8, 7.7},
                        {"complete_unroll_warp_volatile", 8, 9.1},
                        {"complete_unroll_volatile", 8, 7.6}};

rl::Session host_session(bool with_counts) {
  rl::Session s;
  s.tool_version = "test";
  s.device.backend = "host";
  s.device.index = -1;
  s.device.name = "Test CPU";
  s.device.note = "host emulation: times are host CPU times, not GPU times";
  for (const Rung& r : kLadder) {
    rl::PointResult p = test::sample_point(r.variant, r.unroll, 1024, 1u << 24, r.cpu_ms);
    if (with_counts) p.counts = rl::model_counts(p.point);
    s.results.push_back(p);
  }
  rl::compute_speedups(s.results, "neighbored");
  return s;
}

QStringList ids_of(const std::vector<ChartKind>& kinds) {
  QStringList out;
  for (const ChartKind& k : kinds) out << k.id;
  return out;
}

// Where a chart stands on the Ladder page: 0 at the top.
// Among the charts of its page (the Ladder page starts with its Setting row).
int position_of(ChartsPanel* panel, const QString& id) {
  charts::ChartWidget* w = panel->chart(id);
  QLayout* layout = w->parentWidget()->layout();
  int position = 0;
  for (int i = 0; i < layout->indexOf(w); ++i)
    if (qobject_cast<charts::ChartWidget*>(layout->itemAt(i)->widget())) ++position;
  return position;
}

}  // namespace

TEST(AppCounts, CountChartHasOneBarPerRungFallingAlongTheLadder) {
  for (bool stored : {true, false}) {  // counts from the file, or from the model (old sessions)
    SCOPED_TRACE(stored ? "counts stored" : "counts from the model");
    const rl::Session s = host_session(stored);
    const charts::Chart c = build_chart("ladder_counts", {{&s, ""}}, "neighbored");
    EXPECT_EQ(c.title, "Ladder: barriers and lane efficiency per rung");
    const int rungs = int(std::size(kLadder));
    ASSERT_EQ(c.x.categories.size(), rungs);
    EXPECT_EQ(c.x.categories.front(), "Neighbored");
    ASSERT_EQ(c.series.size(), 1);
    EXPECT_EQ(c.series[0].kind, charts::SeriesKind::Bars);
    const auto& bars = c.series[0].points;
    ASSERT_EQ(bars.size(), rungs);
    for (int k = 0; k < rungs; ++k) EXPECT_EQ(bars[k].x, k);
    // The classic ladder's numbers, in thousands on the axis and whole on the bar.
    EXPECT_EQ(c.y.title, "barriers (k)");
    EXPECT_DOUBLE_EQ(bars[0].y, 163.84);
    EXPECT_TRUE(bars[0].label.startsWith("163,840\n")) << bars[0].label.toStdString();
    EXPECT_TRUE(bars[0].label.endsWith("% lanes")) << bars[0].label.toStdString();
    EXPECT_TRUE(bars[3].label.startsWith("90,112\n")) << bars[3].label.toStdString();
    // Never rising along the ladder, and falling from reduceNeighbored to every unrolled rung.
    for (int k = 1; k < rungs; ++k) EXPECT_LE(bars[k].y, bars[k - 1].y) << k;
    for (int k = 3; k < rungs; ++k) EXPECT_LT(bars[k].y, bars[0].y) << k;
    EXPECT_DOUBLE_EQ(bars[6].y, 10.24);  // reduceUnrollWarp8: 12288 fewer than reduceUnroll8
    // Lane efficiency: reduceNeighbored issues six lanes for each that works.
    EXPECT_TRUE(bars[0].label.contains("17% lanes")) << bars[0].label.toStdString();
    EXPECT_TRUE(
        bars[0].tooltip.contains("barriers (__syncthreads()): 163,840 = 16,384 blocks × 10"))
        << bars[0].tooltip.toStdString();
    EXPECT_TRUE(bars[0].tooltip.contains("lane efficiency")) << bars[0].tooltip.toStdString();
    EXPECT_TRUE(c.subtitle.contains("what a GPU would execute")) << c.subtitle.toStdString();
    charts::ChartWidget widget;
    widget.set_chart(c);
    EXPECT_EQ(widget.drawn_points(), rungs);
  }
}

TEST(AppCounts, HostSessionSpeedupsSayCpuTimes) {
  const rl::Session s = host_session(true);
  const charts::Chart speedup = build_chart("ladder_speedup", {{&s, ""}}, "neighbored");
  EXPECT_TRUE(speedup.title.contains("CPU-time ratios")) << speedup.title.toStdString();
  EXPECT_TRUE(speedup.title.contains("not GPU speed-ups")) << speedup.title.toStdString();
  EXPECT_TRUE(speedup.y.title.startsWith("CPU ratio")) << speedup.y.title.toStdString();
  EXPECT_TRUE(speedup.subtitle.contains("CPU times")) << speedup.subtitle.toStdString();
  ASSERT_EQ(speedup.series.size(), 1);
  const auto& bars = speedup.series[0].points;
  ASSERT_EQ(bars.size(), int(std::size(kLadder)));
  EXPECT_TRUE(bars[1].tooltip.contains("CPU-time ratio (host emulation, not a GPU speed-up)"))
      << bars[1].tooltip.toStdString();
  EXPECT_FALSE(bars[1].tooltip.contains("step speed-up")) << bars[1].tooltip.toStdString();
  // The tooltips carry the model's counts too.
  EXPECT_TRUE(bars[1].tooltip.contains("163840 barriers")) << bars[1].tooltip.toStdString();

  const charts::Chart time = build_chart("ladder_time", {{&s, ""}}, "neighbored");
  EXPECT_TRUE(time.title.contains("CPU time")) << time.title.toStdString();
  EXPECT_TRUE(time.y.title.startsWith("CPU time")) << time.y.title.toStdString();

  const charts::Chart sweep = build_chart("speedup_vs_unroll", {{&s, ""}}, "neighbored");
  EXPECT_TRUE(sweep.title.contains("not a GPU speed-up")) << sweep.title.toStdString();
  EXPECT_TRUE(sweep.y.title.startsWith("CPU ratio")) << sweep.y.title.toStdString();

  // A GPU session keeps its speed-ups.
  const rl::Session gpu = test::sample_session();
  const charts::Chart g = build_chart("ladder_speedup", {{&gpu, ""}}, "neighbored");
  EXPECT_EQ(g.title, "The ladder: what each step buys");
  EXPECT_EQ(g.y.title, "cumulative speed-up (×)");
}

TEST(AppCounts, LadderLeadsWithTheCountsOnTheHostOnly) {
  const rl::Session host = host_session(true);
  const rl::Session gpu = test::sample_session();
  const QStringList on_host = ids_of(chart_kinds_for({{&host, ""}}));
  ASSERT_GE(on_host.size(), 3);
  EXPECT_EQ(on_host.mid(0, 3), (QStringList{"ladder_counts", "ladder_speedup", "ladder_time"}));
  // One session: every chart but the comparison of two.
  EXPECT_EQ(on_host.size(), int(chart_kinds().size()) - 2);
  QStringList all_but_compare = ids_of(chart_kinds());
  all_but_compare.removeAll("ladder_compare");
  all_but_compare.removeAll("ladder_compare_diff");
  EXPECT_EQ(ids_of(chart_kinds_for({{&gpu, ""}})), all_but_compare);
  EXPECT_EQ(ids_of(chart_kinds_for({{&gpu, ""}, {&host, "CPU"}})), ids_of(chart_kinds()));

  MainWindow w(test::quiet_options());
  w.show();
  w.store()->set_primary(host, "host.json");
  QCoreApplication::processEvents();
  ChartsPanel* panel = w.charts();
  QWidget* ladder_page = panel->pages().front().second;
  ASSERT_EQ(panel->pages().front().first, "Ladder");
  EXPECT_EQ(panel->first_chart_on(ladder_page), "ladder_counts");
  EXPECT_EQ(position_of(panel, "ladder_counts"), 0);
  EXPECT_EQ(position_of(panel, "ladder_speedup"), 1);
  EXPECT_EQ(position_of(panel, "ladder_time"), 2);
  panel->refresh_all();
  EXPECT_EQ(panel->chart("ladder_counts")->drawn_points(), int(std::size(kLadder)));
  // Full width, two to a screen: each as tall as half the page, at least 380 px and at least
  // what the chart asks for its names (scroll for the rest).
  w.resize(1366, 768);
  w.tabs()->setCurrentWidget(ladder_page);
  QCoreApplication::processEvents();
  const int page_height = static_cast<QScrollArea*>(ladder_page)->viewport()->height();
  const int row = w.findChild<QComboBox*>("ladder_setting")->parentWidget()->sizeHint().height();
  for (const char* id : {"ladder_counts", "ladder_speedup", "ladder_time"})
    EXPECT_EQ(panel->chart(id)->height(), std::max({380, panel->chart(id)->wanted_height(),
                                                    (page_height - 4 - 4 - 6 - row - 6) / 2}))
        << id;
  EXPECT_GE(panel->chart("ladder_counts")->width(), ladder_page->width() - 40);

  // A GPU session: the speed-up leads, the time below it as before, the counts beside the time.
  w.store()->set_primary(gpu, "gpu.json");
  QCoreApplication::processEvents();
  EXPECT_EQ(panel->first_chart_on(ladder_page), "ladder_speedup");
  EXPECT_EQ(position_of(panel, "ladder_speedup"), 0);
  EXPECT_EQ(position_of(panel, "ladder_time"), 1);
  EXPECT_EQ(position_of(panel, "ladder_counts"), 2);
}

// The bundled H200 session holds no counts: the model gives them, so "fewer barriers" sits
// beside "less time" for its points too.
TEST(AppCounts, BundledGpuSessionGetsCountsFromTheModel) {
  QFile f(":/sessions/h200-ladder.json");
  if (!f.open(QIODevice::ReadOnly)) GTEST_SKIP() << "no bundled session in this build";
  const rl::Session s = rl::session_from_json(f.readAll().toStdString());
  ASSERT_EQ(s.device.backend, "cuda");
  // At 2^28 (the default is the classic 2^24).
  const charts::Chart c =
      build_chart("ladder_counts", {{&s, ""}}, "neighbored", TimeBasis::Whole,
                  rl::LadderSetting{std::uint64_t(1) << 28, rl::DType::Int32, 1024, 0});
  ASSERT_FALSE(c.empty()) << c.empty_hint.toStdString();
  EXPECT_FALSE(c.subtitle.contains("what a GPU would execute"));
  EXPECT_TRUE(c.subtitle.contains("H200")) << c.subtitle.toStdString();
  ASSERT_GE(c.x.categories.size(), 9);
  EXPECT_EQ(c.x.categories.front(), "Neighbored");
  // The global workspace's bars fall from the first rung (reduceNeighbored) to the unrolled ones.
  const auto& global = c.series[0].points;
  ASSERT_GE(global.size(), 6);
  EXPECT_EQ(global[0].x, 0);
  const int unroll8 = int(c.x.categories.indexOf("Unroll8"));
  ASSERT_GE(unroll8, 0);
  for (const auto& p : global)
    if (p.x == unroll8) EXPECT_LT(p.y, global[0].y / 4);
  // Several workspaces: short counts on the bars, exact counts and lanes in the tooltips.
  EXPECT_EQ(global[0].label, "2.62M");
  EXPECT_TRUE(global[0].tooltip.contains("lane efficiency: 17%"))
      << global[0].tooltip.toStdString();
  EXPECT_TRUE(global[0].tooltip.contains("2,621,440")) << global[0].tooltip.toStdString();
  EXPECT_EQ(c.y.title, "barriers (M)");  // 2,621,440 at 2^28
  EXPECT_DOUBLE_EQ(global[0].y, 2.62144);
  // The kernels past the classic ladder without a block model are named, not drawn, and are no
  // error.
  EXPECT_TRUE(c.subtitle.contains("not drawn (no block model): cub_device_reduce"))
      << c.subtitle.toStdString();
  EXPECT_TRUE(c.warnings.isEmpty()) << c.warnings.join(" ").toStdString();
}
