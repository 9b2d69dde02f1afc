// Clicks on the chart: legend entries that hide and show their line series (issue 12: a size sweep
// has up to two dozen; a presenter hides the ones not being discussed). Qt hides a series' entry
// with the series; it is shown again, dimmed, so that a second click brings the series back. And a
// click on a bar or a point says which measured point it is (its code, issue 11).
#include <QAbstractSeries>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

#include <cmath>

#include "charts/chart_scene.h"

namespace rl::gui::charts {

void ChartScene::connect_legend(int i, Drawn& d) {
  for (QLegendMarker* m : chart_->legend()->markers(d.line))
    connect(m, &QLegendMarker::clicked, this,
            [this, i] { emit legend_clicked(data_.series[i].name); });
}

void ChartScene::set_hidden(const QSet<QString>& names) {
  for (int i = 0; i < int(drawn_.size()) && i < int(data_.series.size()); ++i) {
    Drawn* d = drawn_[i];
    if (!d->line) continue;
    const bool hide = names.contains(data_.series[i].name);
    if (d->line->isVisible() == !hide) continue;
    d->line->setVisible(!hide);
    if (d->band) {
      d->band->setVisible(!hide);
      for (QLegendMarker* m : chart_->legend()->markers(d->band)) m->setVisible(false);
    }
    for (QLegendMarker* m : chart_->legend()->markers(d->line)) {
      m->setVisible(true);
      const double alpha = hide ? 0.3 : 1.0;
      QColor label = m->labelBrush().color();
      label.setAlphaF(alpha);
      m->setLabelBrush(label);
      QColor swatch = m->brush().color();
      swatch.setAlphaF(alpha);
      m->setBrush(swatch);
    }
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
