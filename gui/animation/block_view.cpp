#include "animation/block_view.h"

#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "animation/block_view_style.h"

namespace rl::gui {

using namespace block_view_style;

BlockView::BlockView(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMouseTracking(true);
  QSizePolicy sp(QSizePolicy::Expanding, QSizePolicy::Preferred);
  sp.setHeightForWidth(true);
  setSizePolicy(sp);
}

void BlockView::set_trace(std::shared_ptr<const Trace> trace) {
  trace_ = std::move(trace);
  needed_.clear();
  cumulative_.clear();
  if (trace_) {
    // Which elements still flow into ws[0]: walk the steps backwards from {0}.
    const std::size_t B = trace_->block_size, S = trace_->steps.size();
    needed_.assign(S + 1, std::vector<bool>(B, false));
    std::vector<bool> need(B, false);
    need[0] = true;
    needed_[S] = need;
    for (std::size_t s = S; s-- > 0;) {
      const TraceStep& st = trace_->steps[s];
      // A load, and a barrier that returns a value, feed every thread's value into what follows.
      if (st.kind == "load" || st.kind == "vote") {
        need.assign(B, true);
      } else {
        for (auto [d, src] : st.ops)
          if (d < B && need[d] && src < B) need[src] = true;
      }
      needed_[s] = need;
    }
    cumulative_.resize(S + 1);
    for (std::size_t s = 0; s < S; ++s) {
      cumulative_[s + 1] = cumulative_[s];
      cumulative_[s + 1] += trace_->steps[s].counters;
    }
  }
  frame_ = 0;
  progress_ = 1.0;
  relayout();
}

int BlockView::frame_count() const {
  return trace_ ? int(trace_->steps.size()) + 1 : 0;
}

void BlockView::set_frame(int f, double progress) {
  f = std::clamp(f, 0, std::max(0, frame_count() - 1));
  progress = std::clamp(progress, 0.0, 1.0);
  if (f == frame_ && progress == progress_) return;
  frame_ = f;
  progress_ = progress;
  update();
}

void BlockView::set_compact(bool on) {
  if (on == compact_) return;
  compact_ = on;
  layout_width_ = -1;
  updateGeometry();
  update();
}

void BlockView::set_cell_size(int px) {
  px = std::clamp(px, 4, 64);
  if (px == cell_) return;
  cell_ = px;
  relayout();
}

const TraceStep* BlockView::step_for(int frame) const {
  if (!trace_ || frame <= 0 || frame > int(trace_->steps.size())) return nullptr;
  return &trace_->steps[frame - 1];
}

QString BlockView::caption_for(int frame) const {
  if (!trace_) return "Pick a variant to see one block reduce.";
  if (const TraceStep* s = step_for(frame)) return QString::fromStdString(s->caption);
  const Trace& t = *trace_;
  if (t.workspace == Workspace::Registers)
    return QString(
               "Start: block %1 of %2; the cells show the first element each of its %3 "
               "threads will read. Each step below is one step of the kernel.")
        .arg(t.block_index)
        .arg(t.grid)
        .arg(t.block_size);
  return QString(
             "Start: block %1 of %2 holds ws[0..%3] = its tile of the input%4. Each step below "
             "is one pass of the kernel's loop.")
      .arg(t.block_index)
      .arg(t.grid)
      .arg(t.block_size - 1)
      .arg(t.workspace == Workspace::Shared || t.unroll > 1
               ? " (the load step fills the workspace first)"
               : " (reduced in place in global memory)");
}

BlockView::Layout BlockView::compute_layout(int width) const {
  Layout l;
  const QFontMetrics fm(font());
  const int B = trace_ ? trace_->block_size : 32;
  const int usable = std::max(32 * cell_, width - 2 * kMargin - kGutter);
  // Whole warps per row, a power of two of them, so every row holds the same warps.
  const int warps_fit = std::max(1, usable / cell_ / 32);
  l.columns = std::min(32 * int(std::bit_floor(unsigned(warps_fit))), std::max(32, B));
  l.rows = (B + l.columns - 1) / l.columns;
  l.strip_h = std::max(3, cell_ / 3);
  // Arcs from sources to destinations rise into the gap above each row.
  const int arc_room = std::max(4, cell_ * 3 / 5);
  l.row_h = cell_ + l.strip_h + 2 + arc_room;
  l.left = kMargin + kGutter;
  // Reserve the tallest caption of the trace so the grid does not jump between frames.
  const int text_w = std::max(100, width - 2 * kMargin);
  int caption_h = fm.height();
  for (int f = 0; f < std::max(1, frame_count()); ++f)
    caption_h = std::max(
        caption_h,
        fm.boundingRect(QRect(0, 0, text_w, 10000), Qt::TextWordWrap, caption_for(f)).height());
  l.caption_h = caption_h;
  l.header = kMargin + 2 * fm.height() + 4 + caption_h + 6;
  l.grid_top = l.header + arc_room;
  l.footer = compact_ ? fm.height() + 10 : 6 * fm.height() + 24;
  l.height = l.grid_top + l.rows * l.row_h + l.footer + kMargin;
  return l;
}

void BlockView::ensure_layout() const {
  // A hidden widget gets no resize event; keep the layout in step with the width anyway.
  if (layout_width_ != width()) {
    layout_ = compute_layout(width());
    layout_width_ = width();
  }
}

void BlockView::relayout() {
  layout_ = compute_layout(width());
  layout_width_ = width();
  updateGeometry();
  update();
}

void BlockView::resizeEvent(QResizeEvent*) {
  relayout();
}

int BlockView::heightForWidth(int width) const {
  return compute_layout(width).height;
}

QSize BlockView::sizeHint() const {
  const int B = trace_ ? trace_->block_size : 32;
  const int w = 2 * kMargin + kGutter + std::min(B, 64) * cell_;
  return {w, heightForWidth(w)};
}

// At least one warp's 32 cells at the chosen zoom: the scroll area scrolls instead of clipping.
QSize BlockView::minimumSizeHint() const {
  return {2 * kMargin + kGutter + 32 * cell_, 120};
}

int BlockView::columns() const {
  ensure_layout();
  return layout_.columns;
}

QRect BlockView::cell_rect(int index) const {
  ensure_layout();
  const int row = index / layout_.columns, col = index % layout_.columns;
  return {layout_.left + col * cell_, layout_.grid_top + row * layout_.row_h, cell_, cell_};
}

QRect BlockView::lane_rect(int thread) const {
  const QRect c = cell_rect(thread);
  return {c.left(), c.bottom() + 2, cell_, layout_.strip_h};
}

bool BlockView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && trace_) {
    const auto* help = static_cast<QHelpEvent*>(e);
    for (int i = 0; i < trace_->block_size; ++i) {
      const QRect c = cell_rect(i), l = lane_rect(i);
      if (!c.contains(help->pos()) && !l.contains(help->pos())) continue;
      const TraceStep* s = step_for(frame_);
      const double v = s ? s->values[i] : trace_->initial_values[i];
      QString tip = QString("ws[%1] = %2\nthread %1: warp %3, lane %4")
                        .arg(i)
                        .arg(value_text(v, trace_->type))
                        .arg(i / 32)
                        .arg(i % 32);
      if (s) {
        for (std::size_t k = 0; k < s->ops.size(); ++k)
          if (s->threads[k] == unsigned(i))
            tip +=
                QString("\nthis step: ws[%1] += ws[%2]").arg(s->ops[k].first).arg(s->ops[k].second);
      }
      QToolTip::showText(help->globalPos(), tip, this);
      return true;
    }
    QToolTip::hideText();
    return true;
  }
  return QWidget::event(e);
}

}  // namespace rl::gui
