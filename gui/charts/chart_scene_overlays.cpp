// ChartScene's overlays: the text, bar labels and hatches kept in place when the plot area moves
// (chart_scene_fill.cpp puts the numbers in).
#include <QAbstractBarSeries>
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
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_scene.h"
#include "charts/palette.h"

namespace rl::gui::charts {

using namespace detail;

void ChartScene::place_overlays() {
  const QRectF plot = chart_->plotArea();
  const QRectF whole = chart_->rect();
  fit_value_title(data_.horizontal_bars ? plot.width() : plot.height());
  fit_x_title(plot.width());
  if (!empty_hint_->toPlainText().isEmpty()) {
    // Prose wraps at three quarters of the width; a command line ("reductionlab-cli run --preset
    // block-sizes --counters") is widened for where the chart has room, as a wrap at its dashes
    // reads as two commands.
    double width = std::min(whole.width() * 0.75, 620.0);
    const QFontMetricsF fm(empty_hint_->font());
    const double margins = 2 * empty_hint_->document()->documentMargin() + 2;
    for (const QString& line : empty_hint_->toPlainText().split('\n'))
      if (line.startsWith("reductionlab"))
        width = std::max(width, std::min(fm.horizontalAdvance(line) + margins, whole.width() - 16));
    empty_hint_->setTextWidth(width);
    const QSizeF sz = empty_hint_->boundingRect().size();
    empty_hint_->setPos(whole.center() - QPointF(sz.width() / 2, sz.height() / 2));
  }
  place_cells(plot);
  const bool refit = refit_categories(plot);
  int bar_sets = 0;
  QAbstractSeries* bars = nullptr;
  for (auto* s : chart_->series())
    if (s->type() == QAbstractSeries::SeriesTypeBar ||
        s->type() == QAbstractSeries::SeriesTypeStackedBar ||
        s->type() == QAbstractSeries::SeriesTypeHorizontalBar ||
        s->type() == QAbstractSeries::SeriesTypeHorizontalStackedBar)
      bars = s;
  for (const Drawn* d : drawn_) bar_sets += d->kind == SeriesKind::Bars;
  if (data_.stacked) bar_sets = std::min(bar_sets, 1);  // a stack is one bar
  if (!bars || bar_labels_.isEmpty() || plot.height() <= 0) return;
  const BarGeometry g{bars, static_cast<QAbstractBarSeries*>(bars)->barWidth(), bar_sets};
  const bool across = data_.horizontal_bars;  // bars along the bottom axis, labels beside them
  const double bar_px = ((across ? plot.height() : plot.width()) - 20) / data_.x.categories.size() *
                        g.width / bar_sets;
  if (across) {
    bar_labels_turned_ = false;
  } else if (refit) {
    // Labels wider than one bar would run into the next bar's ("2.0852.113 ms" with grouped
    // bars): then all of them stand upright on their bar, turned by -90 degrees.
    double widest = 0;
    for (auto* item : bar_labels_) widest = std::max(widest, item->boundingRect().width());
    bar_labels_turned_ = widest > bar_px - 2;
  }
  make_room_for_bar_labels(across ? plot.width() : plot.height());
  place_bar_labels(g, bar_px);
  place_hatches(g);
}

bool ChartScene::refit_categories(const QRectF& plot) {
  // The fits (category labels wrapped or turned, bar labels upright or turned) are redone
  // when the plot got narrower than at the last fit (what fitted may no longer fit: in a live
  // run wider tick labels such as "12.5" take width from it) or wider by more than 20 px.
  // Smaller widenings come from the fits themselves: room for bar labels changes the value
  // axis's tick labels, hence the plot's width, and refitting on them could flip labels to and
  // fro, each flip a new layout. So each fit assumes a plot 20 px narrower than now.
  const bool refit =
      plot.width() > 20 && (fitted_width_ < 0 || plot.width() < fitted_width_ - 0.5 ||
                            plot.width() > fitted_width_ + 20);
  if (refit) {
    fitted_width_ = plot.width();
    // A bottom axis spans the plot and the value axis on its left.
    fit_categories(plot.right() - chart_->rect().left() - chart_->margins().left() - 20);
  }
  return refit;
}

void ChartScene::make_room_for_bar_labels(double plot_length) {
  // Along the value axis: a turned label or one beside a horizontal bar by its width.
  const bool lengthwise = bar_labels_turned_ || data_.horizontal_bars;
  auto extent = [&](QGraphicsSimpleTextItem* item) {  // beyond the bar's end
    return lengthwise ? item->boundingRect().width() : item->boundingRect().height();
  };
  // Headroom: the value axis reaches high enough that every label stays inside the plot (turned
  // labels are tall). Recomputed from fill()'s top at each layout.
  auto* ya = qobject_cast<QValueAxis*>(value_axis());
  if (!ya) return;
  double top = value_top_;
  for (auto* item : bar_labels_) {
    const Point& p = data_.series[item->data(0).toInt()].points[item->data(1).toInt()];
    const double share = (extent(item) + 6) / plot_length;  // of the value axis's length
    if (!p.wrong && p.y > 0 && share < 0.6)
      top = std::max(top, ya->min() + (p.y - ya->min()) / (1 - share));
  }
  // Each new top lays the chart out again (new tick labels, a new plot), which may ask for
  // another: after a few the axis only rises, so the layouts end.
  if (headroom_changes_ >= kFreeHeadroomChanges) top = std::max(top, applied_top_);
  if (std::isfinite(top) && std::abs(top - applied_top_) > 1e-9 * std::abs(top)) {
    applied_top_ = top;
    ++headroom_changes_;
    raise_value_axis_later();
  }
}

// Never from inside a layout: when the tick labels' width changes, Qt Charts lays the chart out
// again inside setRange itself, which reached make_room_for_bar_labels() again before the first
// range had reached the axis's domain; the axis and its domain then set each other's range until
// the stack ran out. From the event loop, each range is whole before the next layout asks for one.
void ChartScene::raise_value_axis_later() {
  if (raise_pending_) return;
  raise_pending_ = true;
  QMetaObject::invokeMethod(
      this, [this] { apply_pending_raise(); }, Qt::QueuedConnection);
}

bool ChartScene::apply_pending_raise() {
  if (!raise_pending_) return false;
  raise_pending_ = false;
  auto* ya = qobject_cast<QValueAxis*>(value_axis());
  if (!ya || !(applied_top_ > ya->min())) return false;
  set_nice_range(ya, ya->min(), applied_top_);
  // New tick labels may be wider than the room this layout gave them: lay out once more (the
  // next pass finds the same top and changes nothing).
  if (chart_->layout()) chart_->layout()->invalidate();
  return true;
}

int ChartScene::bar_set_of(int series) const {
  if (data_.stacked) return 0;
  int set = 0;
  for (int j = 0; j < series; ++j) set += drawn_[j]->kind == SeriesKind::Bars;
  return set;
}

std::pair<double, double> ChartScene::bar_span(int series, int k) const {
  const Point& p = data_.series[series].points[k];
  const double top = p.wrong ? 0 : p.y;
  if (!data_.stacked) return {0, top};
  double below = 0;
  for (int j = 0; j < series; ++j) {
    if (drawn_[j]->kind != SeriesKind::Bars) continue;
    for (const Point& q : data_.series[j].points)
      if (q.x == p.x && !q.wrong && q.y > 0) below += q.y;
  }
  return {below, below + top};
}

void ChartScene::place_bar_labels(const BarGeometry& g, double bar_px) {
  const bool turned = bar_labels_turned_;
  for (auto* item : bar_labels_) {
    const int i = item->data(0).toInt(), k = item->data(1).toInt();
    const int set = bar_set_of(i);
    const Point& p = data_.series[i].points[k];
    const double x = p.x - g.width / 2 + (set + 0.5) * g.width / g.sets;
    const QPointF at = bar_position(x, bar_span(i, k).second, g.bars);
    const QRectF r = item->boundingRect();
    if (data_.horizontal_bars) {  // beside the bar's end, as thick as the bar allows
      const double scale = std::min(1.0, (bar_px + 2) / r.height());
      item->setRotation(0);
      item->setScale(scale);
      item->setVisible(scale >= 0.5);
      item->setPos(at.x() + 3, at.y() - r.height() * scale / 2);
      keep_inside_plot(item);
      continue;
    }
    // Turned about its top-left corner, the text runs up from there, r.height() wide. Wider
    // than its bar even turned (big text for a room, many bars): made narrower to fit its bar
    // rather than drawn over its neighbour's or left out (a room reads the values off the
    // bars); left out only where it would be too small to read, and the tooltip still gives it.
    const double scale = turned ? std::min(1.0, (bar_px + 2) / r.height()) : 1.0;
    item->setRotation(turned ? -90 : 0);
    item->setScale(scale);
    item->setVisible(scale >= 0.5);
    if (turned)
      item->setPos(at.x() - r.height() * scale / 2, at.y() - 3);
    else
      item->setPos(at.x() - r.width() / 2, at.y() - r.height() - 2);
    keep_inside_plot(item);
  }
}

// A label the headroom could not make room for (a small chart, a long turned label) moves down
// onto its bar, and one at the plot's side moves in: no text is ever drawn past the plot, where
// it would stand outside the chart's card.
void ChartScene::keep_inside_plot(QGraphicsSimpleTextItem* item) const {
  const QRectF plot = chart_->plotArea();
  const QRectF at = item->mapRectToParent(item->boundingRect());
  QPointF shift(0, 0);
  if (at.top() < plot.top()) shift.ry() = plot.top() - at.top();
  if (at.left() < plot.left())
    shift.rx() = plot.left() - at.left();
  else if (at.right() > plot.right())
    shift.rx() = plot.right() - at.right();
  if (!shift.isNull()) item->setPos(item->pos() + shift);
}

void ChartScene::place_hatches(const BarGeometry& g) {
  for (auto* hatch : noisy_hatches_) {
    const int i = hatch->data(0).toInt(), k = hatch->data(1).toInt();
    const int set = bar_set_of(i);
    const Point& p = data_.series[i].points[k];
    const double left = p.x - g.width / 2 + set * g.width / g.sets;
    const auto [bottom, top] = bar_span(i, k);
    const QPointF top_left = bar_position(left, top, g.bars);
    const QPointF bottom_right = bar_position(left + g.width / g.sets, bottom, g.bars);
    hatch->setRect(QRectF(top_left, bottom_right).normalized());
  }
}

void ChartScene::fit_value_title(double plot_height) {
  QAbstractAxis* ya = value_axis();
  if (!ya || data_.y.short_title.isEmpty() || plot_height <= 0) return;
  const QString suffix = resolve_y(data_) == Scale::Log10 ? "  (log scale)" : "";
  const QString full = data_.y.title + suffix;
  // Qt cuts a vertical title well short of the plot's height (its layout pass measures the
  // plot before the legend and the bar labels take their room): keep a wide margin.
  const QFontMetricsF fm(ya->titleFont());
  auto fits = [&](const QString& t) { return fm.horizontalAdvance(t) <= plot_height * 0.75 - 16; };
  // Shorter and shorter: the log scale still shows in the ticks (1, 10, 100) when it must go.
  const QString want = fits(full)                           ? full
                       : fits(data_.y.short_title + suffix) ? data_.y.short_title + suffix
                                                            : data_.y.short_title;
  if (ya->titleText() != want) ya->setTitleText(want);
}

QStringList ChartScene::turned_labels(const QFont& f, double tall, double room, bool one_line_else,
                                      bool* fits) const {
  const QFontMetricsF metrics(f);
  QStringList labels;
  *fits = true;
  for (const QString& c : data_.x.categories) {
    const QString lines =
        metrics.horizontalAdvance(c) > tall ? wrapped_label(c, f, tall) : QString();
    const QString wrapped = lines.isEmpty() ? QString() : "<center>" + lines + "</center>";
    const bool too_thick = !wrapped.isEmpty() && label_size(wrapped, f).height() > room;
    labels << (wrapped.isEmpty() || (too_thick && one_line_else) ? c.toHtmlEscaped() : wrapped);
    *fits = *fits && label_size(labels.last(), f).height() <= room;  // turned: its thickness
  }
  return labels;
}

void ChartScene::fit_categories(double axis_width) {
  auto* cat = qobject_cast<QBarCategoryAxis*>(category_axis());
  const int n = data_.x.categories.size();
  if (!cat || n == 0) return;
  turned_length_ = 0;
  if (data_.horizontal_bars) {  // upright and whole, a row each (wanted_height() asks for them)
    QStringList labels;
    for (const QString& c : data_.x.categories) labels << c.toHtmlEscaped();
    if (cat->labelsFont() != scaled_font(-1)) cat->setLabelsFont(scaled_font(-1));
    if (cat->labelsAngle() != 0) cat->setLabelsAngle(0);
    if (cat->categories() != labels) {
      cat->clear();
      cat->append(labels);
    }
    return;
  }
  // Qt Charts cuts a label wider than its slot to "Complete...", so "CompleteUnroll" and
  // "CompleteUnrollWarp8" would read the same. Upright names wrapped to the slot's width read
  // best and take little height (two charts share a page); if a word is wider than the slot, in
  // a point smaller font; else whole names turned by -90 degrees. Qt gives a label the axis's
  // width over n + 2 (its count of grid lines), less 2 x 4 px of padding.
  const QFont fonts[] = {scaled_font(-1), scaled_font(-2)};
  const double room = axis_width / (n + 2) - 8;
  int fit = 2;  // upright in fonts[0] or fonts[1], or 2: turned
  QStringList labels;
  for (int f = 0; f < 2 && fit == 2; ++f) {
    labels.clear();
    for (const QString& c : data_.x.categories) {
      const QString lines = wrapped_label(c, fonts[f], room);
      if (lines.isEmpty()) break;
      labels << (lines.contains("<br>") ? "<center>" + lines + "</center>" : lines);
    }
    if (labels.size() == n) fit = f;
  }
  QFont turned_font = fonts[0];
  if (fit == 2) {
    // Turned, each name's lines stand side by side across its slot: the lines a slot holds
    // decide the font, the larger first. A name longer than a fifth of the chart's height goes
    // on two or three lines; where the slots are too thin for that in every font, on as many
    // as its slot holds. Qt Charts cuts turned names longer than its bottom axis's height (at
    // most 0.4 of the chart's): the longest one's length is what the chart asks room for
    // (wanted_height()).
    const double tall = chart_->rect().height() * 0.2;
    bool fits = false;
    for (const bool one_line_else : {false, true})
      for (const QFont& f : {fonts[0], fonts[1], scaled_font(-3)}) {
        if (fits) break;
        turned_font = f;
        labels = turned_labels(f, tall, room, one_line_else, &fits);
      }
    for (const QString& l : labels)
      turned_length_ = std::max(turned_length_, label_size(l, turned_font).width());
  }
  const QFont& font = fit == 2 ? turned_font : fonts[fit];
  if (cat->labelsFont() != font) cat->setLabelsFont(font);
  if (cat->labelsAngle() != (fit == 2 ? -90 : 0)) cat->setLabelsAngle(fit == 2 ? -90 : 0);
  if (cat->categories() != labels) {
    cat->clear();
    cat->append(labels);
  }
}

}  // namespace rl::gui::charts
