// ChartScene's Cells series (a strategy map): each point a coloured rectangle a power of two wide
// and high around (x, y) on the two Log2 axes, its label written inside. Qt Charts has no such
// series: the cells are overlays placed from the axes' mapping whenever the plot moves, and a
// transparent scatter marker over each answers hover with the point's tooltip.
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_scene.h"
#include "charts/palette.h"

namespace rl::gui::charts {

using namespace detail;

namespace {

// Black or white, whichever reads better on the cell's colour.
QColor text_on(const QColor& fill) {
  const double luma = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
  return luma > 0.55 ? QColor(20, 20, 20) : QColor(Qt::white);
}

}  // namespace

void ChartScene::build_cells(int i, Drawn& d, const QColor& color, QAbstractAxis* x,
                             QAbstractAxis* y) {
  auto* hover = new QScatterSeries;
  hover->setName(data_.series[i].name);
  hover->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  hover->setColor(QColor(0, 0, 0, 1));  // all but invisible: the overlays are the cells
  hover->setBorderColor(Qt::transparent);
  hover->setMarkerSize(12);
  chart_->addSeries(hover);
  hover->attachAxis(x);
  hover->attachAxis(y);
  d.cells = hover;
  d.color = color;
  connect(hover, &QXYSeries::hovered, this,
          [this, i](const QPointF& p, bool state) { on_xy_hovered(i, p, state); });
  connect(hover, &QXYSeries::clicked, this, [this, i](const QPointF& p) {
    const Scale xs = resolve_x(data_), ys = resolve_y(data_);
    for (int k : drawn_[i]->shown) {
      const Point& q = data_.series[i].points[k];
      if (std::abs(tx(q.x, xs) - p.x()) < 0.5 && std::abs(tx(q.y, ys) - p.y()) < 0.5)
        emit point_clicked(i, k, false);
    }
  });
}

void ChartScene::draw_cells(int series, Scale xs, Scale ys) {
  const Series& s = data_.series[series];
  Drawn& d = *drawn_[series];
  QList<QPointF> at;
  for (int k : d.shown) {
    const Point& p = s.points[k];
    at.append(QPointF(tx(p.x, xs), tx(p.y, ys)));
    cell_points_.append({series, k});
    auto* rect = new QGraphicsRectItem(chart_);
    rect->setBrush(d.color);
    rect->setPen(QPen(Qt::white, 1));
    rect->setZValue(4);  // under the hover markers, over the grid
    rect->setVisible(false);
    cell_rects_.append(rect);
    auto* label = new QGraphicsSimpleTextItem(p.label, chart_);
    label->setBrush(text_on(d.color));
    label->setZValue(5);
    label->setVisible(false);
    cell_labels_.append(label);
  }
  d.cells->replace(at);
  drawn_points_ += at.size();
}

// Every cell one power of two of each axis, less a hair of white between neighbours; each label
// in the largest font up to the axis labels' that fits its cell whole (never one cut to "1.3").
void ChartScene::place_cells(const QRectF& plot) {
  if (cell_rects_.isEmpty() || plot.width() <= 0) return;
  const Scale xs = resolve_x(data_), ys = resolve_y(data_);
  QAbstractSeries* any = drawn_[cell_points_.front().first]->cells;
  const QPointF o = chart_->mapToPosition(QPointF(0, 0), any);
  const QPointF one = chart_->mapToPosition(QPointF(1, 1), any);
  const double w = std::abs(one.x() - o.x()), h = std::abs(one.y() - o.y());
  QFont font = scaled_font(high_contrast_ ? 0 : -1, true);
  double widest = 0;
  for (auto* label : cell_labels_)
    widest = std::max(widest, QFontMetricsF(font).horizontalAdvance(label->text()));
  while (font.pointSizeF() > 6 && (widest > w - 4 || QFontMetricsF(font).height() > h - 2)) {
    font.setPointSizeF(font.pointSizeF() - 0.5);
    widest = 0;
    for (auto* label : cell_labels_)
      widest = std::max(widest, QFontMetricsF(font).horizontalAdvance(label->text()));
  }
  const bool labels_fit = widest <= w - 4 && QFontMetricsF(font).height() <= h - 2;
  for (int c = 0; c < cell_rects_.size(); ++c) {
    const auto [si, k] = cell_points_[c];
    const Point& p = data_.series[si].points[k];
    const QPointF centre = chart_->mapToPosition(QPointF(tx(p.x, xs), tx(p.y, ys)), any);
    const QRectF cell(centre.x() - w / 2, centre.y() - h / 2, w, h);
    cell_rects_[c]->setRect(cell.intersected(plot));
    cell_rects_[c]->setVisible(drawn_[si]->cells->isVisible());
    QGraphicsSimpleTextItem* label = cell_labels_[c];
    label->setFont(font);
    const QRectF box = label->boundingRect();
    label->setPos(centre - QPointF(box.width() / 2, box.height() / 2));
    label->setVisible(labels_fit && cell_rects_[c]->isVisible());
  }
  for (const Drawn* d : drawn_)
    if (d->cells)
      static_cast<QScatterSeries*>(d->cells)->setMarkerSize(std::max(4.0, std::min(w, h)));
}

}  // namespace rl::gui::charts
