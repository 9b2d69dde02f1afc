// Legend entries that hide and show their line series (issue 12: a size sweep has up to two
// dozen; a presenter hides the ones not being discussed). Qt hides a series' entry with the
// series; it is shown again, dimmed, so that a second click brings the series back.
#include <QAbstractSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

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

bool ChartScene::series_visible(const QString& name) const {
  for (int i = 0; i < int(drawn_.size()) && i < int(data_.series.size()); ++i)
    if (data_.series[i].name == name && drawn_[i]->line) return drawn_[i]->line->isVisible();
  return false;
}

}  // namespace rl::gui::charts
