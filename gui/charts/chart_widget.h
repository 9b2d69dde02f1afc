// The chart layer's public face: a widget that shows a charts::Chart, and functions that render
// one to PNG or SVG at a chosen size. Nothing outside gui/charts/ includes Qt Charts.
#pragma once

#include <QImage>
#include <QSet>
#include <QSize>
#include <QString>
#include <QWidget>

#include <optional>

#include "charts/chart_data.h"

class QAction;
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

  // Line series the person hid by clicking their legend entry; kept while the chart updates
  // or is rebuilt (a live run), by series name.
  const QSet<QString>& hidden_series() const { return hidden_; }
  void toggle_series(const QString& name);
  bool series_visible(const QString& name) const;
  // The value axis logarithmic (true) or linear (false) by the person's choice, for line charts
  // (the context menu); nullopt: as the chart says (Auto: log10 when the values span 30x).
  void set_value_log(std::optional<bool> log);
  bool value_axis_is_log() const;
  // The context menu's "% of the read floor" entry of a bandwidth chart: shown where the chart
  // offers the view, disabled with the reason where it cannot be drawn (no read floor).
  const QAction* pct_of_limit_action() const { return pct_action_; }
  // Presentation mode's look: thicker lines, bigger markers, darker colours.
  void set_high_contrast(bool on);
  bool high_contrast() const { return high_contrast_; }
  // Text of the chart that is cut: elided ("..."), drawn past the chart's edge or (bar values)
  // left out; empty when every label, title and legend entry is whole (the readability test at
  // 1024x768 and 4K).
  QStringList cut_text() const;
  // Every text the chart draws with its font ("axis labels | font DejaVu Sans,9.5,..."), and the
  // title's HTML, sorted: the full-screen modes must leave these as they found them.
  QStringList text_fonts() const;
  // The height this widget needs for every text of its chart to stand whole (ChartScene's
  // wanted_height(), in the widget's pixels); 0 for an empty chart. A page that scrolls gives it.
  int wanted_height() const;
  static constexpr const char* kFontMark = " | font ";

 signals:
  void export_requested();
  // A bar or point that draws a measured point was clicked (twice: double-clicked).
  void point_clicked(const rl::PointSpec& point, bool twice);
  // The person asked for the bandwidth as % of the read floor (true) or in GB/s.
  void pct_of_limit_toggled(bool on);
  void wanted_height_changed();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  // A new application font (the text zoom, presentation mode): rebuilt in it.
  bool event(QEvent* event) override;

 private:
  void build(const Chart& chart);
  Chart with_choices(const Chart& chart) const;  // the person's value axis applied
  void after_show();                             // hidden series, the menu's check mark
  void rebuild_later();                          // once, however many font events come
  bool rebuild_pending_ = false;
  QChartView* view_;
  ChartScene* scene_ = nullptr;
  Chart source_;  // as given to set_chart
  QSet<QString> hidden_;
  std::optional<bool> value_log_;
  QAction* log_action_ = nullptr;
  QAction* pct_action_ = nullptr;
  bool high_contrast_ = false;
  mutable int last_wanted_ = 0;  // wanted_height() while shown
};

// Renders chart alone (no widget needed) at size pixels on white. Text grows with the image
// so a 3200 x 2000 export reads like a 1600 x 1000 one at twice the resolution.
QImage render_chart(const Chart& chart, QSize size, bool high_contrast = false);

// Written as every file of the app (session_files.h write_text_file: atomic, locked against a
// CLI writing the same file). On failure false and *error says what went wrong, where, the OS's
// reason and what became of the file.
bool write_chart_png(const Chart& chart, const QString& path, QSize size, QString* error);
bool write_chart_svg(const Chart& chart, const QString& path, QSize size, QString* error);

}  // namespace rl::gui::charts
