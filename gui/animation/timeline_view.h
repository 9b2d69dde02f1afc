// Paints one or two measured warp timelines (engine/session/timeline.h) on one shared time axis
// in ns: one row per warp, grouped in a band per recorded block ("block 17 · SM 3"), each warp's
// phases in their fixed colours (timeline_palette.h), its waits at __syncthreads() pale and
// hatched from arrival to release, and at each barrier the slowest warp's arrival marked (a red
// triangle: every other warp of the block waited for it). A ruler on top, a legend under it.
// Every number drawn comes from engine/session/timeline_analysis.h; the view computes none.
// Hover: the exact stamps of the span under the pointer. Click on a "load", "tree", "last warp"
// or "write" span: step_requested(). Ctrl+wheel zooms around the pointer, Shift+wheel pans,
// double click shows the whole. Text in the widget's font, so it follows the app's (presentation
// mode sets a room's size).
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "engine/session/timeline_analysis.h"

namespace rl::gui {

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  // One or two timelines (more are ignored) on one axis; each keeps its own zero (its earliest
  // mark). One that cannot be read shows why in its place. Empty: the message below.
  void set_timelines(std::vector<std::shared_ptr<const MeasuredTimeline>> timelines);
  int timeline_count() const { return int(shown_.size()); }
  const MeasuredTimeline* timeline(int i) const;
  // Why a timeline could not be drawn ("" when it was).
  QString problem(int i) const;
  // What the view says when it has nothing to draw.
  void set_empty_message(const QString& text);
  QString empty_message() const { return empty_message_; }
  // Lines drawn under the legend in exports (the panel's summary lines).
  void set_export_footer(const QStringList& lines) { footer_ = lines; }

  // The rows as drawn: every warp of every block of every timeline.
  int row_count() const;
  // The pixel at time ns (after its timeline's zero) in the middle of a warp's row; nullopt
  // where that warp is not drawn. slot: index into MeasuredTimeline::blocks.
  std::optional<QPoint> point_at(int timeline, unsigned slot, unsigned warp, double ns) const;
  // The tooltip at a pixel ("" over nothing).
  QString text_at(const QPoint& p) const;

  // The time window shown, in ns (the whole axis after reset_zoom()).
  void set_visible_range(double start_ns, double end_ns);
  void reset_zoom();
  double visible_start() const { return view_start_; }
  double visible_end() const { return view_end_; }
  double axis_end() const { return axis_end_; }

  // The whole view drawn at a size (exports; the footer included); false with *error.
  QImage render_image(QSize size) const;
  bool export_png(const QString& path, QSize size, QString* error) const;
  bool export_svg(const QString& path, QSize size, QString* error) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  // A Work span of a built-in phase was clicked: phase "load", "tree" (index = stride), "last
  // warp" (index = stride) or "write", of timeline `timeline`.
  void step_requested(int timeline, const QString& phase, unsigned index);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* e) override;  // tooltips
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  struct Shown;
  struct Row;
  struct Layout;
  struct Hit {
    const Shown* shown = nullptr;
    const Row* row = nullptr;
    const TimelineSpan* span = nullptr;
  };
  Layout layout_for(QSize size, bool for_export) const;
  Hit hit_at(const QPoint& p) const;
  void paint(class QPainter& p, QSize size, bool for_export) const;
  void paint_ruler(class QPainter& p, const Layout& l) const;
  void paint_rows(class QPainter& p, const Layout& l) const;
  void paint_barriers(class QPainter& p, const Layout& l) const;
  void paint_legend(class QPainter& p, const Layout& l) const;
  double x_of(const Layout& l, double ns) const;

  std::vector<std::unique_ptr<Shown>> shown_;
  QString empty_message_;
  QStringList footer_;
  double axis_end_ = 1, view_start_ = 0, view_end_ = 1;
};

}  // namespace rl::gui
