// The legend and clicks on the chart: legend entries that hide and show their line series (issue
// 12: a size sweep has up to two dozen; a presenter hides the ones not being discussed). Qt hides a
// series' entry with the series; it is shown again, dimmed, so that a second click brings the
// series back. And a click on a bar or a point says which measured point it is (its code, issue
// 11).
#include <QAbstractSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>

#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_legend.h"
#include "charts/chart_scene.h"
#include "charts/palette.h"

namespace rl::gui::charts {

int ChartScene::line_index(int series) const {
  int n = 0;
  for (int i = 0; i < series && i < int(data_.series.size()); ++i)
    n += data_.series[i].kind == SeriesKind::Line ? 1 : 0;
  return n;
}

void ChartScene::build_legend() {
  QList<ChartLegend::Entry> entries;
  for (int i = 0; i < int(data_.series.size()) && i < int(drawn_.size()); ++i) {
    const Series& s = data_.series[i];
    const Drawn& d = *drawn_[i];
    ChartLegend::Entry e;
    e.text = s.name;
    e.series = i;
    e.dashed = s.dashed;
    e.pen_width = line_width(s.kind, high_contrast_);
    if (d.bar || d.cells) {
      e.swatch = ChartLegend::Swatch::Bar;
      e.color = d.bar ? d.bar->color() : d.color;
    } else if (d.line) {
      e.swatch = s.kind == SeriesKind::Roof ? ChartLegend::Swatch::Roof : ChartLegend::Swatch::Line;
      e.color = d.line->pen().color();
      e.markers = s.kind == SeriesKind::Line;
      e.marker = palette_marker(line_index(i));
    }
    entries << e;
  }
  if (wrong_series_) {
    ChartLegend::Entry e;
    e.text = wrong_series_->name();
    e.swatch = ChartLegend::Swatch::WrongMarker;
    e.color = palette_wrong();
    entries << e;
  }
  legend_ = new ChartLegend(chart_);
  legend_->set_entries(entries, detail::scaled_font(high_contrast_ ? 0 : -0.5));
  connect(legend_, &ChartLegend::clicked, this, [this](int i) {
    if (i >= 0 && i < int(data_.series.size()) && data_.series[i].kind == SeriesKind::Line)
      emit legend_clicked(data_.series[i].name);
  });
}

void ChartScene::fit_title(double width) {
  title_width_ = width;
  // Qt keeps a margin each side of a title, and the rich text its document margins.
  const double room = std::max(120.0, width - 96);
  QFont sub = QApplication::font();
  sub.setPointSizeF(sub.pointSizeF() - 0.5);
  QString html = detail::wrapped_html(data_.title, chart_->titleFont(), room);
  if (!shown_subtitle().isEmpty())
    html += QString("<br><span style=\"font-size:%1pt; font-weight:normal\">%2</span>")
                .arg(sub.pointSizeF())
                .arg(detail::wrapped_html(shown_subtitle(), sub, room, " · "));
  // The warnings in a band of their own under the subtitle: Qt lays the plot out below them, so
  // they never cover a line or a bar, however small the chart.
  if (!warning_lines_.isEmpty()) {
    QStringList lines;
    for (const QString& w : warning_lines_) lines << detail::wrapped_html(w, sub, room);
    html += QString("<br><span style=\"font-size:%1pt; font-weight:normal; color:%2\">%3</span>")
                .arg(sub.pointSizeF())
                .arg(palette_wrong().name(), lines.join("<br>"));
  }
  if (chart_->title() != html) chart_->setTitle(html);
}

void ChartScene::fit_legend(double width) {
  fit_title(width);
  if (!legend_) return;
  const double inner = width - 24;
  if (inner == legend_width_) return;
  legend_width_ = inner;
  const double height = legend_->lay_out(inner);
  // The plot steps up by the legend's height: the legend is never drawn over the axis.
  QMargins m = chart_->margins();
  m.setBottom(base_bottom_margin_ + int(std::ceil(height)) + (height > 0 ? 6 : 0));
  if (m != chart_->margins()) chart_->setMargins(m);
  place_legend();
}

void ChartScene::place_legend() {
  if (!legend_) return;
  const QSizeF chart = chart_->size(), own = legend_->boundingRect().size();
  legend_->setPos(std::max(4.0, (chart.width() - own.width()) / 2),
                  chart.height() - own.height() - base_bottom_margin_ / 2.0);
}

void ChartScene::set_hidden(const QSet<QString>& names) {
  for (int i = 0; i < int(drawn_.size()) && i < int(data_.series.size()); ++i) {
    Drawn* d = drawn_[i];
    if (!d->line) continue;
    const bool hide = names.contains(data_.series[i].name);
    if (d->line->isVisible() == !hide) continue;
    d->line->setVisible(!hide);
    if (d->band) d->band->setVisible(!hide);
    if (legend_) legend_->set_dimmed(i, hide);
  }
}

void ChartScene::connect_clicks(int i, Drawn& d) {
  auto bar_point = [this, i](int category) {
    const auto& points = data_.series[i].points;
    for (int k = 0; k < int(points.size()); ++k)
      if (int(points[k].x) == category) return k;
    return -1;
  };
  if (d.bar) {
    connect(d.bar, &QBarSet::clicked, this, [this, i, bar_point](int category) {
      if (const int k = bar_point(category); k >= 0) emit point_clicked(i, k, false);
    });
    connect(d.bar, &QBarSet::doubleClicked, this, [this, i, bar_point](int category) {
      if (const int k = bar_point(category); k >= 0) emit point_clicked(i, k, true);
    });
    return;
  }
  if (!d.line || data_.series[i].kind != SeriesKind::Line) return;
  // The nearest drawn point, mapped back to its data point (points may have been left out).
  auto line_point = [this, &d](const QPointF& at) {
    const QList<QPointF> drawn = d.line->points();
    int best = -1;
    double best_distance = INFINITY;
    for (int j = 0; j < int(drawn.size()) && j < int(d.shown.size()); ++j) {
      const double dx = drawn[j].x() - at.x(), dy = drawn[j].y() - at.y();
      if (dx * dx + dy * dy < best_distance) best = d.shown[j], best_distance = dx * dx + dy * dy;
    }
    return best;
  };
  connect(d.line, &QXYSeries::clicked, this, [this, i, line_point](const QPointF& at) {
    if (const int k = line_point(at); k >= 0) emit point_clicked(i, k, false);
  });
  connect(d.line, &QXYSeries::doubleClicked, this, [this, i, line_point](const QPointF& at) {
    if (const int k = line_point(at); k >= 0) emit point_clicked(i, k, true);
  });
}

bool ChartScene::series_visible(const QString& name) const {
  for (int i = 0; i < int(drawn_.size()) && i < int(data_.series.size()); ++i)
    if (data_.series[i].name == name && drawn_[i]->line) return drawn_[i]->line->isVisible();
  return false;
}

}  // namespace rl::gui::charts
