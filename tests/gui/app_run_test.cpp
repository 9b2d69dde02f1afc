// Runs on the host backend through the worker thread: results stream into the table and the
// charts, cancel keeps the finished points, a replaced run's late signals are dropped, and the
// GUI thread's event loop keeps ticking while the runner works.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTimer>

#include <set>

#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "engine/experiment/presets.h"
#include "results_model.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

// Enough work on the host to take a noticeable time: 12 points of about 40 ms each.
rl::ExperimentSpec longer_spec() {
  rl::ExperimentSpec s = test::tiny_spec();
  s.variants = {"neighbored", "neighbored_less", "interleaved", "reduceUnroll8"};
  s.sizes = {1u << 16, 1u << 18, 1u << 20};
  s.timing.budget_ms = 40;
  s.timing.noise = 1e-6;  // sample until the budget is spent, however quiet the machine
  return s;
}

}  // namespace

TEST(AppRun, HostRunFillsTableAndCharts) {
  MainWindow w(test::quiet_options());
  w.show();
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec())) << w.last_error().toStdString();
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  const rl::Session& s = w.store()->primary();
  EXPECT_FALSE(s.cancelled);
  ASSERT_EQ(s.results.size(), 4u);  // 2 variants x 2 sizes
  EXPECT_EQ(s.device.backend, "host");
  EXPECT_EQ(w.results_model()->rowCount(), 4);
  for (const auto& r : s.results) EXPECT_EQ(r.status, rl::PointStatus::Ok) << r.message;
  // Speed-ups against neighbored (the default baseline) reach the table.
  int with_speedup = 0;
  for (const auto& r : w.results_model()->results()) with_speedup += r.speedup.has_value();
  EXPECT_EQ(with_speedup, 4);

  w.charts()->refresh_all();
  EXPECT_EQ(w.charts()->chart("ladder_speedup")->drawn_points(), 2);  // two rungs at N=4096
  EXPECT_EQ(w.charts()->chart("time_vs_size")->drawn_points(), 4);
  EXPECT_EQ(w.charts()->chart("bandwidth_vs_size")->drawn_points(), 4);
  EXPECT_EQ(w.charts()->chart("time_vs_unroll")->drawn_points(), 0);  // no unroll sweep
  EXPECT_TRUE(w.charts()->chart("time_vs_size")->chart().subtitle.contains("host emulation"));
  EXPECT_TRUE(w.banner_text().contains("host emulation"));
  // Hover text carries the exact values.
  const QString tip = w.charts()->chart("time_vs_size")->tooltip(0, 0);
  EXPECT_TRUE(tip.contains("median")) << tip.toStdString();
}

TEST(AppRun, ResultsStreamPointByPoint) {
  MainWindow w(test::quiet_options());
  QSignalSpy appended(w.store(), &SessionStore::appended);
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  EXPECT_EQ(appended.count(), 4);
  for (int i = 0; i < appended.count(); ++i) EXPECT_EQ(appended.at(i).at(0).toInt(), i);
}

TEST(AppRun, CancelKeepsFinishedPoints) {
  MainWindow w(test::quiet_options());
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(longer_spec());
  const size_t total = rl::expand(longer_spec()).size();
  w.run();
  ASSERT_TRUE(w.controller()->running());
  w.show();
  // The first points reach the table and the chart on screen while the run goes on.
  ASSERT_TRUE(test::wait_until(
      [&] { return w.charts()->chart("ladder_speedup")->drawn_points() >= 1; }, 60000));
  EXPECT_TRUE(w.controller()->running());
  EXPECT_GE(w.results_model()->rowCount(), 1);
  w.cancel();
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 60000));
  const rl::Session& s = w.store()->primary();
  EXPECT_TRUE(s.cancelled);
  EXPECT_GE(s.results.size(), 1u);
  EXPECT_LT(s.results.size(), total);
  EXPECT_EQ(size_t(w.results_model()->rowCount()), s.results.size());
  // A new run can start right away.
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  EXPECT_EQ(w.store()->primary().results.size(), 4u);
}

TEST(AppRun, ReplacedRunSignalsAreDropped) {
  RunController controller;
  std::vector<rl::PointResult> seen;
  QObject::connect(&controller, &RunController::point_finished,
                   [&](const rl::PointResult& r) { seen.push_back(r); });
  bool done = false;
  rl::Session finished;
  QObject::connect(&controller, &RunController::finished,
                   [&](const rl::Session& s) { done = true, finished = s; });
  controller.start(longer_spec(), kHostDevice);
  rl::ExperimentSpec second = test::tiny_spec();
  second.sizes = {777};
  controller.start(second, kHostDevice);  // the first is cancelled and ignored from here on
  ASSERT_TRUE(test::wait_until([&] { return done; }, 60000));
  EXPECT_FALSE(finished.cancelled);
  ASSERT_EQ(finished.results.size(), 2u);
  for (const auto& r : seen)
    EXPECT_EQ(r.point.size, 777u) << "a point of the replaced run leaked through";
  EXPECT_EQ(seen.size(), 2u);
}

TEST(AppRun, EventLoopKeepsTickingDuringARun) {
  MainWindow w(test::quiet_options());
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(longer_spec());
  int ticks = 0;
  QTimer timer;
  timer.setInterval(10);
  QObject::connect(&timer, &QTimer::timeout, [&] { ++ticks; });
  QElapsedTimer clock;
  clock.start();
  timer.start();
  w.run();
  ASSERT_TRUE(w.controller()->running());
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 120000));
  timer.stop();
  const qint64 ms = clock.elapsed();
  ASSERT_GT(ms, 100) << "the run was too short to tell";
  // A blocked GUI thread would tick a handful of times; a free one about every 10 ms. Leave
  // room for a slow, shared CI machine.
  EXPECT_GE(ticks, int(ms / 10 / 4)) << ticks << " ticks in " << ms << " ms";
  EXPECT_FALSE(w.store()->primary().results.empty());
}

// The charts follow a run on their own: once the first point of the classic ladder (its 2^24
// elements take the host a few seconds in all) arrives, the Ladder page's first chart draws it
// within a couple of seconds, without anything asking it to refresh. The app starts with the
// bundled session shown, which the run then hides.
TEST(AppRun, ChartsDrawTheFirstPointWhileTheRunGoesOn) {
  MainWindow::Options o = test::quiet_options();
  o.open_bundled = true;
  MainWindow w(o);
  w.show();
  ASSERT_TRUE(w.wait_for_bundled_session());
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(rl::find_preset("ladder")->spec);
  w.run();
  ASSERT_TRUE(w.controller()->running());
  ASSERT_TRUE(test::wait_until([&] { return !w.store()->primary().results.empty(); }, 60000));
  charts::ChartWidget* counts = w.charts()->chart("ladder_counts");
  EXPECT_TRUE(test::wait_until([&] { return counts->drawn_points() > 0; }, 2000))
      << counts->chart().empty_hint.toStdString();
  w.controller()->cancel();
  test::wait_until([&] { return !w.controller()->running(); }, 60000);
}
