// Presentation and story mode change the application's font for the room; leaving them gives the
// window everything back exactly: every chart's fonts, the window's font and palette, its docks.
// Ctrl+= and Ctrl+- in a full-screen mode are exact inverses, and grow every text of the chart.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "event_loop_support.h"
#include "presentation.h"
#include "session_store.h"
#include "slide_mode.h"
#include "story/story_view.h"

using namespace rl::gui;

namespace {

// The charts rebuilt for the new text size, laid out, and their value axes raised for the bar
// labels: a few turns of the event loop.
void settle() {
  rl::gui::test::settle_events(100);
}

// Every chart's texts and fonts, the window's font, palette and panels, in one comparable list.
QStringList look_of(MainWindow& w) {
  w.charts()->refresh_all();
  // Tab by tab: a chart on a hidden tab is laid out (its title wrapped) when its tab shows.
  QStringList look;
  for (int i = 0; i < w.tabs()->count(); ++i) {
    w.tabs()->setCurrentIndex(i);
    settle();
    for (const QString& id : w.charts()->ids())
      if (w.charts()->chart(id)->isVisible())
        for (const QString& f : w.charts()->chart(id)->text_fonts()) look << id + " | " + f;
  }
  w.tabs()->setCurrentIndex(0);
  settle();
  look << "app font: " + QApplication::font().toString() << "window font: " + w.font().toString()
       << "palette window: " + w.palette().color(QPalette::Window).name()
       << "palette text: " + w.palette().color(QPalette::WindowText).name()
       << QString("experiment panel shown: %1").arg(w.experiment_dock()->isVisible());
  return look;
}

// What differs between two looks, line by line ("" when they are the same).
std::string differences(const QStringList& before, const QStringList& after) {
  QStringList out;
  for (const QString& line : before)
    if (!after.contains(line)) out << "gone: " + line;
  for (const QString& line : after)
    if (!before.contains(line)) out << "new:  " + line;
  return out.join('\n').toStdString();
}

// Each text's font, tick values left out (which ticks an axis shows depends on its length).
QStringList fonts_of(const QStringList& texts) {
  static const QRegularExpression tick("^[-0-9.,]+ \\| font ");
  QStringList out;
  for (const QString& t : texts)
    if (!tick.match(t).hasMatch()) out << t;
  return out;
}

// The point size of each text of a chart's text_fonts(), in its order.
QList<double> point_sizes(const QStringList& fonts) {
  QList<double> sizes;
  for (const QString& f : fonts) {
    if (!f.contains(charts::ChartWidget::kFontMark)) continue;
    QFont font;
    font.fromString(f.section(charts::ChartWidget::kFontMark, -1));
    sizes << font.pointSizeF();
  }
  return sizes;
}

}  // namespace

TEST(AppModes, RoundTripThroughPresentationAndStoryLeavesEveryChartsFonts) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session(), "s.json");
  // The offscreen screen is 800 x 600: without the form the window fits it, as on a real screen.
  w.experiment_dock()->hide();
  w.show();
  settle();
  const QStringList before = look_of(w);
  ASSERT_GT(before.size(), 20);

  w.present();
  settle();
  ASSERT_NE(w.presentation(), nullptr);
  QTest::keyClick(w.presentation(), Qt::Key_Equal, Qt::ControlModifier);
  QTest::keyClick(w.presentation(), Qt::Key_PageDown);
  settle();
  QTest::keyClick(w.presentation(), Qt::Key_Escape);
  settle();
  ASSERT_EQ(w.presentation(), nullptr);
  EXPECT_EQ(differences(before, look_of(w)), "");

  ASSERT_TRUE(w.present_story(":/stories/seed-ladder.json")) << w.last_error().toStdString();
  settle();
  QTest::keyClick(w.story_view(), Qt::Key_PageDown);
  QTest::keyClick(w.story_view(), Qt::Key_Equal, Qt::ControlModifier);
  settle();
  QTest::keyClick(w.story_view(), Qt::Key_Escape);
  settle();
  ASSERT_EQ(w.story_view(), nullptr);
  EXPECT_EQ(differences(before, look_of(w)), "");
}

TEST(AppModes, TextKeysAreExactInversesAndGrowEveryText) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session(), "s.json");
  w.present();
  settle();
  PresentationView* p = w.presentation();
  ASSERT_NE(p, nullptr);
  const double zoom = p->zoom();
  const QString app_font = QApplication::font().toString();
  const QStringList fonts = p->chart_widget()->text_fonts();
  QTest::keyClick(p, Qt::Key_Equal, Qt::ControlModifier);
  settle();
  const QStringList larger = p->chart_widget()->text_fonts();
  // Every text grows, bar values included: no font of the chart stays at its size.
  const QList<double> before = point_sizes(fonts), after = point_sizes(larger);
  ASSERT_EQ(before.size(), after.size()) << differences(fonts, larger);
  ASSERT_GT(before.size(), 5);
  for (int i = 0; i < before.size(); ++i)
    EXPECT_GT(after[i], before[i]) << fonts[i].toStdString() << " -> " << larger[i].toStdString();
  EXPECT_TRUE(p->chart_widget()->cut_text().isEmpty())
      << p->chart_widget()->cut_text().join("\n").toStdString();
  QTest::keyClick(p, Qt::Key_Equal, Qt::ControlModifier);
  QTest::keyClick(p, Qt::Key_Minus, Qt::ControlModifier);
  QTest::keyClick(p, Qt::Key_Minus, Qt::ControlModifier);
  settle();
  EXPECT_EQ(p->zoom(), zoom);
  EXPECT_EQ(QApplication::font().toString(), app_font);
  // The same fonts; the axes' tick values may differ with the plot's size, not their font.
  EXPECT_EQ(differences(fonts_of(fonts), fonts_of(p->chart_widget()->text_fonts())), "");
  // From every factor on the grid, one step up then one down gives it back, to the last bit.
  const QKeyEvent up(QEvent::KeyPress, Qt::Key_Equal, Qt::ControlModifier);
  const QKeyEvent down(QEvent::KeyPress, Qt::Key_Minus, Qt::ControlModifier);
  for (int n = -4; n <= 6; ++n) {
    const double start = std::pow(1.15, n);
    EXPECT_EQ(slide_move(down, 0, 1, slide_move(up, 0, 1, start).zoom).zoom, start) << n;
    EXPECT_EQ(slide_move(up, 0, 1, slide_move(down, 0, 1, start).zoom).zoom, start) << n;
  }
  QTest::keyClick(p, Qt::Key_Escape);
  settle();
}
