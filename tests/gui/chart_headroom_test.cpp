// Bar charts raise their value axis so that every bar's label stays inside the plot. A new range
// gives the axis new tick labels, and Qt Charts lays the chart out again inside setRange itself
// when their width changes: raising the axis from that layout nested one range change in another,
// and on some numbers the axis and its domain then passed stale ranges back and forth until the
// stack ran out (a crash seen in presentation mode after a host run). These charts, with numbers
// of every magnitude, at the sizes and text sizes a window and a room give them, settle on a
// finite range with every label inside the plot.
#include <gtest/gtest.h>

#include <QApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>

#include <cmath>
#include <random>

#include "chart_test_support.h"
#include "charts/chart_scene.h"

using namespace rl::gui::charts;
using namespace rl::gui::charts::test;

namespace {

// A ladder-like bar chart: 2 to 27 categories, one to three bar sets, labels of one or two lines
// ("×11.6" / "step ×1.92", "0.125 ms"), values from 10^-3 to 10^4.
Chart random_bars(std::mt19937& rng) {
  std::uniform_int_distribution<int> categories(2, 27), sets(1, 3), lines(1, 2);
  std::uniform_real_distribution<double> decade(-3, 4);
  Chart c;
  c.id = "headroom";
  c.title = "Random bars";
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  c.y.title = "value";
  const int n = categories(rng);
  for (int i = 0; i < n; ++i) c.x.categories << QString("rung %1").arg(i);
  const int k = sets(rng), label_lines = lines(rng);
  for (int j = 0; j < k; ++j) {
    Series s;
    s.kind = SeriesKind::Bars;
    s.name = QString("set %1").arg(j);
    for (int i = 0; i < n; ++i) {
      Point p;
      p.x = i;
      p.y = std::pow(10.0, decade(rng));
      p.label = label_lines == 1 ? QString("%1 ms").arg(p.y, 0, 'g', 3)
                                 : QString("×%1\nstep ×%2").arg(p.y, 0, 'g', 3).arg(1.5, 0, 'f', 2);
      s.points.append(p);
    }
    c.series.append(s);
  }
  return c;
}

// Eight bars of 1 to 8 whose labels are long enough to stand turned on their bars: the tallest
// one's label needs the axis raised well past the 8 x 1.18 it starts from.
Chart tall_labels() {
  Chart c;
  c.id = "tall_labels";
  c.title = "Turned labels";
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  Series s;
  s.kind = SeriesKind::Bars;
  s.name = "time";
  for (int i = 0; i < 8; ++i) {
    c.x.categories << QString("rung %1").arg(i);
    Point p;
    p.x = i;
    p.y = i + 1;
    p.label = QString("%1.000 ms, 1.5 GB/s").arg(i + 1);
    s.points.append(p);
  }
  c.series.append(s);
  return c;
}

}  // namespace

TEST(ChartHeadroom, BarLabelsSettleAtEverySizeAndTextSize) {
  std::mt19937 rng(20261206);
  std::uniform_int_distribution<int> width(260, 1900), height(180, 1060), pt(8, 32);
  const QFont base = QApplication::font();
  ChartWidget w;
  for (int round = 0; round < 100; ++round) {
    const double text_pt = pt(rng);
    const Chart chart = random_bars(rng);
    show_at(w, chart, QSize{width(rng), height(rng)}, text_pt, base);
    w.resize(QSize{width(rng), height(rng)});
    settle();
    const QList<QValueAxis*> axes = value_axes(w);
    ASSERT_EQ(axes.size(), 1);
    ASSERT_TRUE(std::isfinite(axes[0]->min()) && std::isfinite(axes[0]->max())) << round;
    EXPECT_LT(axes[0]->min(), axes[0]->max()) << round;
  }
  QApplication::setFont(base);
}

// In a window the raise comes from the event loop; every label then stands inside the plot.
TEST(ChartHeadroom, TheTallestBarsLabelFitsUnderTheRaisedAxisInAWindow) {
  ChartWidget w;
  show_at(w, tall_labels(), QSize(900, 520), QApplication::font().pointSizeF(),
          QApplication::font());
  const QList<QValueAxis*> axes = value_axes(w);
  ASSERT_EQ(axes.size(), 1);
  EXPECT_GT(axes[0]->max(), 8 * 1.18 * 1.05);
  EXPECT_TRUE(w.cut_text().isEmpty()) << w.cut_text().join("\n").toStdString();
}

// A chart drawn for export has no event loop turn: the layout applies the raise itself.
TEST(ChartHeadroom, AChartLaidOutForExportRaisesItsAxisWithoutTheEventLoop) {
  QGraphicsScene scene;
  auto* chart = new QChart;  // owned by the scene
  scene.addItem(chart);
  ChartScene built(tall_labels(), chart);
  built.fit_legend(900);
  chart->setGeometry(QRectF(0, 0, 900, 520));
  chart->layout()->activate();
  EXPECT_TRUE(built.apply_pending_raise());
  const QList<QValueAxis*> axes = value_axes(chart);
  ASSERT_EQ(axes.size(), 1);
  EXPECT_GT(axes[0]->max(), 8 * 1.18 * 1.05);
  for (int round = 0; round < 4; ++round) {
    chart->layout()->activate();
    built.apply_pending_raise();
  }
  EXPECT_FALSE(built.apply_pending_raise()) << "the layouts settle";
}
