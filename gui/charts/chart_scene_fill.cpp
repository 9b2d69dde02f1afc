// ChartScene's numbers: points into the Qt Charts series (one bulk replace per series), axis
// ranges and ticks, roof lines across the plot, bar labels, warnings (the overlays are placed by
// chart_scene_overlays.cpp).
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

#include "charts/chart_axes.h"
#include "charts/chart_scene.h"
#include "charts/palette.h"

namespace rl::gui::charts {

using namespace detail;

void ChartScene::fill() {
  clear_overlays();
  if (data_.empty()) {
    if (!warning_lines_.isEmpty()) {  // an empty chart says why in its hint, not in warnings
      warning_lines_.clear();
      fit_title(title_width_ > 0 ? title_width_ : chart_->size().width());
    }
    place_overlays();
    return;
  }
  const Scale xs = resolve_x(data_), ys = resolve_y(data_);
  Extent e;
  QList<QPointF> wrong_xy;
  int dropped = 0;
  for (int i = 0; i < data_.series.size(); ++i) fill_series(i, xs, ys, e, wrong_xy, dropped);
  if (data_.stacked) {  // the value axis reaches the tallest stack, not the tallest layer
    std::map<double, double> stack;
    for (const Series& s : data_.series)
      for (const Point& p : s.points)
        if (std::isfinite(p.y) && p.y > 0) e.grow(NAN, stack[p.x] += p.y);
  }
  if (wrong_series_) static_cast<QScatterSeries*>(wrong_series_)->replace(wrong_xy);
  drawn_points_ += wrong_xy.size();
  if (!std::isfinite(e.xmin)) e.xmin = xs == Scale::Log2 ? 0 : 0, e.xmax = 1;
  if (!std::isfinite(e.ymin)) e.ymin = ys == Scale::Log10 ? 1 : 0, e.ymax = 1;
  double x_lo = e.xmin, x_hi = e.xmax;
  set_x_axis(xs, e, &x_lo, &x_hi);
  set_y_axis(ys, e);
  draw_roofs(ys, x_lo, x_hi);
  add_bar_labels();
  show_warnings(ys, dropped);
  place_overlays();
}

void ChartScene::clear_overlays() {
  drawn_points_ = 0;
  fitted_width_ = -1;  // place_overlays() fits the labels afresh to the new numbers
  wrong_points_.clear();
  qDeleteAll(bar_labels_);
  bar_labels_.clear();
  qDeleteAll(noisy_hatches_);
  noisy_hatches_.clear();
  qDeleteAll(cell_rects_);
  cell_rects_.clear();
  qDeleteAll(cell_labels_);
  cell_labels_.clear();
  cell_points_.clear();
  empty_hint_->setPlainText(data_.empty() ? data_.empty_hint : QString());
}

// Analysis of series i: which points can be drawn on these scales (in x order), the extent they
// span, the wrong ones (drawn apart) and those dropped; then the drawing.
void ChartScene::fill_series(int i, Scale xs, Scale ys, Extent& e, QList<QPointF>& wrong_xy,
                             int& dropped) {
  const Series& s = data_.series[i];
  Drawn* d = drawn_[i];
  d->shown.clear();
  if (s.kind == SeriesKind::Roof) {
    if (!s.points.isEmpty() && usable(s.points[0].y, ys)) e.grow(NAN, s.points[0].y);
    return;
  }
  for (int k = 0; k < s.points.size(); ++k) {
    const Point& p = s.points[k];
    if (!usable(p.x, xs) || !usable(p.y, ys)) {
      ++dropped;
      continue;
    }
    e.grow(tx(p.x, xs), tx(p.y, ys));
    if (s.kind == SeriesKind::Line && p.has_spread() && usable(p.lo, ys))
      e.grow(NAN, p.lo), e.grow(NAN, p.hi);
    if (p.wrong && s.kind == SeriesKind::Line) {
      wrong_points_.append({i, k});
      wrong_xy.append(QPointF(tx(p.x, xs), p.y));
      continue;
    }
    d->shown.append(k);
  }
  std::sort(d->shown.begin(), d->shown.end(),
            [&](int a, int b) { return s.points[a].x < s.points[b].x; });
  if (s.kind == SeriesKind::Bars)
    draw_bars(s, *d);
  else if (s.kind == SeriesKind::Cells)
    draw_cells(i, xs, ys);
  else
    draw_line(s, *d, xs, ys);
}

void ChartScene::draw_bars(const Series& s, Drawn& d) {
  QList<qreal> values(data_.x.categories.size(), 0.0);
  for (int k : d.shown)
    if (int(s.points[k].x) >= 0 && int(s.points[k].x) < values.size() && !s.points[k].wrong)
      values[int(s.points[k].x)] = s.points[k].y;
  d.bar->remove(0, d.bar->count());
  d.bar->append(values);
  drawn_points_ += d.shown.size();
}

void ChartScene::draw_line(const Series& s, Drawn& d, Scale xs, Scale ys) {
  QList<QPointF> line, upper, lower;
  for (int k : d.shown) {
    const Point& p = s.points[k];
    line.append(QPointF(tx(p.x, xs), p.y));
    const bool spread = p.has_spread() && usable(p.lo, ys);
    upper.append(QPointF(tx(p.x, xs), spread ? p.hi : p.y));
    lower.append(QPointF(tx(p.x, xs), spread ? p.lo : p.y));
  }
  d.line->replace(line);  // one bulk update, not a signal per point
  if (d.upper) d.upper->replace(upper), d.lower->replace(lower);
  drawn_points_ += line.size();
}

// x axis range and ticks; *x_lo, *x_hi: the range set.
void ChartScene::set_x_axis(Scale xs, const Extent& e, double* x_lo, double* x_hi) {
  QAbstractAxis* xa = chart_->axes(Qt::Horizontal).value(0);
  const double xmin = e.xmin, xmax = e.xmax;
  if (xs == Scale::Log2) {
    const int k0 = int(std::floor(xmin + 1e-9)), k1 = int(std::ceil(xmax - 1e-9));
    // A map's cells are a power of two wide: half of one past the first and last.
    const bool cells = std::any_of(data_.series.begin(), data_.series.end(),
                                   [](const Series& s) { return s.kind == SeriesKind::Cells; });
    const double pad = cells ? 0.5 : 0.3;
    *x_lo = k0 - pad, *x_hi = (cells ? k1 : std::max(k1, k0 + 1)) + pad;
    if (k1 == k0 && !cells) *x_lo = k0 - 1.3;
    auto* cat = static_cast<QCategoryAxis*>(xa);
    for (const QString& l : cat->categoriesLabels()) cat->remove(l);
    cat->setStartValue(*x_lo);
    const int step = std::max(1, (k1 - k0 + 11) / 12);
    for (int k = k0; k <= k1; k += step) cat->append(tick_label(k, data_.x.ticks), k);
    cat->setRange(*x_lo, *x_hi);
  } else if (xs == Scale::Linear) {
    const double pad = xmax > xmin ? (xmax - xmin) * 0.05 : 1;
    *x_lo = xmin - pad, *x_hi = xmax + pad;
    static_cast<QValueAxis*>(xa)->setRange(*x_lo, *x_hi);
  } else {
    *x_lo = -0.5, *x_hi = data_.x.categories.size() - 0.5;
  }
}

void ChartScene::set_y_axis(Scale ys, const Extent& e) {
  QAbstractAxis* ya = value_axis();
  if (ys == Scale::Log2) {  // a map's rows: a cell's half height past the first and last
    auto* cat = static_cast<QCategoryAxis*>(ya);
    const int k0 = int(std::floor(e.ymin + 1e-9)), k1 = int(std::ceil(e.ymax - 1e-9));
    for (const QString& l : cat->categoriesLabels()) cat->remove(l);
    cat->setStartValue(k0 - 0.5);
    const int step = std::max(1, (k1 - k0 + 9) / 10);
    for (int k = k0; k <= k1; k += step) cat->append(tick_label(k, data_.y.ticks), k);
    cat->setRange(k0 - 0.5, k1 + 0.5);
  } else if (ys == Scale::Log10) {
    double lo = std::pow(10.0, std::floor(std::log10(e.ymin))),
           hi = std::pow(10.0, std::ceil(std::log10(e.ymax)));
    if (hi <= lo) hi = lo * 10;
    // A hair wider than the decades, so the end ticks are not lost to rounding.
    static_cast<QLogValueAxis*>(ya)->setRange(lo * 0.999, hi * 1.001);
  } else {
    auto* lin = static_cast<QValueAxis*>(ya);
    value_top_ =
        e.ymax > 0 ? e.ymax * (data_.series.value(0).kind == SeriesKind::Bars ? 1.18 : 1.08) : 1;
    applied_top_ = -1;  // place_overlays() may raise it for the bar labels
    headroom_changes_ = 0;
    set_nice_range(lin, std::min(0.0, e.ymin * 1.1), value_top_);
  }
}

// Roof lines span the whole x range.
void ChartScene::draw_roofs(Scale ys, double x_lo, double x_hi) {
  for (int i = 0; i < data_.series.size(); ++i) {
    const Series& s = data_.series[i];
    if (s.kind != SeriesKind::Roof || s.points.isEmpty()) continue;
    const double y = s.points[0].y;
    drawn_[i]->line->replace(usable(y, ys) ? QList<QPointF>{{x_lo, y}, {x_hi, y}}
                                           : QList<QPointF>{});
  }
}

// A label over every drawn bar, and a hatch over the noisy ones (placed by place_overlays()).
void ChartScene::add_bar_labels() {
  for (int i = 0; i < data_.series.size(); ++i) {
    const Series& s = data_.series[i];
    if (s.kind != SeriesKind::Bars) continue;
    for (int k : drawn_[i]->shown) {
      // Beside a horizontal bar a label reads on one line ("×11.6 · step ×1.92"): a second line
      // would ask the bar to be twice as thick.
      const QString text = data_.horizontal_bars ? QString(s.points[k].label).replace('\n', " · ")
                                                 : s.points[k].label;
      auto* item = new QGraphicsSimpleTextItem(text, chart_);
      item->setFont(scaled_font(-1.5, s.points[k].wrong));
      item->setBrush(s.points[k].wrong ? palette_wrong() : QColor(40, 40, 40));
      item->setZValue(15);
      item->setData(0, i);
      item->setData(1, k);
      // Shown once place_overlays() has put it over its bar: until then (or on a chart whose
      // bars it cannot place, such as stacked ones) it would stand at the card's corner.
      item->setVisible(false);
      bar_labels_.append(item);
      if (s.points[k].noisy && !s.points[k].wrong) {
        auto* hatch = new QGraphicsRectItem(chart_);
        hatch->setBrush(QBrush(QColor(0, 0, 0, 150), Qt::BDiagPattern));
        hatch->setPen(Qt::NoPen);
        hatch->setZValue(14);
        hatch->setData(0, i);
        hatch->setData(1, k);
        noisy_hatches_.append(hatch);
      }
    }
  }
}

// The chart's warnings and the points the log scale could not draw, at most three, under the
// title (fit_title).
void ChartScene::show_warnings(Scale ys, int dropped) {
  QStringList warnings = data_.warnings;
  if (dropped > 0 && ys == Scale::Log10)
    warnings.append(
        QString("%1 value(s) at or below zero are not drawn on the log scale").arg(dropped));
  if (warnings.size() > 3) {
    const int more = warnings.size() - 2;
    warnings = warnings.mid(0, 2);
    warnings.append(QString("and %1 more warnings").arg(more));
  }
  if (warnings == warning_lines_) return;
  warning_lines_ = warnings;
  fit_title(title_width_ > 0 ? title_width_ : chart_->size().width());
}

}  // namespace rl::gui::charts
