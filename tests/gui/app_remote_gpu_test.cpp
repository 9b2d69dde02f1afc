// The app on a GPU it reaches only through a launcher, for the GPU machine: the
// launcher is `env CUDA_VISIBLE_DEVICES=N` and this build's reductionlab-cli, so the app's own
// process may see no GPU at all (run the tests with CUDA_VISIBLE_DEVICES= to be sure: the app
// side then is "a machine without a GPU"). Skipped, saying why, when the launcher's side lists
// no GPU. RL_GUI_SCREENSHOTS=DIR also saves the window while the ladder arrives and when the
// two-device comparison is done.
#include <gtest/gtest.h>

#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "engine/experiment/presets.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

RemoteHost gpu_host() {
  const QString visible = qEnvironmentVariable("RL_REMOTE_GPU", "0");
  return RemoteHost{"gpu-box", "env CUDA_VISIBLE_DEVICES=" + visible, test::cli_path()};
}

// Adds the launcher's machine and waits for its devices; "" when it has a GPU, else why not.
QString add_gpu_box(MainWindow& w) {
  QSignalSpy listed(&w, &MainWindow::remote_devices_changed);
  w.add_remote_host(gpu_host());
  if (!test::wait_until([&] { return listed.count() > 0; }, 60000))
    return "the launcher did not answer";
  if (!w.experiment()->target_info({"gpu-box", 0})) return w.remote_status("gpu-box");
  return {};
}

void save_shot(MainWindow& w, const QString& name) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  w.charts()->refresh_visible();
  QTest::qWait(300);  // the charts' layouts are posted events
  w.grab().save(QDir(dir).filePath(name));
}

}  // namespace

// The classic ladder, live on the GPU behind the launcher: bars arrive point by point.
TEST(AppRemoteGpu, TheSeedsLadderLiveThroughALauncher) {
  MainWindow w(test::quiet_options());
  w.resize(1600, 1000);
  w.show();
  if (const QString why = add_gpu_box(w); !why.isEmpty()) GTEST_SKIP() << why.toStdString();
  rl::ExperimentSpec spec = rl::presets()[0].spec;
  // At the preset's own timing the H200 runs the 9 points in about a second, faster than a
  // screenshot: 400 samples a point (a few tenths of a second each) leave the run mid-way.
  spec.timing.min_samples = 400;
  spec.timing.max_samples = 400;
  spec.timing.budget_ms = 2000;
  w.experiment()->set_spec(spec);
  w.experiment()->set_target({"gpu-box", 0});
  QSignalSpy appended(w.store(), &SessionStore::appended);
  w.run();
  ASSERT_TRUE(w.running()) << w.experiment()->problems().join("; ").toStdString();
  w.tabs()->setCurrentIndex(0);
  const std::size_t total = rl::expand(spec).size();
  if (test::wait_until([&] { return w.store()->primary().results.size() >= total / 2; }, 300000) &&
      w.running())
    save_shot(w, "remote_ladder_live.png");
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 570000));
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  const rl::Session& s = w.store()->primary();
  EXPECT_EQ(s.device.backend, "cuda");
  EXPECT_EQ(std::size_t(appended.count()), total) << "point by point";
  ASSERT_EQ(s.results.size(), total);
  for (const rl::PointResult& r : s.results)
    EXPECT_EQ(r.status, rl::PointStatus::Ok) << r.point.label() << ": " << r.message;
  save_shot(w, "remote_ladder_done.png");
}

// One experiment on the GPU (through the launcher) and this machine's host backend at once: two
// sessions, drawn side by side, then compared.
TEST(AppRemoteGpu, TwoDevicesTheGpuAndTheHostBackend) {
  MainWindow w(test::quiet_options());
  w.resize(1600, 1000);
  w.show();
  if (const QString why = add_gpu_box(w); !why.isEmpty()) GTEST_SKIP() << why.toStdString();
  rl::ExperimentSpec spec = rl::presets()[0].spec;
  spec.sizes = {std::uint64_t(1) << 20};  // the host backend emulates every block on the CPU
  spec.timing.budget_ms = 50;
  w.experiment()->set_spec(spec);
  w.experiment()->set_target({"gpu-box", 0});
  w.experiment()->set_also({{QString(), kHostDevice}});
  w.run();
  ASSERT_TRUE(w.running()) << w.experiment()->problems().join("; ").toStdString();
  w.tabs()->setCurrentIndex(0);
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 570000));
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  const std::size_t total = rl::expand(spec).size();
  ASSERT_EQ(w.store()->overlays().size(), 1u);
  EXPECT_EQ(w.store()->primary().device.backend, "cuda");
  EXPECT_EQ(w.store()->overlays()[0].device.backend, "host");
  EXPECT_EQ(w.store()->primary().results.size(), total);
  EXPECT_EQ(w.store()->overlays()[0].results.size(), total);
  w.charts()->refresh_all();
  EXPECT_EQ(w.charts()->chart("ladder_speedup")->drawn_points(), int(2 * total));
  save_shot(w, "remote_two_devices.png");
}
