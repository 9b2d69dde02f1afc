// Internal to the chart layer: turns a charts::Chart into Qt Charts objects on a QChart, keeps
// the text the library cannot draw (bar labels, warnings, the empty-state hint) placed over the
// plot, and answers hover with the exact values. Only gui/charts/*.cpp include this.
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QRectF>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <utility>

#include "charts/chart_axes.h"
#include "charts/chart_data.h"

class QAbstractAxis;
class QAbstractSeries;
class QAbstractBarSeries;
class QBarSet;
class QLineSeries;
class QXYSeries;
class QChart;
class QGraphicsSimpleTextItem;
class QGraphicsRectItem;
class QGraphicsTextItem;

namespace rl::gui::charts {

class ChartLegend;

class ChartScene : public QObject {
  Q_OBJECT
 public:
  // Fills chart (which must be empty and stay alive as long as this object). high_contrast:
  // presentation mode's look (thicker lines, bigger markers, darker colours).
  ChartScene(const Chart& data, QChart* chart, QObject* parent = nullptr,
             bool high_contrast = false);
  ~ChartScene() override;

  // Updates in place (QXYSeries::replace, new axis ranges) when data has the same series and
  // axes as the chart shown; returns false when the chart must be rebuilt instead.
  bool update(const Chart& data);

  const Chart& data() const { return data_; }
  int drawn_points() const { return drawn_points_; }
  // The legend below the plot, wrapped into as many rows as `width` pixels need; the plot
  // makes room for it (chart_scene_legend.cpp).
  void fit_legend(double width);
  const ChartLegend* legend() const { return legend_; }
  // The value axis raised for the bar labels as the last layout asked, now rather than from the
  // event loop (a chart drawn for export has none); false when no raise was pending.
  bool apply_pending_raise();
  // The height the chart asks for: its title, legend and axes as laid out now, and a plot tall
  // enough for the value axis's ticks and title, and (turned category names) a bottom axis with
  // the room Qt Charts would otherwise cut them to (chart_scene_room.cpp). 0 for an empty chart.
  double wanted_height() const { return wanted_height_; }
  // The warnings as drawn, in their band under the title (at most three lines).
  const QStringList& warning_lines() const { return warning_lines_; }
  // The hover text of point `index` of data().series[series]; empty when none.
  QString tooltip(int series, int index) const;
  // Line series hidden by name (a click on their legend entry): not drawn, their entry dimmed
  // but kept, to click again (chart_scene_legend.cpp).
  void set_hidden(const QSet<QString>& names);
  bool series_visible(const QString& name) const;

 signals:
  // Hover over a point: the text to show (empty: hide).
  void hover_text(const QString& text);
  // A click on a line series' legend entry.
  void legend_clicked(const QString& series_name);
  // A click (double: twice) on a bar or a line's point: data().series[series].points[index].
  void point_clicked(int series, int index, bool twice);
  // wanted_height() changed: the page holding the chart may give it more (or less) room.
  void wanted_height_changed();

 private:
  // Qt Charts objects of one data series.
  struct Drawn {
    SeriesKind kind = SeriesKind::Line;
    QLineSeries* line = nullptr;
    QLineSeries* upper = nullptr;  // min-max band edges
    QLineSeries* lower = nullptr;
    QAbstractSeries* band = nullptr;  // the area between them
    QBarSet* bar = nullptr;
    QXYSeries* cells = nullptr;  // Cells: the hover targets; the cells are drawn as overlays
    QColor color;                // Cells: their fill
    QList<int> shown;  // data point indices, in the order drawn (hover maps back through it)
  };
  void build();
  void build_title();  // title, subtitle, legend
  void build_series(QAbstractAxis* x, QAbstractAxis* y);
  void build_bar_set(int i, Drawn& d, const QColor& color, QAbstractBarSeries* bars);
  void build_line(int i, Drawn& d, const QColor& color, QAbstractAxis* x, QAbstractAxis* y);
  void build_wrong_series(QAbstractAxis* x, QAbstractAxis* y);  // red markers
  // Cells (chart_scene_cells.cpp): a transparent marker per cell answers hover; the cells and
  // their labels are overlays placed once the plot's size is known.
  void build_cells(int i, Drawn& d, const QColor& color, QAbstractAxis* x, QAbstractAxis* y);
  void draw_cells(int series, detail::Scale xs, detail::Scale ys);
  void place_cells(const QRectF& plot);
  void build_legend();              // chart_scene_legend.cpp
  void fit_title(double width);     // title and subtitle wrapped to the chart's width
  QString shown_subtitle() const {  // the subtitle and the pointer notes
    QStringList parts;
    if (!data_.subtitle.isEmpty()) parts << data_.subtitle;
    return (parts + data_.pointer_notes).join(" · ");
  }
  void place_legend();
  int line_index(int series) const;      // how many line series come before it: its marker shape
  void connect_clicks(int i, Drawn& d);  // chart_scene_legend.cpp
  void fill();                           // points, ranges, labels from data_
  // The extent of the drawn points (x already transformed to the axis).
  struct Extent {
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    void grow(double x, double y) {
      if (std::isfinite(x)) xmin = std::min(xmin, x), xmax = std::max(xmax, x);
      if (std::isfinite(y)) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
  };
  using Scale = detail::Scale;
  void clear_overlays();
  void fill_series(int i, Scale xs, Scale ys, Extent& e, QList<QPointF>& wrong_xy, int& dropped);
  void draw_bars(const Series& s, Drawn& d);
  void draw_line(const Series& s, Drawn& d, Scale xs, Scale ys);
  void set_x_axis(Scale xs, const Extent& e, double* x_lo, double* x_hi);
  void set_y_axis(Scale ys, const Extent& e);
  void draw_roofs(Scale ys, double x_lo, double x_hi);
  void add_bar_labels();
  void show_warnings(Scale ys, int dropped);
  void place_overlays();
  // On each layout (plotAreaChanged), when the plot and the chart's size belong together: a new
  // chart not laid out yet, or one resized since, would pair a new height with an old plot.
  void update_wanted_height(const QRectF& plot);  // chart_scene_room.cpp
  void fit_x_title(double plot_width);            // wrapped to the plot's width
  // The axes by role: the value axis stands at the bottom under horizontal bars.
  QAbstractAxis* value_axis() const;
  QAbstractAxis* category_axis() const;
  // Where (category, value) of the bar series stands in the chart, whichever way the bars lie.
  QPointF bar_position(double category, double value, QAbstractSeries* bars) const;
  double axis_shortfall(const QRectF& plot) const;
  // The bars as the overlays are placed over them: the series, each bar's share of its
  // category, the bar sets side by side.
  struct BarGeometry {
    QAbstractSeries* bars;
    double width;
    int sets;
  };
  bool refit_categories(const QRectF& plot);  // true: the labels were fitted anew
  void make_room_for_bar_labels(double plot_height);
  void raise_value_axis_later();     // apply_pending_raise() from the event loop
  int bar_set_of(int series) const;  // the bar set series `series` is drawn as
  // Where point k of series i stands on the value axis: its bottom and top (a stacked chart's
  // layers stand on the ones below them, the others on the axis).
  std::pair<double, double> bar_span(int series, int k) const;
  void place_bar_labels(const BarGeometry& g, double bar_px);
  void keep_inside_plot(QGraphicsSimpleTextItem* item) const;
  void place_hatches(const BarGeometry& g);
  void fit_categories(double axis_width);
  // Category names turned in font f: wrapped where longer than tall (one_line_else: on one line
  // where the wrapped name is thicker than room); *fits: every one as thick as room at most.
  QStringList turned_labels(const QFont& f, double tall, double room, bool one_line_else,
                            bool* fits) const;
  void fit_value_title(double plot_height);  // the short title where the full one would be cut  //
                                             // category labels: wrapped to a slot, or turned
  QString signature(const Chart& c) const;
  void on_xy_hovered(int series, const QPointF& p, bool state);

  Chart data_;
  QChart* chart_;
  bool high_contrast_ = false;
  ChartLegend* legend_ = nullptr;
  double legend_width_ = -1;  // the width the legend was last laid out in
  int base_bottom_margin_ = 0;
  QList<Drawn*> drawn_;
  QAbstractSeries* wrong_series_ = nullptr;
  QList<QPair<int, int>> wrong_points_;  // (series, point) of each red marker
  QList<QGraphicsSimpleTextItem*> bar_labels_;
  QList<QGraphicsRectItem*> noisy_hatches_;  // over each noisy bar, placed with the labels
  // Cells: (series, point) of each, its rectangle and label, placed by place_cells().
  QList<QPair<int, int>> cell_points_;
  QList<QGraphicsRectItem*> cell_rects_;
  QList<QGraphicsSimpleTextItem*> cell_labels_;
  QStringList warning_lines_;  // drawn under the subtitle (fit_title)
  double title_width_ = -1;    // the width the title was last fitted to
  QGraphicsTextItem* empty_hint_ = nullptr;
  int drawn_points_ = 0;
  double value_top_ = 1;      // top of the value axis as fill() sets it, before nice numbers
  double applied_top_ = -1;   // the top place_overlays() last set, to make room for bar labels
  int headroom_changes_ = 0;  // new tops since fill(); past kFreeHeadroomChanges only higher ones
  static constexpr int kFreeHeadroomChanges = 4;
  bool raise_pending_ = false;      // raise_value_axis_later() queued
  double fitted_width_ = -1;        // plot width the labels were last fitted to
  bool bar_labels_turned_ = false;  // bar labels drawn turned by -90 degrees
  QString signature_;
  double wanted_height_ = 0;
  double turned_length_ = 0;  // the longest turned category name's length; 0: none turned
};

}  // namespace rl::gui::charts
