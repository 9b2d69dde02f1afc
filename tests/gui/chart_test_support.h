// Shared helpers of the chart layer's tests: a chart shown at a size and a text size and let
// settle, and the value axes it ended with.
#pragma once

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QTest>
#include <QValueAxis>

#include "charts/chart_widget.h"
#include "event_loop_support.h"

namespace rl::gui::charts::test {

// The chart rebuilt, laid out, and its value axis raised for the bar labels: a few turns of the
// event loop.
inline void settle() {
  rl::gui::test::settle_events(20);
}

// The application's text at pt points, as presentation mode and Ctrl+= set it (every chart
// rebuilds), then the chart shown at this size.
inline void show_at(ChartWidget& w, const Chart& chart, QSize size, double pt, QFont font) {
  font.setPointSizeF(pt);
  QApplication::setFont(font);
  w.set_chart(chart);
  w.resize(size);
  w.show();
  settle();
}

inline QList<QValueAxis*> value_axes(const QChart* chart) {
  QList<QValueAxis*> axes;
  for (QAbstractAxis* a : chart->axes())
    if (auto* v = qobject_cast<QValueAxis*>(a)) axes << v;
  return axes;
}

inline QList<QValueAxis*> value_axes(ChartWidget& w) {
  auto* view = w.findChild<QChartView*>();
  return view && view->chart() ? value_axes(view->chart()) : QList<QValueAxis*>{};
}

}  // namespace rl::gui::charts::test
