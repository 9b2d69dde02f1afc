// The chart layer's public face: a widget that shows a charts::Chart, and functions that render
// one to PNG or SVG at a chosen size. Nothing outside gui/charts/ includes Qt Charts.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>
#include <QWidget>

#include "charts/chart_data.h"

class QChartView;

namespace rl::gui::charts {

class ChartScene;

class ChartWidget : public QWidget {
  Q_OBJECT
 public:
  explicit ChartWidget(QWidget* parent = nullptr);
  ~ChartWidget() override;

  // Shows chart: updated in place when only the numbers changed, rebuilt otherwise.
  void set_chart(const Chart& chart);
  const Chart& chart() const;
  // Points drawn (line points, bars, wrong-result markers); 0 for an empty chart.
  int drawn_points() const;
  // The hover text of a point, as the tooltip would show it.
  QString tooltip(int series, int index) const;
  // The chart as on screen, at the widget's size.
  QImage grab_image() const;

 signals:
  void export_requested();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  // A new application font (the text zoom, presentation mode): rebuilt in it.
  void changeEvent(QEvent* event) override;

 private:
  void build(const Chart& chart);
  QChartView* view_;
  ChartScene* scene_ = nullptr;
};

// Renders chart alone (no widget needed) at size pixels on white. Text grows with the image
// so a 3200 x 2000 export reads like a 1600 x 1000 one at twice the resolution.
QImage render_chart(const Chart& chart, QSize size);

// Atomic writes (rl::write_output_file). On failure false and *error says what went wrong,
// where, the OS's reason and what became of the file.
bool write_chart_png(const Chart& chart, const QString& path, QSize size, QString* error);
bool write_chart_svg(const Chart& chart, const QString& path, QSize size, QString* error);

}  // namespace rl::gui::charts
