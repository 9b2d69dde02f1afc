// The Code tab: source with phases, the diff from the previous rung, SASS with its
// counts and the resources, for every catalog variant; a results row selects what it shows.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QFontInfo>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "code_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/code/code_view.h"
#include "main_window.h"
#include "results_table.h"
#include "session_store.h"

using namespace rl::gui;

TEST(AppCodeView, ShowsSourceDiffSassAndResourcesForEveryVariant) {
  CodePanel panel;
  for (const rl::VariantInfo& v : rl::catalog()) {
    panel.show_variant(QString::fromStdString(v.id));
    const rl::code::CodeEntry& e = panel.entry();
    ASSERT_NE(e.variant, nullptr) << v.id << ": " << e.missing;
    EXPECT_EQ(e.variant->id, v.id);
    // CUB's references show the call into the library (DeviceReduce, DeviceSegmentedReduce).
    EXPECT_TRUE(panel.source_text().contains("__global__") ||
                panel.source_text().contains("cub::DeviceReduce") ||
                panel.source_text().contains("cub::DeviceSegmentedReduce"))
        << v.id;
    EXPECT_TRUE(panel.diff_text().startsWith("---") || v.id == rl::catalog().front().id) << v.id;
    if (!rl::code::sass_unavailable_reason().empty()) {
      EXPECT_TRUE(panel.sass_text().contains("unavailable")) << v.id;
      continue;
    }
    // The counts shown are the engine's counts of the text shown.
    const auto counts = rl::code::count_sass(panel.sass_text().toStdString());
    EXPECT_GT(counts.instructions, 0) << v.id;
    EXPECT_TRUE(panel.counts_text().contains(QString("BAR %1").arg(counts.barrier))) << v.id;
    EXPECT_TRUE(panel.counts_text().contains(QString("SHFL %1").arg(counts.shuffle))) << v.id;
    EXPECT_TRUE(panel.resources_text().contains("sm_90")) << v.id;
    EXPECT_TRUE(panel.resources_text().contains("occupancy")) << v.id;
  }
}

TEST(AppCodeView, CodeFontIsMonospacedAndFollowsTheTextSize) {
  CodePanel panel;
  auto* source = panel.findChild<QPlainTextEdit*>("code_source");
  ASSERT_NE(source, nullptr);
  EXPECT_TRUE(QFontInfo(source->font()).fixedPitch());
  const QFont before = QApplication::font();
  QFont big = before;
  big.setPointSizeF(18);
  QApplication::setFont(big);
  QApplication::processEvents();
  EXPECT_DOUBLE_EQ(source->font().pointSizeF(), 18);
  QApplication::setFont(before);
}

TEST(AppCodeView, AResultsRowSelectsTheVariant) {
  MainWindow w(test::quiet_options());
  ASSERT_NE(w.code_panel(), nullptr);
  QStringList titles;
  for (int i = 0; i < w.tabs()->count(); ++i) titles << w.tabs()->tabText(i);
  EXPECT_TRUE(titles.contains("Code"));
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec())) << w.last_error().toStdString();
  QTableView* table = w.results_table();
  for (int row = 0; row < table->model()->rowCount(); ++row) {
    table->setCurrentIndex(table->model()->index(row, 0));
    const QString shown = table->model()->index(row, 0).data().toString();
    const rl::VariantInfo* v = w.code_panel()->entry().variant;
    ASSERT_NE(v, nullptr);
    EXPECT_TRUE(shown.contains(QString::fromStdString(v->id)) ||
                shown.contains(QString::fromStdString(v->display_name)) ||
                shown.contains(QString::fromStdString(v->seed_name)))
        << shown.toStdString() << " vs " << v->id;
    EXPECT_EQ(w.code_panel()->entry().query.block_size, 256);
  }
}

// With RL_CODE_SCREENSHOTS=DIR, the Code tab's pages at 1366x768 go there as PNG (to look at).
TEST(AppCodeView, ScreenshotsAt1366x768) {
  const QString dir = qEnvironmentVariable("RL_CODE_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_CODE_SCREENSHOTS=DIR to write them";
  MainWindow::Options o = test::quiet_options();
  o.open_bundled = true;  // its 2^24 ladder carries line samples and counts: the columns show
  MainWindow w(o);
  w.wait_for_bundled_session();
  w.resize(1366, 768);
  w.show();
  w.tabs()->setCurrentWidget(w.code_panel());
  // Interleaved's pages, and neighbored's source (its divergent `if`: the thread efficiency).
  for (const char* variant : {"interleaved", "neighbored"}) {
    w.code_panel()->show_variant(variant, 1024, 1, rl::DType::Int32, rl::Workspace::Global);
    const int pages = std::string(variant) == "interleaved" ? w.code_panel()->pages()->count() : 1;
    for (int page = 0; page < pages; ++page) {
      w.code_panel()->pages()->setCurrentIndex(page);
      QApplication::processEvents();
      EXPECT_TRUE(w.grab().save(QString("%1/code-%2-%3.png").arg(dir, variant).arg(page)));
    }
  }
}

// A chart's bar (or point) shows its code: every ladder bar carries the point it
// draws; a click puts its variant in the Code tab and says so; a double click opens the tab.
TEST(AppCodeView, AChartBarShowsItsCodeAndADoubleClickOpensTheTab) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session(), "sample");
  w.charts()->refresh_all();
  charts::ChartWidget* ladder = w.charts()->chart("ladder_time");
  ASSERT_NE(ladder, nullptr);
  ASSERT_FALSE(ladder->chart().series.isEmpty());
  for (const auto& s : ladder->chart().series)
    for (const auto& p : s.points) EXPECT_TRUE(p.source.has_value()) << s.name.toStdString();
  const rl::PointSpec p = *ladder->chart().series.front().points.back().source;
  auto* code = w.findChild<CodePanel*>("code_panel");
  auto* tabs = w.findChild<QTabWidget*>();
  ASSERT_NE(code, nullptr);
  ASSERT_NE(tabs, nullptr);
  const int before = tabs->currentIndex();
  emit ladder->point_clicked(p, false);
  ASSERT_NE(code->entry().variant, nullptr);
  EXPECT_EQ(code->entry().variant->id, p.variant);
  EXPECT_EQ(tabs->currentIndex(), before);
  EXPECT_TRUE(w.statusBar()->currentMessage().contains("is in the Code tab"))
      << w.statusBar()->currentMessage().toStdString();
  emit ladder->point_clicked(p, true);
  EXPECT_TRUE(tabs->currentWidget()->isAncestorOf(code));
}

// A run's occupancy from the CUDA runtime (device/kernel_occupancy.h) shows on the resources page
// for the instantiation it was measured with, beside the formula's; other shapes show none.
TEST(AppCodeView, ARunsOccupancyShowsBesideTheFormulas) {
  CodePanel panel;
  panel.show_variant("interleaved", 1024);
  EXPECT_FALSE(panel.resources_text().contains("occupancy API"));
  rl::Session s;
  s.device.name = "Test GPU";
  rl::PointResult r;
  r.point =
      rl::PointSpec{"interleaved", rl::Workspace::Global, 1024, 1, 1u << 24, rl::DType::Int32};
  r.occupancy = {{"first_kernel", "_Z4tree", 16384, 1024, 0, 32, 4096, 0, 2, 64},
                 {"finish", "_Z6finish", 1, 1024, 0, 24, 8192, 0, 2, 64}};
  s.results.push_back(r);
  panel.set_sampled_session(std::make_shared<const rl::Session>(s));
  const QString text = panel.resources_text();
  EXPECT_TRUE(text.contains("On Test GPU")) << text.toStdString();
  EXPECT_TRUE(text.contains("CUDA occupancy API"));
  EXPECT_TRUE(text.contains("2 blocks, 64 of 64 warps (100%)")) << text.toStdString();
  EXPECT_TRUE(text.contains("16384 x 1024"));
  panel.show_variant("interleaved", 512);
  EXPECT_FALSE(panel.resources_text().contains("occupancy API"));
}
