// The chart's legend: every entry whole, wrapped into as many rows as the
// width needs (Qt Charts' own legend gives each entry an equal share of one row and cuts the
// names to "Unroll · global · N=2..."). Each entry shows its series' colour, dash and marker
// shape; a click on a line's entry toggles the line, its entry dimmed while hidden. Internal to
// gui/charts/.
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QImage>
#include <QList>
#include <QRectF>
#include <QString>

#include "charts/chart_data.h"
#include "charts/palette.h"

namespace rl::gui::charts {

class ChartLegend : public QGraphicsObject {
  Q_OBJECT
 public:
  enum class Swatch { Line, Bar, Roof, WrongMarker };
  struct Entry {
    QString text;
    QColor color;
    Swatch swatch = Swatch::Line;
    bool dashed = false;
    MarkerShape marker = MarkerShape::Circle;
    bool markers = false;  // a line drawn with markers: its shape beside the dash
    double pen_width = 2;
    bool dimmed = false;
    int series = -1;  // the data series it stands for; -1: none (red wrong-result markers)
  };

  explicit ChartLegend(QGraphicsItem* parent = nullptr);
  void set_entries(const QList<Entry>& entries, const QFont& font);
  const QList<Entry>& entries() const { return entries_; }
  void set_dimmed(int series, bool dimmed);
  // Lays the entries out in rows no wider than width; returns the height they take.
  double lay_out(double width);
  // Each entry's rectangle, in this item's coordinates (the readability test).
  const QList<QRectF>& entry_rects() const { return rects_; }

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 signals:
  void clicked(int series);

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  double swatch_width() const;
  QList<Entry> entries_;
  QFont font_;
  QList<QRectF> rects_;  // per entry: swatch and text
  QList<QRectF> text_rects_;
  QSizeF size_;
};

// Draws shape centred on at, size pixels across (legends and the series' markers).
void draw_marker(QPainter& p, MarkerShape shape, const QPointF& at, double size,
                 const QColor& fill);
// A line's marker as an image for QXYSeries::setLightMarker: shape palette_marker(index).
QImage marker_image(int index, const QColor& color, double size);
// Pens and markers: presentation mode's high contrast draws them about twice as strong.
double line_width(SeriesKind kind, bool high_contrast);
double marker_size(bool high_contrast);

}  // namespace rl::gui::charts
