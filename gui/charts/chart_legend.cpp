#include "charts/chart_legend.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace rl::gui::charts {

void draw_marker(QPainter& p, MarkerShape shape, const QPointF& at, double size,
                 const QColor& fill) {
  const double r = size / 2;
  QPainterPath path;
  auto polygon = [&](std::initializer_list<QPointF> pts) {
    QPolygonF poly;
    for (const QPointF& q : pts) poly << at + q * r;
    path.addPolygon(poly);
    path.closeSubpath();
  };
  switch (shape) {
    case MarkerShape::Circle:
      path.addEllipse(at, r * 0.9, r * 0.9);
      break;
    case MarkerShape::Square:
      path.addRect(QRectF(at - QPointF(r * 0.8, r * 0.8), QSizeF(r * 1.6, r * 1.6)));
      break;
    case MarkerShape::TriangleUp:
      polygon({{0, -1}, {0.95, 0.75}, {-0.95, 0.75}});
      break;
    case MarkerShape::Diamond:
      polygon({{0, -1}, {0.8, 0}, {0, 1}, {-0.8, 0}});
      break;
    case MarkerShape::TriangleDown:
      polygon({{0, 1}, {0.95, -0.75}, {-0.95, -0.75}});
      break;
    case MarkerShape::Plus:
      polygon({{-0.3, -1},
               {0.3, -1},
               {0.3, -0.3},
               {1, -0.3},
               {1, 0.3},
               {0.3, 0.3},
               {0.3, 1},
               {-0.3, 1},
               {-0.3, 0.3},
               {-1, 0.3},
               {-1, -0.3},
               {-0.3, -0.3}});
      break;
    case MarkerShape::Cross: {
      QTransform turn;
      turn.translate(at.x(), at.y()).rotate(45).translate(-at.x(), -at.y());
      polygon({{-0.28, -1},
               {0.28, -1},
               {0.28, -0.28},
               {1, -0.28},
               {1, 0.28},
               {0.28, 0.28},
               {0.28, 1},
               {-0.28, 1},
               {-0.28, 0.28},
               {-1, 0.28},
               {-1, -0.28},
               {-0.28, -0.28}});
      path = turn.map(path);
      break;
    }
    case MarkerShape::Star: {
      QPolygonF poly;
      for (int k = 0; k < 10; ++k) {
        const double a = -M_PI / 2 + k * M_PI / 5, rr = k % 2 ? r * 0.45 : r;
        poly << at + QPointF(std::cos(a) * rr, std::sin(a) * rr);
      }
      path.addPolygon(poly);
      path.closeSubpath();
      break;
    }
  }
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.setBrush(fill);
  p.setPen(QPen(fill.darker(160), std::max(1.0, size / 10)));
  p.drawPath(path);
  p.restore();
}

QImage marker_image(int index, const QColor& color, double size) {
  // Drawn at 4x and scaled down by Qt Charts: crisp on a 4K projector too.
  const int px = int(std::ceil(size * 4));
  QImage image(px, px, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter p(&image);
  draw_marker(p, palette_marker(index), QPointF(px / 2.0, px / 2.0), px * 0.92, color);
  return image;
}

double line_width(SeriesKind kind, bool high_contrast) {
  if (kind == SeriesKind::Roof) return high_contrast ? 3.0 : 1.5;
  return high_contrast ? 4.5 : 2.2;
}

double marker_size(bool high_contrast) {
  return high_contrast ? 15 : 10;
}

ChartLegend::ChartLegend(QGraphicsItem* parent) : QGraphicsObject(parent) {
  setZValue(15);
  setAcceptedMouseButtons(Qt::LeftButton);
}

void ChartLegend::set_entries(const QList<Entry>& entries, const QFont& font) {
  prepareGeometryChange();
  entries_ = entries;
  font_ = font;
  rects_.clear();
  text_rects_.clear();
  size_ = QSizeF();
}

void ChartLegend::set_dimmed(int series, bool dimmed) {
  for (Entry& e : entries_)
    if (e.series == series) e.dimmed = dimmed;
  update();
}

double ChartLegend::swatch_width() const {
  return QFontMetricsF(font_).height() * 2.2;
}

double ChartLegend::lay_out(double width) {
  prepareGeometryChange();
  rects_.clear();
  text_rects_.clear();
  const QFontMetricsF fm(font_);
  const double gap = fm.height() * 1.1, swatch = swatch_width() + fm.height() * 0.3;
  const double room = std::max(width, swatch + fm.height() * 4);
  double x = 0, y = 0, row_height = 0, widest = 0;
  for (const Entry& e : entries_) {
    // A name wider than the whole row wraps inside its entry rather than being cut.
    const QRectF text = fm.boundingRect(QRectF(0, 0, room - swatch, 1e6), Qt::TextWordWrap, e.text);
    const QSizeF entry(swatch + text.width(), std::max(text.height(), fm.height()));
    if (x > 0 && x + entry.width() > room) {
      x = 0;
      y += row_height + fm.height() * 0.25;
      row_height = 0;
    }
    rects_ << QRectF(QPointF(x, y), entry);
    // A pixel to spare: a width measured to the fraction would break the line when drawn.
    text_rects_ << QRectF(QPointF(x + swatch, y), text.size() + QSizeF(1, 0));
    x += entry.width() + gap;
    widest = std::max(widest, x - gap);
    row_height = std::max(row_height, entry.height());
  }
  size_ = QSizeF(widest, entries_.isEmpty() ? 0 : y + row_height);
  return size_.height();
}

QRectF ChartLegend::boundingRect() const {
  return QRectF(QPointF(0, 0), size_);
}

void ChartLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->setFont(font_);
  const double sw = swatch_width(), h = QFontMetricsF(font_).height();
  for (int i = 0; i < int(entries_.size()) && i < int(rects_.size()); ++i) {
    const Entry& e = entries_[i];
    QColor color = e.color, text = Qt::black;
    if (e.dimmed) color.setAlphaF(0.25), text.setAlphaF(0.35);
    const QPointF mid(rects_[i].left() + sw / 2, rects_[i].top() + h / 2);
    if (e.swatch == Swatch::Bar) {
      painter->fillRect(QRectF(mid - QPointF(sw / 4, h * 0.35), QSizeF(sw / 2, h * 0.7)), color);
    } else if (e.swatch == Swatch::WrongMarker) {
      draw_marker(*painter, MarkerShape::Diamond, mid, h * 0.9, color);
    } else {
      QPen pen(color, e.pen_width);
      if (e.dashed || e.swatch == Swatch::Roof)
        pen.setStyle(e.swatch == Swatch::Roof ? Qt::DashDotLine : Qt::DashLine);
      painter->setPen(pen);
      painter->drawLine(mid - QPointF(sw / 2 - 2, 0), mid + QPointF(sw / 2 - 2, 0));
      if (e.markers) draw_marker(*painter, e.marker, mid, h * 0.75, color);
    }
    painter->setPen(text);
    painter->drawText(text_rects_[i], Qt::TextWordWrap, e.text);
  }
}

void ChartLegend::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  for (int i = 0; i < int(rects_.size()); ++i)
    if (rects_[i].contains(event->pos()) && entries_[i].series >= 0) {
      emit clicked(entries_[i].series);
      event->accept();
      return;
    }
  event->ignore();
}

}  // namespace rl::gui::charts
