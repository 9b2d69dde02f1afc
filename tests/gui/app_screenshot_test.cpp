// Screenshots of the real app for people and docs, taken only when asked:
//   RL_GUI_SCREENSHOTS=/tmp/shots ./build/tests/gui_tests --gtest_filter='AppScreenshots.*'
// runs the classic ladder preset and an unroll sweep on the host backend, then saves the window and
// every chart page as PNG.
#include <gtest/gtest.h>

#include <QDir>
#include <QTabWidget>

#include "app_test_support.h"
#include "chart_export.h"
#include "charts_panel.h"
#include "engine/experiment/presets.h"

using namespace rl::gui;
using rl::presets;

namespace {

QString shots_dir() {
  return qEnvironmentVariable("RL_GUI_SCREENSHOTS");
}

void save_pages(MainWindow& w, const QString& prefix) {
  for (int i = 0; i < w.tabs()->count(); ++i) {
    w.tabs()->setCurrentIndex(i);
    w.charts()->refresh_visible();
    QCoreApplication::processEvents();
    QString name = w.tabs()->tabText(i).toLower().replace(' ', '_');
    w.grab().save(QDir(shots_dir()).filePath(prefix + name + ".png"));
  }
}

}  // namespace

TEST(AppScreenshots, HostRunOfTheLadderAndAnUnrollSweep) {
  if (shots_dir().isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  QDir().mkpath(shots_dir());
  MainWindow::Options options = test::quiet_options();
  options.discover = true;  // the device page says what this machine has
  MainWindow w(options);
  w.resize(1600, 1000);
  w.show();
  const rl::ExperimentSpec ladder = presets()[0].spec;  // as it comes: 2^24, block 1024
  ASSERT_TRUE(test::run_and_wait(w, ladder, 300000)) << w.last_error().toStdString();
  save_pages(w, "gui_ladder_");

  rl::ExperimentSpec unroll = presets()[1].spec;
  unroll.sizes = {std::uint64_t(1) << 20, std::uint64_t(1) << 22};
  unroll.timing.budget_ms = 60;
  ASSERT_TRUE(test::run_and_wait(w, unroll, 300000)) << w.last_error().toStdString();
  save_pages(w, "gui_unroll_");
  // The same charts as files, as `reductionlab --export-charts` writes them.
  const QString session = QDir(shots_dir()).filePath("host_unroll_session.json");
  ASSERT_TRUE(w.save_session(session));
  QStringList written;
  QString error;
  ASSERT_TRUE(export_session_charts(session, QDir(shots_dir()).filePath("charts"),
                                    QSize(1600, 1000), &written, &error))
      << error.toStdString();
}
