// The room a chart asks of the page that holds it. Qt Charts draws what it is given: a legend of
// thirty series at a laptop's width leaves the plot a few pixels tall and cuts the value axis's
// ticks and title to "..."; a bottom axis gets at most 0.4 of the chart's height and cuts turned
// category names longer than that. The chart works out the height that avoids both; the page
// (gui/charts_panel.cpp) gives it that height and scrolls.
#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>

#include <algorithm>
#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_scene.h"

namespace rl::gui::charts {

using namespace detail;

// How much taller the chart must be for its bottom axis to hold the turned category names whole;
// below zero, how much shorter it could be (a chart grown for a larger font gives the room back).
// Qt Charts gives the axis its labels' length, 4 px of padding, its title and 2 x 2 px around
// that, but never more than 0.4 of the height below the title and inside the chart's margins
// and its layout's; the plot's top stands a few pixels under that height's top.
double ChartScene::axis_shortfall(const QRectF& plot) const {
  const QAbstractAxis* x = chart_->axes(Qt::Horizontal).value(0);
  if (!x || turned_length_ <= 0) return 0;
  const double title =
      x->titleText().isEmpty() ? 0 : label_size(x->titleText(), x->titleFont()).height() + 4;
  const double axis = turned_length_ + 4 + title + 3;
  qreal left = 0, top = 0, right = 0, bottom = 0;  // the chart layout's own margins
  if (chart_->layout()) chart_->layout()->getContentsMargins(&left, &top, &right, &bottom);
  const double below_title =
      chart_->size().height() - bottom - chart_->margins().bottom() - plot.top() + 8;
  return axis / 0.4 - below_title + 4;
}

QAbstractAxis* ChartScene::value_axis() const {
  return chart_->axes(data_.horizontal_bars ? Qt::Horizontal : Qt::Vertical).value(0);
}

QAbstractAxis* ChartScene::category_axis() const {
  return chart_->axes(data_.horizontal_bars ? Qt::Vertical : Qt::Horizontal).value(0);
}

QPointF ChartScene::bar_position(double category, double value, QAbstractSeries* bars) const {
  return chart_->mapToPosition(
      data_.horizontal_bars ? QPointF(value, category) : QPointF(category, value), bars);
}

void ChartScene::fit_x_title(double plot_width) {
  QAbstractAxis* x = chart_->axes(Qt::Horizontal).value(0);
  if (!x || data_.horizontal_bars || data_.x.title.isEmpty() || plot_width <= 40) return;
  // Qt cuts a bottom axis's title wider than the plot ("unroll factor U (tiles each bl...").
  const QString want = wrapped_html(data_.x.title, x->titleFont(), plot_width - 8);
  if (x->titleText() != want) x->setTitleText(want);
}

void ChartScene::update_wanted_height(const QRectF& plot) {
  double wanted = 0;
  const double height = chart_->size().height();
  if (!data_.empty() && height > 0) {
    // The value axis: about a dozen lines of text, so a few ticks and its title stand whole. The
    // rest of the chart (title, legend, axes) keeps its height when the chart grows, so the
    // height it needs is what it has less the plot's shortfall.
    const double min_plot = 11 * QFontMetricsF(scaled_font(0)).height();
    double plot_needed = min_plot;
    if (data_.horizontal_bars) {
      // A row a name's height and Qt's 2 x 4 px around it, for every category and the two
      // grid lines Qt counts beside them.
      const QAbstractAxis* names = category_axis();
      const double row = QFontMetricsF(names ? names->labelsFont() : scaled_font(-1)).height();
      const int n = int(data_.x.categories.size());
      plot_needed = std::max(min_plot, (n + 2) * (row + 1 + 8) + 8);
      // And bars as thick as their value labels, drawn beside them (place_bar_labels), less the
      // 2 px a label may stand over its bar's edges.
      double label = 0;
      for (const QGraphicsSimpleTextItem* item : bar_labels_)
        label = std::max(label, item->boundingRect().height());
      int sets = 0;
      for (const Drawn* d : drawn_) sets += d->kind == SeriesKind::Bars;
      if (label > 0 && sets > 0 && !data_.stacked)
        plot_needed = std::max(plot_needed, n * sets * (label - 2) / 0.8 + 20 + 4);
    }
    wanted = std::ceil(height - std::max(0.0, plot.height()) + plot_needed);
    if (turned_length_ > 0) wanted = std::max(wanted, std::ceil(height + axis_shortfall(plot)));
  }
  if (std::abs(wanted - wanted_height_) < 2) return;
  wanted_height_ = wanted;
  emit wanted_height_changed();
}

}  // namespace rl::gui::charts
