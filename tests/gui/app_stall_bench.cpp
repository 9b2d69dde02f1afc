// Not a test but a measurement, skipped unless asked for: how long the GUI thread goes without
// returning to its event loop while a large session opens (File > Open's way), while a run
// goes, while one chart is exported, while the session is saved (File > Save session's job) and
// while every chart is exported (File > Export all charts' job) (docs/benchmarks.md, "The window
// while it works").
//   RL_STALL_SESSION=big.json ctest -R EventLoopStall -V   (or gui_tests --gtest_filter=...)
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

#include "app_test_support.h"
#include "charts_panel.h"
#include "jobs/job_tracker.h"
#include "session_store.h"

namespace rl::gui {
namespace {

// The longest gap between two turns of the event loop, seen by a 2 ms timer.
class StallMeter {
 public:
  StallMeter() {
    timer_.setInterval(2);
    QObject::connect(&timer_, &QTimer::timeout,
                     [this] { longest_ = std::max(longest_, since_.restart()); });
    since_.start();
    timer_.start();
  }
  void reset() {
    longest_ = 0;
    since_.restart();
  }
  qint64 longest_ms() const { return std::max(longest_, since_.elapsed()); }

 private:
  QTimer timer_;
  QElapsedTimer since_;
  qint64 longest_ = 0;
};

void settle(int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

TEST(EventLoopStallBench, OpenRunAndExport) {
  const QString file = qEnvironmentVariable("RL_STALL_SESSION");
  if (file.isEmpty()) GTEST_SKIP() << "set RL_STALL_SESSION=FILE (a large session) to measure";
  MainWindow w(test::quiet_options());
  w.show();
  settle(500);
  StallMeter meter;

  meter.reset();
  QElapsedTimer clock;
  clock.start();
  w.open_session_in_background(file);
  ASSERT_TRUE(test::wait_until([&] { return w.store()->has_primary(); }, 600000))
      << w.last_error().toStdString();
  const qint64 usable_ms = clock.elapsed();
  settle(1000);  // the charts' coalesced refresh after the session arrives
  const qint64 open_stall = meter.longest_ms();
  std::printf(
      "open %s: %zu points, in the window after %lld ms; longest event-loop stall %lld ms\n",
      qPrintable(QDir(file).dirName()), w.store()->primary().results.size(),
      static_cast<long long>(usable_ms), static_cast<long long>(open_stall));

  // The large session saved and drawn, each as a job.
  QTemporaryDir dir;
  meter.reset();
  clock.restart();
  ASSERT_NE(w.start_save_session(dir.filePath("saved.json")), nullptr);
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 600000));
  std::printf("save of the %zu-point session (a job): %lld ms; longest event-loop stall %lld ms\n",
              w.store()->primary().results.size(), static_cast<long long>(clock.elapsed()),
              static_cast<long long>(meter.longest_ms()));
  ASSERT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();

  meter.reset();
  clock.restart();
  Job* charts = w.start_export_all_charts(dir.filePath("charts"), QSize(1600, 900));
  ASSERT_NE(charts, nullptr);
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 600000));
  std::printf(
      "export of all %d charts as 1600x900 PNG (a job): %lld ms; longest event-loop stall %lld "
      "ms\n",
      int(QDir(dir.filePath("charts")).entryList(QDir::Files).size()),
      static_cast<long long>(clock.elapsed()), static_cast<long long>(meter.longest_ms()));

  meter.reset();
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  settle(500);
  std::printf("host run of %zu points: longest event-loop stall %lld ms\n",
              w.store()->primary().results.size(), static_cast<long long>(meter.longest_ms()));

  const QStringList ids = w.charts()->ids();
  ASSERT_FALSE(ids.isEmpty());
  meter.reset();
  ASSERT_TRUE(w.export_chart(ids.front(), dir.filePath("chart.png"), QSize(1600, 900)));
  settle(200);
  std::printf("export of chart %s as PNG: longest event-loop stall %lld ms\n",
              qPrintable(ids.front()), static_cast<long long>(meter.longest_ms()));
}

}  // namespace
}  // namespace rl::gui
