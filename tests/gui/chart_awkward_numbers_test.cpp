// Every kind of chart (lines on log or linear axes, bars side by side, stacked or lying down,
// roofs, a map of cells) with awkward numbers: zeros, negatives, NaN, infinities, values of every
// magnitude, one point, equal points, wrong and noisy points; shown, updated in place, resized, at
// text sizes from a laptop's to a room's, with series hidden and the value axis made logarithmic.
// The chart layer draws or leaves out each number and never crashes, hangs or gives an axis a
// range that is not finite. Chart data comes from sessions a person may open, so none of these
// numbers can be ruled out upstream alone.
#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <limits>
#include <random>

#include "charts/chart_widget.h"

using namespace rl::gui::charts;

namespace {

double awkward(std::mt19937& rng) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {0.0, -1.0, std::nan(""), inf, -inf, 1e-300, 1e300, 1.0, 1.0 + 1e-15};
  if (rng() % 4 == 0) return specials[rng() % std::size(specials)];
  return std::pow(10.0, std::uniform_real_distribution<double>(-9, 12)(rng));
}

Point point(std::mt19937& rng, double x) {
  Point p;
  p.x = x;
  p.y = awkward(rng);
  if (rng() % 3 == 0) p.lo = p.y * 0.9, p.hi = rng() % 5 == 0 ? awkward(rng) : p.y * 1.1;
  p.wrong = rng() % 9 == 0;
  p.noisy = rng() % 7 == 0;
  p.label = rng() % 2 ? QString("%1").arg(p.y, 0, 'g', 3) : QString("×%1\nstep ×2").arg(p.y);
  p.tooltip = p.label;
  return p;
}

Chart lines(std::mt19937& rng) {
  Chart c;
  c.id = "awkward_lines";
  c.title = "Lines";
  c.x.scale = rng() % 2 ? AxisScale::Log2 : AxisScale::Linear;
  c.y.scale = std::array{AxisScale::Auto, AxisScale::Linear, AxisScale::Log10}[rng() % 3];
  const int series = 1 + int(rng() % 4), n = int(rng() % 12);
  for (int j = 0; j < series; ++j) {
    Series s;
    s.name = QString("line %1").arg(j);
    s.dashed = j % 2;
    for (int i = 0; i < n; ++i)
      s.points.append(point(rng, rng() % 8 == 0 ? awkward(rng) : std::ldexp(1.0, 5 + i)));
    c.series.append(s);
  }
  if (rng() % 2) {
    Series roof;
    roof.name = "floor";
    roof.kind = SeriesKind::Roof;
    roof.points.append(point(rng, 0));
    c.series.append(roof);
  }
  return c;
}

Chart bars(std::mt19937& rng) {
  Chart c;
  c.id = "awkward_bars";
  c.title = "Bars";
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  c.stacked = rng() % 4 == 0;
  const int n = int(rng() % 28), sets = 1 + int(rng() % 3);
  for (int i = 0; i < n; ++i) c.x.categories << QString("rung_with_a_long_name_%1").arg(i);
  for (int j = 0; j < sets; ++j) {
    Series s;
    s.kind = SeriesKind::Bars;
    s.name = QString("set %1").arg(j);
    for (int i = 0; i < n; ++i)
      if (rng() % 6) s.points.append(point(rng, i));
    c.series.append(s);
  }
  return c;
}

Chart cells(std::mt19937& rng) {
  Chart c;
  c.id = "awkward_map";
  c.title = "Map";
  c.x.scale = AxisScale::Log2;
  c.y.scale = AxisScale::Log2;
  for (int j = 0; j < 1 + int(rng() % 4); ++j) {
    Series s;
    s.kind = SeriesKind::Cells;
    s.name = QString("strategy %1").arg(j);
    for (int i = 0; i < int(rng() % 10); ++i) {
      Point p = point(rng, rng() % 6 == 0 ? awkward(rng) : double(rng() % 25));
      p.y = rng() % 6 == 0 ? awkward(rng) : double(rng() % 25);
      s.points.append(p);
    }
    c.series.append(s);
  }
  return c;
}

Chart any_chart(std::mt19937& rng) {
  switch (rng() % 3) {
    case 0:
      return lines(rng);
    case 1:
      return bars(rng);
    default:
      return cells(rng);
  }
}

void settle() {
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
  QTest::qWait(10);
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

void expect_finite_axes(ChartWidget& w, int round) {
  auto* view = w.findChild<QChartView*>();
  ASSERT_TRUE(view && view->chart());
  for (QAbstractAxis* a : view->chart()->axes())
    if (auto* v = qobject_cast<QValueAxis*>(a))
      EXPECT_TRUE(std::isfinite(v->min()) && std::isfinite(v->max())) << round;
}

}  // namespace

TEST(ChartAwkwardNumbers, EveryKindDrawsOrLeavesOutEachNumber) {
  std::mt19937 rng(4097);
  std::uniform_int_distribution<int> width(120, 1900), height(90, 1060), pt(7, 32);
  const QFont base = QApplication::font();
  ChartWidget w;
  w.show();
  for (int round = 0; round < 80; ++round) {
    QFont f = base;
    f.setPointSizeF(pt(rng));
    QApplication::setFont(f);
    Chart c = any_chart(rng);
    w.set_chart(c);
    w.resize(width(rng), height(rng));
    settle();
    if (!c.series.isEmpty() && rng() % 3 == 0) w.toggle_series(c.series[0].name);
    if (rng() % 3 == 0) w.set_value_log(rng() % 2 == 0);
    // The same series with new numbers: updated in place.
    std::mt19937 again(round);
    for (Series& s : c.series)
      for (Point& p : s.points) p.y = awkward(again);
    w.set_chart(c);
    w.resize(width(rng), height(rng));
    settle();
    expect_finite_axes(w, round);
    w.set_value_log(std::nullopt);
    (void)w.cut_text();
    (void)w.grab_image();
  }
  QApplication::setFont(base);
}

// The same charts drawn for export, without a window or an event loop turn.
TEST(ChartAwkwardNumbers, ExportsOfEveryKindAreDrawn) {
  std::mt19937 rng(65520);
  for (int round = 0; round < 60; ++round) {
    const QImage image = render_chart(any_chart(rng), QSize(200 + int(rng() % 1800), 640));
    EXPECT_FALSE(image.isNull()) << round;
  }
}
