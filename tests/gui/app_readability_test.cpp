// Charts with many series stay readable: 24 colours and 8 marker
// shapes tell series 1..24 apart; the legend wraps and never cuts an entry; bandwidth charts
// offer "% of the read floor" only where a floor was measured; presentation mode's high
// contrast is on by default; every presentation page at 1024x768 and 3840x2160 draws every
// label whole.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QSet>
#include <QTest>

#include <cmath>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts/palette.h"
#include "presentation.h"
#include "session_files.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

charts::Chart many_lines(int n) {
  charts::Chart c;
  c.id = "many";
  c.title = "Bandwidth against size";
  c.x.scale = charts::AxisScale::Log2;
  c.x.ticks = charts::TickStyle::PowerOfTwo;  // as the size charts: "2^26", not "67108864"
  c.y.scale = charts::AxisScale::Linear;
  c.x.title = "N (elements)";
  c.y.title = "bandwidth (GB/s)";
  for (int k = 0; k < n; ++k) {
    charts::Series s;
    s.name = QString("H200 · CompleteUnrollWarp8 · shared · B=%1").arg(32 << (k % 6)) +
             QString(" · #%1").arg(k + 1);
    s.color = charts::palette_color(k);
    for (int i = 0; i < 6; ++i) {
      charts::Point p;
      p.x = double(1 << (16 + 2 * i));
      p.y = (k + 1) * 10.0 + i;
      s.points.append(p);
    }
    c.series.append(s);
  }
  return c;
}

std::optional<rl::Session> bundled() {
  QString error;
  if (!QFile::exists(":/sessions/h200-ladder.json")) return std::nullopt;
  return read_session_file(":/sessions/h200-ladder.json", &error);
}

}  // namespace

TEST(AppReadability, TwentyFourSeriesDifferInColourAndShape) {
  QSet<QString> colours, pairs;
  for (int i = 0; i < charts::kPaletteSize; ++i) {
    colours << charts::palette_color(i).name();
    pairs << charts::palette_high_contrast(i).name() +
                 QString::number(int(charts::palette_marker(i)));
    EXPECT_NE(charts::palette_color(i), charts::palette_wrong());
  }
  EXPECT_EQ(colours.size(), 24);
  EXPECT_EQ(pairs.size(), 24);
  // Slots 12 apart (a 12-colour view's repeats) never share a shape.
  for (int i = 0; i < 12; ++i) EXPECT_NE(charts::palette_marker(i), charts::palette_marker(i + 12));
}

TEST(AppReadability, TheLegendWrapsAndNeverCutsAnEntry) {
  for (const QSize size : {QSize(900, 600), QSize(1024, 768), QSize(640, 700)}) {
    charts::ChartWidget w;
    w.resize(size);
    w.show();
    w.set_chart(many_lines(24));
    QCoreApplication::processEvents();
    EXPECT_TRUE(w.cut_text().isEmpty())
        << size.width() << ": " << w.cut_text().join(" | ").toStdString();
    // A click on an entry still hides its line.
    w.toggle_series(w.chart().series[23].name);
    EXPECT_FALSE(w.series_visible(w.chart().series[23].name));
  }
}

TEST(AppReadability, PercentOfTheReadFloorOnlyWhereOneWasMeasured) {
  const std::optional<rl::Session> h200 = bundled();
  if (!h200) GTEST_SKIP() << "no bundled session here";
  SessionStore store;
  store.set_primary(*h200, "bundled session");
  const charts::Chart gbps = store.chart("bandwidth_vs_size");
  ASSERT_FALSE(gbps.empty());
  EXPECT_TRUE(gbps.pct_of_limit_available);
  store.set_pct_of_limit("bandwidth_vs_size", true);
  const charts::Chart pct = store.chart("bandwidth_vs_size");
  EXPECT_TRUE(pct.pct_of_limit);
  EXPECT_TRUE(pct.y.title.contains("% of the read floor")) << pct.y.title.toStdString();
  int checked = 0;
  for (const charts::Series& s : pct.series)
    for (const charts::Point& p : s.points)
      if (s.kind == charts::SeriesKind::Line && p.source) {
        const rl::PointResult* r = nullptr;
        for (const rl::PointResult& x : h200->results)
          if (x.point == *p.source) r = &x;
        ASSERT_NE(r, nullptr);
        const rl::ReadFloor* f = rl::find_read_floor(h200->read_floors, rl::input_bytes(r->point));
        ASSERT_NE(f, nullptr);
        EXPECT_NEAR(p.y, *rl::pct_of_read_floor(*r, *f, rl::TimeBasis::Whole), 1e-9);
        ++checked;
      }
  EXPECT_GT(checked, 5);
  // No floor, no % view: the toggle says why instead of inventing a roof.
  SessionStore plain;
  plain.set_primary(test::sample_session(), "s.json");
  const charts::Chart none = plain.chart("bandwidth_vs_unroll");
  EXPECT_FALSE(none.pct_of_limit_available);
  EXPECT_TRUE(none.pct_of_limit_note.contains("no session shown measured a read floor"));
  charts::ChartWidget w;
  w.set_chart(none);
  EXPECT_TRUE(w.pct_of_limit_action()->isVisible());
  EXPECT_FALSE(w.pct_of_limit_action()->isEnabled());
  EXPECT_TRUE(w.pct_of_limit_action()->text().contains("read floor"));
}

TEST(AppReadability, PresentationIsHighContrastByDefaultAndHTogglesIt) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session(), "s.json");
  w.present();
  PresentationView* p = w.presentation();
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->high_contrast());
  QTest::keyClick(p, Qt::Key_H);
  EXPECT_FALSE(p->high_contrast());
  QTest::keyClick(p, Qt::Key_Escape);
  QCoreApplication::processEvents();
  w.present();  // remembered while the window lives (and in the settings)
  ASSERT_NE(w.presentation(), nullptr);
  EXPECT_FALSE(w.presentation()->high_contrast());
  w.presentation()->close();
  QCoreApplication::processEvents();
}

// The desk's view: the ladder charts of the bundled session (15 rungs) at the sizes a chart gets
// in a 1366x768 and a 1920x1080 window, every category label whole (Qt Charts cuts a turned
// label whose lines stand wider together than its slot). Below about 800 px wide, 15 rungs'
// names no longer fit whole in any font the app uses (measured: 700x330 cuts
// "cluster_single_pass U=4").
TEST(AppReadability, TheLadderChartsAtADeskDrawEveryLabelWhole) {
  const std::optional<rl::Session> h200 = bundled();
  if (!h200) GTEST_SKIP() << "no bundled session here";
  SessionStore store;
  store.set_primary(*h200, "bundled session");
  for (const char* id : {"ladder_speedup", "ladder_time", "ladder_counts", "ladder_barrier_stall",
                         "ladder_barriers_stall", "ladder_stall_reasons"}) {
    const charts::Chart chart = store.chart(id);
    ASSERT_FALSE(chart.empty()) << id;
    for (const QSize size : {QSize(860, 360), QSize(1400, 450)}) {
      charts::ChartWidget w;
      w.resize(size);
      w.show();
      w.set_chart(chart);
      for (int pass = 0; pass < 3; ++pass) QCoreApplication::processEvents();
      EXPECT_TRUE(w.cut_text().isEmpty()) << id << " at " << size.width() << "x" << size.height()
                                          << ": " << w.cut_text().join(" | ").toStdString();
    }
  }
}

// Every page as a room sees it: 1024x768 and 4K, the room's text size, the high-contrast look,
// every label, title and legend entry drawn whole (not elided, not past the chart's edge).
TEST(AppReadability, EveryPresentationPageDrawsEveryLabelWhole) {
  std::optional<rl::Session> h200 = bundled();
  if (!h200) GTEST_SKIP() << "no bundled session here";
  SessionStore store;
  store.set_primary(test::sample_session("NVIDIA A100"), "a.json");
  store.set_primary(*h200, "bundled session");  // two open: the comparison pages too
  const QFont app_font = QApplication::font();
  for (const QSize screen : {QSize(1024, 768), QSize(3840, 2160)}) {
    auto* view = new PresentationView(&store, 1.0);
    view->resize(screen);
    view->show();
    view->start();
    // The room's size for this screen, whatever screen the test machine has.
    QFont room = app_font;
    room.setPointSizeF(presentation_point_size(screen.height(), 1.0));
    QApplication::setFont(room);
    ASSERT_GE(view->pages().size(), 5);
    for (int i = 0; i < int(view->pages().size()); ++i) {
      view->show_page(i);
      // As a screen would: the layout settles over a few passes (legend, then the axis titles).
      for (int pass = 0; pass < 3; ++pass) QCoreApplication::processEvents();
      const QStringList cut = view->chart_widget()->cut_text();
      EXPECT_TRUE(cut.isEmpty()) << view->pages()[i].toStdString() << " at " << screen.width()
                                 << "x" << screen.height() << ": " << cut.join(" | ").toStdString();
    }
    view->close();
    QCoreApplication::processEvents();
  }
  QApplication::setFont(app_font);
}
