// Presentation mode: F5 opens one chart at a time full screen with text for a room, clicker keys
// step through the charts that have something to draw, Ctrl+= / Ctrl+- size the text, Esc
// leaves and gives the app its font back. The window's own text zoom is remembered apart.
#include <gtest/gtest.h>

#include <QApplication>
#include <QTest>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "presentation.h"
#include "session_store.h"

using namespace rl::gui;

TEST(AppPresentation, PointSizeFollowsTheScreen) {
  EXPECT_EQ(presentation_point_size(1080, 1.0), 20.0);
  EXPECT_EQ(presentation_point_size(768, 1.0), 14.0);
  EXPECT_EQ(presentation_point_size(2160, 1.0), 40.0);
  EXPECT_EQ(presentation_point_size(480, 1.0), 12.0);  // never unreadably small
  EXPECT_GT(presentation_point_size(1080, 1.5), presentation_point_size(1080, 1.0));
}

TEST(AppPresentation, ClickerKeysStepThroughTheChartsWithData) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session(), "s.json");
  const double app_pt = QApplication::font().pointSizeF();
  w.present();
  PresentationView* p = w.presentation();
  ASSERT_NE(p, nullptr);
  // The sample has a ladder and an unroll sweep: the charts with data, none of the size charts.
  QStringList with_data;
  for (const ChartKind& k : chart_kinds_for(w.store()->shown()))
    if (!build_chart(k.id, w.store()->shown(), w.store()->baseline()).empty()) with_data << k.id;
  ASSERT_GE(with_data.size(), 5);
  ASSERT_EQ(p->pages(), with_data);
  EXPECT_FALSE(p->pages().contains("time_vs_size"));
  EXPECT_GT(QApplication::font().pointSizeF(), app_pt);  // text for a room
  EXPECT_EQ(p->page(), 0);
  QTest::keyClick(p, Qt::Key_PageDown);
  EXPECT_EQ(p->page(), 1);
  QTest::keyClick(p, Qt::Key_Space);
  EXPECT_EQ(p->page(), 2);
  QTest::keyClick(p, Qt::Key_PageUp);
  EXPECT_EQ(p->page(), 1);
  QTest::keyClick(p, Qt::Key_End);
  const int last = int(with_data.size()) - 1;
  EXPECT_EQ(p->page(), last);
  QTest::keyClick(p, Qt::Key_PageDown);  // stays on the last page
  EXPECT_EQ(p->page(), last);
  EXPECT_EQ(p->chart_widget()->chart().id, p->pages().back());
  EXPECT_GT(p->chart_widget()->drawn_points(), 0);

  const double room_pt = QApplication::font().pointSizeF();
  QTest::keyClick(p, Qt::Key_Equal, Qt::ControlModifier);
  EXPECT_GT(QApplication::font().pointSizeF(), room_pt);
  EXPECT_GT(p->zoom(), 1.0);
  QTest::keyClick(p, Qt::Key_Minus, Qt::ControlModifier);
  QTest::keyClick(p, Qt::Key_Minus, Qt::ControlModifier);
  EXPECT_LT(QApplication::font().pointSizeF(), room_pt);

  QTest::keyClick(p, Qt::Key_Escape);
  QCoreApplication::processEvents();
  EXPECT_EQ(w.presentation(), nullptr);
  EXPECT_EQ(QApplication::font().pointSizeF(), app_pt);  // the app's own size back
}

TEST(AppPresentation, NothingToPresentSaysSo) {
  MainWindow w(test::quiet_options());
  w.present();
  ASSERT_NE(w.presentation(), nullptr);
  EXPECT_TRUE(w.presentation()->pages().isEmpty());
  EXPECT_TRUE(w.presentation()->chart_widget()->chart().empty_hint.contains("Nothing to present"));
  w.present();  // F5 again leaves
  QCoreApplication::processEvents();
  EXPECT_EQ(w.presentation(), nullptr);
}

// Every page renders at a projector's 1024x768 and at 4K, with the room's text size.
TEST(AppPresentation, EveryPageRendersAtProjectorAnd4k) {
  SessionStore store;
  store.set_primary(test::sample_session(), "s.json");
  for (const ChartKind& kind : chart_kinds()) {
    const charts::Chart c = build_chart(kind.id, store.shown(), store.baseline());
    if (c.empty()) continue;
    for (const QSize size : {QSize(1024, 768), QSize(3840, 2160)}) {
      const QImage image = charts::render_chart(c, size);
      ASSERT_EQ(image.size(), size) << kind.id.toStdString();
      // Something is drawn beyond the white page.
      int dark = 0;
      for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) dark += qGray(image.pixel(x, y)) < 128;
      EXPECT_GT(dark, 50) << kind.id.toStdString() << " at " << size.width();
    }
  }
}

TEST(AppPresentation, WindowTextSizeIsSetAndBounded) {
  MainWindow w(test::quiet_options());
  const double before = QApplication::font().pointSizeF();
  w.set_text_size(14);
  EXPECT_EQ(QApplication::font().pointSizeF(), 14.0);
  w.set_text_size(100);
  EXPECT_EQ(w.text_size(), 32.0);
  w.set_text_size(before);
  EXPECT_EQ(QApplication::font().pointSizeF(), before);
}
