// Every kind of chart (lines on log or linear axes, bars side by side, stacked or lying down,
// roofs, a map of cells) with awkward numbers: zeros, negatives, NaN, infinities, values of every
// magnitude, one point, equal points, wrong and noisy points; shown, updated in place, resized, at
// text sizes from a laptop's to a room's, with series hidden and the value axis made logarithmic.
// The chart layer draws or leaves out each number and never crashes, hangs or gives an axis a
// range that is not finite. Chart data comes from sessions a person may open, so none of these
// numbers can be ruled out upstream alone.
#include <gtest/gtest.h>

#include <QApplication>

#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "chart_test_support.h"

using namespace rl::gui::charts;
using namespace rl::gui::charts::test;

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

// A series of this kind with a point at each x, of awkward values.
Series series(std::mt19937& rng, SeriesKind kind, const QString& name, const QList<double>& xs) {
  Series s;
  s.kind = kind;
  s.name = name;
  for (double x : xs) s.points.append(point(rng, x));
  return s;
}

Chart titled(const QString& id, AxisScale x, AxisScale y) {
  Chart c;
  c.id = id;
  c.title = id;
  c.x.scale = x;
  c.y.scale = y;
  return c;
}

Chart lines(std::mt19937& rng) {
  const AxisScale x = rng() % 2 ? AxisScale::Log2 : AxisScale::Linear;
  Chart c = titled("awkward_lines", x,
                   std::array{AxisScale::Auto, AxisScale::Linear, AxisScale::Log10}[rng() % 3]);
  const int lines = 1 + int(rng() % 4), n = int(rng() % 12);
  for (int j = 0; j < lines; ++j) {
    QList<double> xs;
    for (int i = 0; i < n; ++i) xs << (rng() % 8 == 0 ? awkward(rng) : std::ldexp(1.0, 5 + i));
    c.series.append(series(rng, SeriesKind::Line, QString("line %1").arg(j), xs));
    c.series.back().dashed = j % 2;
  }
  if (rng() % 2) c.series.append(series(rng, SeriesKind::Roof, "floor", {0}));
  return c;
}

Chart bars(std::mt19937& rng) {
  Chart c = titled("awkward_bars", AxisScale::Category, AxisScale::Linear);
  c.stacked = rng() % 4 == 0;
  const int n = int(rng() % 28), sets = 1 + int(rng() % 3);
  for (int i = 0; i < n; ++i) c.x.categories << QString("rung_with_a_long_name_%1").arg(i);
  for (int j = 0; j < sets; ++j) {
    QList<double> xs;  // a category without a bar now and then
    for (int i = 0; i < n; ++i)
      if (rng() % 6) xs << i;
    c.series.append(series(rng, SeriesKind::Bars, QString("set %1").arg(j), xs));
  }
  return c;
}

// The strategy map: cells on two log2 axes, now and then at an awkward place.
Chart cells(std::mt19937& rng) {
  Chart c = titled("awkward_map", AxisScale::Log2, AxisScale::Log2);
  auto place = [&] { return rng() % 6 == 0 ? awkward(rng) : double(rng() % 25); };
  for (int j = 0; j < 1 + int(rng() % 4); ++j) {
    QList<double> xs;
    for (int i = 0; i < int(rng() % 10); ++i) xs << place();
    c.series.append(series(rng, SeriesKind::Cells, QString("strategy %1").arg(j), xs));
    for (Point& p : c.series.back().points) p.y = place();
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

void expect_finite_axes(ChartWidget& w, int round) {
  for (const QValueAxis* v : value_axes(w))
    EXPECT_TRUE(std::isfinite(v->min()) && std::isfinite(v->max())) << round;
}

}  // namespace

TEST(ChartAwkwardNumbers, EveryKindDrawsOrLeavesOutEachNumber) {
  std::mt19937 rng(4097);
  std::uniform_int_distribution<int> width(120, 1900), height(90, 1060), pt(7, 32);
  const QFont base = QApplication::font();
  ChartWidget w;
  for (int round = 0; round < 80; ++round) {
    const double text_pt = pt(rng);
    Chart c = any_chart(rng);
    show_at(w, c, QSize{width(rng), height(rng)}, text_pt, base);
    if (!c.series.isEmpty() && rng() % 3 == 0) w.toggle_series(c.series[0].name);
    if (rng() % 3 == 0) w.set_value_log(rng() % 2 == 0);
    // The same series with new numbers: updated in place.
    std::mt19937 again(round);
    for (Series& s : c.series)
      for (Point& p : s.points) p.y = awkward(again);
    w.set_chart(c);
    w.resize(QSize{width(rng), height(rng)});
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
