// Paints one frame of a block trace: a header (variant, step, caption), the workspace as rows
// of cells (one or more warps per row) with arrows from sources to destinations, a 32-lane
// mask strip under every warp (acting / masked off / exited), barrier marks, and counters.
// Frame 0 is the block as the kernel starts; frame k is the state after step k - 1.
// Everything per trace is precomputed in set_trace(); paintEvent only draws.
#pragma once

#include <QColor>
#include <QWidget>

#include <memory>
#include <vector>

#include "engine/trace/trace.h"

namespace rl::gui {

class BlockView : public QWidget {
  Q_OBJECT
 public:
  explicit BlockView(QWidget* parent = nullptr);

  void set_trace(std::shared_ptr<const Trace> trace);
  const Trace* trace() const { return trace_.get(); }
  int frame_count() const;  // steps + 1; 0 without a trace
  int frame() const { return frame_; }
  // Shows frame f (clamped); progress in [0, 1] animates the transition into it (arrows grow,
  // destination cells change colour, values switch at one half).
  void set_frame(int f, double progress = 1.0);
  double progress() const { return progress_; }

  void set_cell_size(int px);  // 4 (1024 threads at a glance) .. 64 (values legible)
  // Compact: no counter table or legend under the block, for a slide beside other panels (story
  // mode shows the measured counter itself).
  void set_compact(bool on);
  int cell_size() const { return cell_; }
  int columns() const;                // cells per row, a multiple of 32
  QRect cell_rect(int index) const;   // workspace element `index`
  QRect lane_rect(int thread) const;  // thread's square in its warp's mask strip

  // Lane state colours, also used by the legend and the tests.
  static QColor acting_color() { return QColor(46, 157, 79); }
  static QColor masked_color() { return QColor(200, 200, 200); }
  static QColor exited_color() { return QColor(70, 70, 80); }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* e) override;  // tooltips: ws[i], its value and thread

 private:
  struct Layout {
    int columns = 32, rows = 1, header = 0, caption_h = 0, grid_top = 0, row_h = 0, strip_h = 0,
        left = 0, footer = 0, height = 0;
  };
  Layout compute_layout(int width) const;
  void relayout();
  void ensure_layout() const;
  void paint_header(class QPainter& p) const;
  void paint_cells(class QPainter& p, const QRect& clip) const;
  void paint_arrows(class QPainter& p) const;
  void paint_strips(class QPainter& p) const;
  void paint_footer(class QPainter& p) const;
  QString caption_for(int frame) const;
  const TraceStep* step_for(int frame) const;  // the step shown at frame (nullptr at 0)

  std::shared_ptr<const Trace> trace_;
  // needed_[f][i]: ws[i] still flows into the partial after frame f (else drawn dimmed).
  std::vector<std::vector<bool>> needed_;
  std::vector<StepCounters> cumulative_;  // counters summed up to each frame
  int frame_ = 0;
  double progress_ = 1.0;
  int cell_ = 16;
  bool compact_ = false;
  mutable Layout layout_;
  mutable int layout_width_ = -1;
};

}  // namespace rl::gui
