// The app on a real GPU: a run through the worker thread on cuda:0 (the CUDA backend made on
// that thread), and, when asked, screenshots of a live sweep. Skipped, saying why, without a GPU.
#include <gtest/gtest.h>

#include <QDir>
#include <QTabWidget>
#include <QTest>

#include "app_test_support.h"
#include "chart_export.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "engine/device/device.h"
#include "engine/experiment/presets.h"
#include "engine/session/metrics.h"
#include "results_model.h"
#include "session_store.h"

using namespace rl::gui;
using rl::presets;

namespace {

// Why there is no usable GPU here, or empty when there is one.
std::string no_gpu() {
  static const rl::Discovery d = rl::discover_devices();
  return d.gpus.empty() ? "no GPU: " + d.no_gpu_reason : std::string();
}

}  // namespace

TEST(AppGpu, RunOnCudaThroughTheWorkerThread) {
  if (!no_gpu().empty()) GTEST_SKIP() << no_gpu();
  MainWindow w(test::quiet_options());
  w.show();
  w.experiment()->set_discovery(rl::discover_devices());
  w.experiment()->set_device(0);
  rl::ExperimentSpec spec = test::tiny_spec();
  spec.sizes = {1000, std::uint64_t(1) << 20};
  w.experiment()->set_spec(spec);
  w.run();
  ASSERT_TRUE(w.controller()->running()) << w.experiment()->problems().join("; ").toStdString();
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 120000));
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  const rl::Session& s = w.store()->primary();
  EXPECT_EQ(s.device.backend, "cuda");
  EXPECT_GT(s.device.measured_copy_gbps, 0);
  ASSERT_EQ(s.results.size(), 4u);
  for (const auto& r : s.results)
    EXPECT_EQ(r.status, rl::PointStatus::Ok) << r.point.label() << ": " << r.message;
  // The read floor of each size comes with the run, and the size chart draws it beside the points.
  ASSERT_EQ(s.read_floors.size(), 2u);
  for (const auto& r : s.results)
    EXPECT_GT(point_rates(r, s.device, s.read_floors).pct_of_read_floor, 0) << r.point.label();
  w.charts()->refresh_all();
  EXPECT_EQ(w.charts()->chart("bandwidth_vs_size")->drawn_points(), 4 + 2);
  EXPECT_EQ(w.results_model()->rowCount(), 4);
}

namespace {

// RL_GUI_SCREENSHOTS=DIR: runs a preset on cuda:0 and saves the window while it runs (half the
// points done) and when it is done, every chart as PNG and the session as JSON.
void screenshots_of_a_live_run(int preset, const QString& name, int live_tab) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  if (!no_gpu().empty()) GTEST_SKIP() << no_gpu();
  QDir().mkpath(dir);
  MainWindow w(test::quiet_options());
  w.resize(1600, 1000);
  w.show();
  w.experiment()->set_discovery(rl::discover_devices());
  w.experiment()->set_device(0);
  const rl::ExperimentSpec spec = presets()[size_t(preset)].spec;
  w.experiment()->set_spec(spec);
  w.run();
  ASSERT_TRUE(w.controller()->running()) << w.experiment()->problems().join("; ").toStdString();
  w.tabs()->setCurrentIndex(live_tab);
  const size_t total = rl::expand(spec).size();
  if (test::wait_until([&] { return w.store()->primary().results.size() >= total / 2; }, 300000) &&
      w.controller()->running()) {
    w.charts()->refresh_visible();
    QTest::qWait(300);  // the charts' layouts are posted events: let them settle before the shot
    w.grab().save(QDir(dir).filePath("gpu_" + name + "_live.png"));
  }
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 570000));
  ASSERT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  w.charts()->refresh_all();
  QTest::qWait(300);
  w.grab().save(QDir(dir).filePath("gpu_" + name + "_done.png"));
  const QString session = QDir(dir).filePath("gpu_" + name + ".json");
  ASSERT_TRUE(w.save_session(session));
  QStringList written;
  QString error;
  ASSERT_TRUE(export_session_charts(session, QDir(dir).filePath("gpu_" + name + "_charts"),
                                    QSize(1600, 1000), &written, &error))
      << error.toStdString();
}

}  // namespace

// The classic ladder at 2^24, block 1024, on the Ladder page.
TEST(AppGpu, ScreenshotsOfALiveLadder) {
  screenshots_of_a_live_run(0, "ladder", 0);
}

// The size sweep 2^10..2^28 on the Size page.
TEST(AppGpu, ScreenshotsOfALiveSizeSweep) {
  screenshots_of_a_live_run(3, "size_sweep", 3);
}
