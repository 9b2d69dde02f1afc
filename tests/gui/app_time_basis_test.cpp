// The "Time" selector: every chart draws the chosen time (whole reduction, GPU time, first
// kernel), names it, leaves out points without it and says so, computes speed-ups from it with
// the engine's baseline rules; the choice is remembered and can be given on the command line.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFileInfo>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "chart_export.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "session_files.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

rl::Summary summary_of(double median_ms) {
  rl::Summary s;
  s.samples = 10;
  s.median_ms = s.mean_ms = median_ms;
  s.min_ms = median_ms * 0.9;
  s.max_ms = median_ms * 1.2;
  return s;
}

// The sample session (whole: 4, 2, 1, 0.5 wrong, 0.4 ms) with GPU times and first kernels that
// give other speed-ups than the whole reduction: against neighbored, GPU time 3, 4, -, 15 and
// first kernel 1.25, 4, -, 8 (whole: 2, 4, -, 10).
rl::Session session_with_all_times() {
  rl::Session s = test::sample_session();
  const double gpu[] = {3.0, 1.0, 0.75, 0.25, 0.2};
  const double first[] = {2.0, 1.6, 0.5, 0.4, 0.25};
  for (size_t i = 0; i < s.results.size(); ++i) {
    s.results[i].gpu_time = summary_of(gpu[i]);
    s.results[i].first_kernel = summary_of(first[i]);
    s.results[i].first_samples_ms.assign(10, first[i]);
    s.results[i].event_spans = 2;
  }
  return s;
}

const charts::Series& series_named(const charts::Chart& c, const QString& prefix) {
  for (const auto& s : c.series)
    if (s.name.startsWith(prefix)) return s;
  static const charts::Series none;
  ADD_FAILURE() << "no series " << prefix.toStdString();
  return none;
}

double y_at(const charts::Series& s, double x) {
  for (const auto& p : s.points)
    if (p.x == x) return p.y;
  return -1;
}

}  // namespace

TEST(AppTimeBasis, SwitchingTheBasisChangesValuesAndNames) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(session_with_all_times(), "s.json");
  QComboBox* box = w.time_basis_box();
  ASSERT_EQ(box->count(), 3);
  EXPECT_EQ(box->currentText(), "whole reduction");
  auto choose = [&](const QString& text) {
    box->setCurrentIndex(box->findText(text));
    emit box->activated(box->currentIndex());
    w.charts()->refresh_all();
    return w.charts()->chart("time_vs_unroll")->chart();
  };
  charts::Chart c = choose("whole reduction");
  EXPECT_DOUBLE_EQ(y_at(series_named(c, "Unroll"), 2), 1.0);  // ms
  EXPECT_TRUE(c.subtitle.contains("whole reduction, median")) << c.subtitle.toStdString();
  EXPECT_EQ(c.y.title, "time, whole reduction (ms)");

  c = choose("GPU time (timestamps out)");
  EXPECT_EQ(w.store()->time_basis(), TimeBasis::Gpu);
  EXPECT_DOUBLE_EQ(y_at(series_named(c, "Unroll"), 2), 750);  // µs: every GPU time is below 1 ms
  EXPECT_DOUBLE_EQ(y_at(series_named(c, "Unroll"), 8), 200);
  EXPECT_TRUE(c.subtitle.contains("GPU time, median")) << c.subtitle.toStdString();
  EXPECT_FALSE(c.subtitle.contains("whole reduction"));
  EXPECT_EQ(c.y.title, "GPU time (µs)");
  EXPECT_FALSE(c.warnings.join(" ").contains("not drawn")) << c.warnings.join("; ").toStdString();
  // Tooltips still give every number, and say which one is charted.
  const QString tip = series_named(c, "Unroll").points[0].tooltip;
  EXPECT_TRUE(tip.contains("whole reduction: median")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("charted: GPU time, median")) << tip.toStdString();

  const charts::Chart bw = w.charts()->chart("bandwidth_vs_unroll")->chart();
  EXPECT_NEAR(y_at(series_named(bw, "Unroll"), 2), double(1 << 20) * 4 / 0.75e-3 / 1e9, 1e-9);
  EXPECT_TRUE(bw.y.title.contains("GPU time"));

  c = choose("first kernel (the classic ladder's timing)");
  EXPECT_DOUBLE_EQ(y_at(series_named(c, "Unroll"), 2), 500);
  EXPECT_TRUE(c.subtitle.contains("first kernel, median")) << c.subtitle.toStdString();
  EXPECT_EQ(c.y.title, "time, first kernel (µs)");
  const charts::Chart ladder = w.charts()->chart("ladder_time")->chart();
  EXPECT_DOUBLE_EQ(series_named(ladder, "global").points[0].y, 2.0);  // neighbored, ms
  EXPECT_EQ(ladder.y.title, "time, first kernel (ms)");
  EXPECT_TRUE(ladder.subtitle.contains("first kernel, median"));
}

TEST(AppTimeBasis, PointsWithoutTheTimeAreNotDrawnAndTheChartSaysSo) {
  const rl::Session old = test::sample_session();  // no GPU time, like files before it existed
  // The speed-up chart leaves out the wrong point anyway (never a speed-up): 4 of 5 counted.
  for (const auto& [id, count] : {std::pair<QString, int>{"time_vs_unroll", 5},
                                  {"speedup_vs_unroll", 4},
                                  {"ladder_time", 5}}) {
    const charts::Chart c = build_chart(id, {{&old, "Test GPU"}}, "neighbored", TimeBasis::Gpu);
    EXPECT_TRUE(c.empty()) << id.toStdString();
    EXPECT_TRUE(c.warnings.join(" ").contains(
        QString("%1 points have no GPU time (measured before it existed, or on the CPU): not drawn")
            .arg(count)))
        << id.toStdString() << ": " << c.warnings.join("; ").toStdString();
    EXPECT_TRUE(c.empty_hint.contains("no GPU time")) << c.empty_hint.toStdString();
    charts::ChartWidget widget;
    widget.set_chart(c);
    EXPECT_EQ(widget.drawn_points(), 0) << id.toStdString();
  }
  // Beside a session that has it: its points are drawn, the other's counted.
  const rl::Session fresh = session_with_all_times();
  const charts::Chart both =
      build_chart("time_vs_unroll", {{&fresh, "New"}, {&old, "Old"}}, "neighbored", TimeBasis::Gpu);
  ASSERT_EQ(both.series.size(), 1);
  EXPECT_TRUE(both.series[0].name.startsWith("New"));
  EXPECT_TRUE(both.warnings.join(" ").contains("5 points have no GPU time"));
  // The whole reduction is still there for both.
  EXPECT_EQ(
      build_chart("time_vs_unroll", {{&fresh, "New"}, {&old, "Old"}}, "neighbored").series.size(),
      2);
}

// A session written before the GPU time existed: six points of an H200 size sweep recorded by
// commit 0f70bd4 (the file names its device and date), cut down for this test.
TEST(AppTimeBasis, OlderSessionFileWithoutGpuTime) {
  const QString path =
      QFileInfo(QString(__FILE__)).dir().filePath("data/h200-size-sweep-without-gpu-time.json");
  ASSERT_TRUE(QFileInfo::exists(path)) << "no " << path.toStdString();
  QString error;
  std::optional<rl::Session> s = read_session_file(path, &error);
  ASSERT_TRUE(s) << error.toStdString();
  const charts::Chart c =
      build_chart("bandwidth_vs_size", {{&*s, "H200"}}, s->spec.baseline, TimeBasis::Gpu);
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(
      c.warnings.join(" ").contains(QString("%1 points have no GPU time").arg(s->results.size())))
      << c.warnings.join("; ").toStdString();
  EXPECT_FALSE(build_chart("bandwidth_vs_size", {{&*s, "H200"}}, s->spec.baseline).empty());
}

TEST(AppTimeBasis, SpeedupsOnTheGpuBasisComeFromGpuTimes) {
  const rl::Session s = session_with_all_times();
  const charts::Chart whole = build_chart("speedup_vs_unroll", {{&s, ""}}, "neighbored");
  EXPECT_DOUBLE_EQ(y_at(whole.series[0], 8), 10.0);  // 4 / 0.4, the engine's
  const charts::Chart gpu =
      build_chart("speedup_vs_unroll", {{&s, ""}}, "neighbored", TimeBasis::Gpu);
  EXPECT_DOUBLE_EQ(y_at(gpu.series[0], 2), 4.0);   // 3 / 0.75
  EXPECT_DOUBLE_EQ(y_at(gpu.series[0], 8), 15.0);  // 3 / 0.2
  EXPECT_EQ(y_at(gpu.series[0], 4), -1);           // wrong: never a speed-up
  EXPECT_TRUE(gpu.subtitle.contains("GPU time, median against the median of"));
  EXPECT_TRUE(gpu.series[0].points[0].tooltip.contains("speed-up on GPU time vs neighbored: ×4.00"))
      << gpu.series[0].points[0].tooltip.toStdString();
  const charts::Chart first =
      build_chart("speedup_vs_unroll", {{&s, ""}}, "neighbored", TimeBasis::FirstKernel);
  EXPECT_DOUBLE_EQ(y_at(first.series[0], 8), 8.0);  // 2 / 0.25
  // The ladder computes its own cumulative and step speed-ups: from the GPU times too.
  const charts::Chart ladder =
      build_chart("ladder_speedup", {{&s, ""}}, "neighbored", TimeBasis::Gpu);
  ASSERT_EQ(ladder.series.size(), 1);
  EXPECT_DOUBLE_EQ(ladder.series[0].points[1].y, 3.0);  // interleaved: 3 / 1
  EXPECT_DOUBLE_EQ(ladder.series[0].points[4].y, 15.0);
  EXPECT_TRUE(ladder.series[0].points[4].label.contains("step ×3.75"));  // 0.75 -> 0.2
}

TEST(AppTimeBasis, BaselineMatchingFollowsTheEngine) {
  // Baselines in two workspaces and two block sizes; GPU time = whole, so the GUI's speed-ups
  // must be exactly the engine's, point for point.
  rl::Session s;
  const std::uint64_t n = 1 << 20;
  for (rl::Workspace ws : {rl::Workspace::Global, rl::Workspace::Shared})
    for (int block : {256, 1024}) {
      const double scale = (ws == rl::Workspace::Shared ? 2 : 1) * (block == 256 ? 3 : 1);
      s.results.push_back(test::sample_point("neighbored", 1, block, n, 8.0 * scale));
      s.results.back().point.workspace = ws;
      s.results.push_back(test::sample_point("interleaved", 1, block, n, 1.0 * scale));
      s.results.back().point.workspace = ws;
    }
  s.results.push_back(test::sample_point("warp_shuffle", 8, 512, n, 0.5));
  s.results.back().point.workspace = rl::Workspace::Registers;
  s.results.push_back(test::sample_point("interleaved", 1, 256, n * 2, 1.0));  // no baseline
  for (auto& r : s.results) r.gpu_time = r.total;
  rl::compute_speedups(s.results, "neighbored");
  const BasisSpeedups gpu = basis_speedups(s.results, "reduceNeighbored", TimeBasis::Gpu);
  ASSERT_EQ(gpu.value.size(), s.results.size());
  for (size_t i = 0; i < s.results.size(); ++i) {
    ASSERT_EQ(gpu.value[i].has_value(), s.results[i].speedup.has_value()) << i;
    if (gpu.value[i]) EXPECT_DOUBLE_EQ(*gpu.value[i], *s.results[i].speedup) << i;
  }
  EXPECT_FALSE(gpu.value.back());
  // Same workspace and block size: 8 / 1 everywhere.
  EXPECT_DOUBLE_EQ(*gpu.value[1], 8.0);
  EXPECT_DOUBLE_EQ(*gpu.value[7], 8.0);
}

TEST(AppTimeBasis, FirstKernelLeavesOutVariantsWithoutOne) {
  rl::Session s = session_with_all_times();
  s.results.push_back(test::sample_point("cub_device_reduce", 1, 1024, 1 << 20, 0.3));
  s.results.back().point.block_size = 0;  // CUB picks its own
  s.results.back().first_kernel = {};     // CUB times no separate first kernel
  s.results.back().first_samples_ms.clear();
  s.results.push_back(test::sample_point("single_pass", 4, 1024, 1 << 20, 0.35));
  s.results.back().event_spans = 1;  // one kernel: first kernel == whole
  rl::compute_speedups(s.results, "neighbored");
  const charts::Chart c =
      build_chart("ladder_time", {{&s, ""}}, "neighbored", TimeBasis::FirstKernel);
  EXPECT_FALSE(c.x.categories.join(" ").contains("cub")) << c.x.categories.join(" ").toStdString();
  const QString warnings = c.warnings.join("; ");
  EXPECT_TRUE(warnings.contains(
      "1 point has no first-kernel time (cub_device_reduce: no separate first kernel timed): not "
      "drawn"))
      << warnings.toStdString();
  EXPECT_TRUE(warnings.contains("single_pass: one kernel does the whole reduction"))
      << warnings.toStdString();
  // A baseline without the time gives no speed-ups rather than ones against something else.
  const charts::Chart sp =
      build_chart("speedup_vs_unroll", {{&s, ""}}, "cub_device_reduce", TimeBasis::FirstKernel);
  EXPECT_TRUE(sp.empty());
  EXPECT_TRUE(sp.warnings.join(" ").contains("get no speed-up"))
      << sp.warnings.join("; ").toStdString();
}

TEST(AppTimeBasis, BundledSessionHasEveryGpuTime) {
  SessionStore store;
  QString error;
  std::optional<rl::Session> s = read_session_file(":/sessions/h200-ladder.json", &error);
  if (!s) GTEST_SKIP() << "no bundled session in this build";
  store.set_primary(*s, "bundled");
  store.set_time_basis(TimeBasis::Gpu);
  const charts::Chart c =
      build_chart("ladder_time", store.shown(), store.baseline(), store.time_basis());
  EXPECT_TRUE(c.warnings.isEmpty()) << c.warnings.join("; ").toStdString();
  double sum = 0;
  for (const auto& series : c.series)
    for (const auto& p : series.points) sum += p.y;
  double expected = 0;  // every point at the ladder's N (the default: 2^24), in the axis' unit
  const double unit = c.y.title.contains("µs") ? 1000 : 1;
  EXPECT_EQ(c.y.title, QString("GPU time (%1)").arg(unit == 1 ? "ms" : "µs"));
  for (const auto& r : store.primary().results)
    if (r.point.size == 1u << 24) expected += r.gpu_time.median_ms * unit;  // the classic N
  EXPECT_NEAR(sum, expected, 1e-6 * expected);
}

TEST(AppTimeBasis, CommandLineAndSettings) {
  const CommandLine gpu = parse_command_line(
      {"reductionlab", "--open", "s.json", "--export-charts", "out", "--time", "gpu"});
  EXPECT_TRUE(gpu.error.isEmpty()) << gpu.error.toStdString();
  EXPECT_EQ(gpu.time_basis, TimeBasis::Gpu);
  EXPECT_EQ(parse_command_line({"reductionlab", "--time", "first"}).time_basis,
            TimeBasis::FirstKernel);
  EXPECT_FALSE(parse_command_line({"reductionlab", "--open", "s.json"}).time_basis);
  const CommandLine bad = parse_command_line({"reductionlab", "--time", "kernel"});
  EXPECT_EQ(bad.error, "--time 'kernel': expected whole, gpu or first");

  MainWindow::Options options = test::quiet_options();
  options.settings = true;  // test mode: QStandardPaths points at a scratch location
  {
    MainWindow w(options);
    w.store()->set_time_basis(TimeBasis::FirstKernel);
    w.close();
  }
  {
    MainWindow w(options);
    EXPECT_EQ(w.store()->time_basis(), TimeBasis::FirstKernel);
    EXPECT_EQ(w.time_basis_box()->currentText(), "first kernel (the classic ladder's timing)");
    w.store()->set_time_basis(TimeBasis::Whole);  // leave the default for other tests
    w.close();
  }
}
