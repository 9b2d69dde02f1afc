// A chart with many lines stays readable: a click on a legend entry hides its
// series and a second one brings it back, kept while the chart updates; the value axis can be
// made linear or logarithmic by the person, for line charts only.
#include <gtest/gtest.h>

#include "charts/chart_widget.h"

using namespace rl::gui::charts;

namespace {

Chart lines(double scale = 1) {
  Chart c;
  c.id = "test_lines";
  c.title = "Three lines";
  c.x.scale = AxisScale::Log2;
  c.y.scale = AxisScale::Auto;
  for (int k = 0; k < 3; ++k) {
    Series s;
    s.kind = SeriesKind::Line;
    s.name = QString("series %1").arg(k);
    for (int i = 0; i < 5; ++i) {
      Point p;
      p.x = double(1 << (10 + i));
      p.y = scale * (k + 1) * std::pow(10.0, i * 0.75);  // 1 .. 1000: log10 by Auto
      s.points.append(p);
    }
    c.series.append(s);
  }
  return c;
}

}  // namespace

TEST(AppChartToggles, LegendEntriesHideAndShowTheirSeriesAcrossUpdates) {
  ChartWidget w;
  w.resize(900, 600);
  w.set_chart(lines());
  EXPECT_TRUE(w.series_visible("series 1"));
  w.toggle_series("series 1");
  EXPECT_FALSE(w.series_visible("series 1"));
  EXPECT_TRUE(w.series_visible("series 0"));
  EXPECT_TRUE(w.hidden_series().contains("series 1"));
  w.set_chart(lines(1.5));  // new numbers, same series: updated in place
  EXPECT_FALSE(w.series_visible("series 1"));
  Chart renamed = lines();
  renamed.title = "Rebuilt";
  renamed.series.removeLast();  // another shape: rebuilt
  w.set_chart(renamed);
  EXPECT_FALSE(w.series_visible("series 1"));
  w.toggle_series("series 1");
  EXPECT_TRUE(w.series_visible("series 1"));
  EXPECT_TRUE(w.hidden_series().isEmpty());
}

TEST(AppChartToggles, TheValueAxisIsThePersonsChoiceForLineCharts) {
  ChartWidget w;
  w.resize(900, 600);
  w.set_chart(lines());
  EXPECT_TRUE(w.value_axis_is_log());  // Auto: the values span 1000x
  w.set_value_log(false);
  EXPECT_FALSE(w.value_axis_is_log());
  EXPECT_EQ(w.chart().y.scale, AxisScale::Linear);
  w.set_chart(lines(2));  // the choice stays while the chart updates
  EXPECT_FALSE(w.value_axis_is_log());
  w.set_value_log(true);
  EXPECT_TRUE(w.value_axis_is_log());
  w.set_value_log(std::nullopt);
  EXPECT_EQ(w.chart().y.scale, AxisScale::Auto);
  // Bars keep their linear axis whatever is asked.
  Chart bars = lines();
  for (Series& s : bars.series) s.kind = SeriesKind::Bars;
  bars.x.scale = AxisScale::Category;
  bars.x.categories = {"a", "b", "c", "d", "e"};
  for (Series& s : bars.series)
    for (int i = 0; i < s.points.size(); ++i) s.points[i].x = i;
  bars.y.scale = AxisScale::Linear;
  w.set_value_log(true);
  w.set_chart(bars);
  EXPECT_EQ(w.chart().y.scale, AxisScale::Linear);
  EXPECT_FALSE(w.value_axis_is_log());
}
