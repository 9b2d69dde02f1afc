// The ladder's setting is chosen, not guessed: the Ladder page's Setting
// selector lists what the session holds and starts on the classic ladder's experiment; choosing
// another redraws the ladder charts there; `--setting` does the same for `--export-charts`, and a
// setting the session does not hold is refused naming what it holds.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "chart_export.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "main_window.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

// The sample session again at a second N (2^16): two settings.
rl::Session two_sizes() {
  rl::Session s = test::sample_session();
  const std::size_t n = s.results.size();
  for (std::size_t i = 0; i < n; ++i) {
    rl::PointResult r = s.results[i];
    r.point.size = 1u << 16;
    s.results.push_back(r);
  }
  return s;
}

QString ladder_subtitle(const MainWindow& w) {
  w.charts()->refresh_all();
  return w.charts()->chart("ladder_time")->chart().subtitle;
}

}  // namespace

TEST(AppLadderSetting, TheSelectorListsTheSessionsSettingsAndRedrawsTheLadder) {
  MainWindow w(test::quiet_options());
  const rl::Session s = two_sizes();
  const std::uint64_t sample_n = test::sample_session().results.front().point.size;
  w.store()->set_primary(s, "two sizes");
  auto* combo = w.findChild<QComboBox*>("ladder_setting");
  ASSERT_NE(combo, nullptr);
  ASSERT_EQ(combo->count(), 2);
  EXPECT_TRUE(combo->isEnabled());
  EXPECT_TRUE(combo->itemText(0).startsWith("N=2^16 · B=")) << combo->itemText(0).toStdString();
  // Both hold the same rungs: the default is the larger N (the classic 2^24 is not there).
  const QString big = "N=" + QString::fromStdString(rl::format_size(sample_n));
  EXPECT_TRUE(combo->currentText().startsWith(big)) << combo->currentText().toStdString();
  EXPECT_TRUE(ladder_subtitle(w).contains(big)) << ladder_subtitle(w).toStdString();
  EXPECT_TRUE(ladder_subtitle(w).contains("1 of 2 settings"));
  emit combo->activated(0);
  ASSERT_TRUE(w.store()->ladder_setting());
  EXPECT_EQ(w.store()->ladder_setting()->size, 1u << 16);
  EXPECT_TRUE(ladder_subtitle(w).contains("N=2^16")) << ladder_subtitle(w).toStdString();
  EXPECT_TRUE(combo->currentText().startsWith("N=2^16"));
  // A session without that setting draws its own default and the selector says which.
  w.store()->set_primary(test::sample_session(), "one size");
  EXPECT_EQ(combo->count(), 1);
  EXPECT_FALSE(combo->isEnabled());
  EXPECT_TRUE(ladder_subtitle(w).contains(big)) << ladder_subtitle(w).toStdString();
}

TEST(AppLadderSetting, TheBundledSessionOpensOnTheSeedsExperiment) {
  if (!QFile::exists(":/sessions/h200-ladder.json")) GTEST_SKIP() << "no bundled session here";
  MainWindow::Options options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  w.wait_for_bundled_session();
  auto* combo = w.findChild<QComboBox*>("ladder_setting");
  ASSERT_NE(combo, nullptr);
  EXPECT_GT(combo->count(), 1);
  EXPECT_TRUE(combo->currentText().startsWith("N=2^24 · B=1024 · int32"))
      << combo->currentText().toStdString();
  EXPECT_TRUE(ladder_subtitle(w).contains("N=2^24")) << ladder_subtitle(w).toStdString();
}

TEST(AppLadderSetting, ExportTakesTheSettingOrSaysWhatTheSessionHolds) {
  QTemporaryDir dir;
  const QString path = test::write_session_file(dir, "two.json", two_sizes());
  CommandLine cl = parse_command_line({"reductionlab", "--open", path, "--export-charts",
                                       dir.filePath("charts"), "--setting", "N=2^16"});
  ASSERT_TRUE(cl.error.isEmpty()) << cl.error.toStdString();
  ASSERT_TRUE(cl.ladder && cl.ladder->size);
  QStringList written;
  QString error;
  ASSERT_TRUE(export_session_charts(path, dir.filePath("charts"), QSize(900, 600), &written, &error,
                                    TimeBasis::Whole, nullptr, cl.ladder))
      << error.toStdString();
  EXPECT_FALSE(written.isEmpty());
  rl::LadderChoice missing;
  missing.size = 12345;
  EXPECT_FALSE(export_session_charts(path, dir.filePath("charts2"), QSize(900, 600), &written,
                                     &error, TimeBasis::Whole, nullptr, missing));
  EXPECT_TRUE(error.startsWith("--setting: no ladder at N=12345")) << error.toStdString();
  EXPECT_TRUE(error.contains("it holds N=2^16")) << error.toStdString();
  // Typos and misuse are refused before anything is read.
  EXPECT_TRUE(parse_command_line({"reductionlab", "--open", path, "--export-charts", "x",
                                  "--setting", "type=double"})
                  .error.contains("--setting: type: 'double'"));
  EXPECT_TRUE(parse_command_line({"reductionlab", "--open", path, "--setting", "N=2^16"})
                  .error.contains("--setting is for --export-charts"));
}
