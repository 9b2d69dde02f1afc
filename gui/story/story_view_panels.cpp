// The story view's right-hand panels: what changed in the code (the Code view's diff, else the
// variant's explanation) and the block animation of the rung, looping, sized to its half of
// the screen.
#include <QEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTimer>

#include <algorithm>
#include <exception>

#include "animation/block_view.h"
#include "engine/catalog/catalog.h"
#include "engine/trace/trace.h"
#include "story/story_view.h"

namespace rl::gui {

namespace {
// One frame every kFrameMs, the transition drawn over its first half, the last frame held.
constexpr int kFrameMs = 900, kHoldTicks = 50;
}  // namespace

void StoryView::fill_code(const ResolvedStep& s) {
  const StoryCode& c = s.code;
  if (c.lines.empty()) {
    code_title_->setText(
        c.from.empty() ? QString("What it does (%1)").arg(QString::fromStdString(c.note))
                       : QString("What changed from %1: %2")
                             .arg(QString::fromStdString(c.from), QString::fromStdString(c.note)));
    code_->setPlainText(QString::fromStdString(c.explanation));
    return;
  }
  code_title_->setText(QString("What changed from %1 (+%2 −%3 lines)")
                           .arg(QString::fromStdString(c.from))
                           .arg(c.added)
                           .arg(c.removed));
  QStringList lines;
  for (const code::DiffLine& d : c.lines) {
    const char* mark = d.kind == code::DiffLine::Kind::Added     ? "+ "
                       : d.kind == code::DiffLine::Kind::Removed ? "- "
                                                                 : "  ";
    lines << mark + QString::fromStdString(d.text);
  }
  code_->setPlainText(lines.join('\n'));
}

void StoryView::fill_animation(const ResolvedStep& s) {
  const VariantInfo* v = find_variant_by_id(s.step.point.variant);
  timer_->stop();
  if (!v || !has_trace(*v)) {
    block_->set_trace(nullptr);
    block_->hide();
    animation_note_->setText(QString("No step-by-step trace of %1: its block is library or "
                                     "streaming code the block model does not draw.")
                                 .arg(QString::fromStdString(s.step.title)));
    return;
  }
  TraceRequest r;
  r.variant = s.step.point.variant;
  r.unroll = s.step.point.unroll;
  r.workspace = s.step.point.workspace;
  r.type = s.step.point.type;
  r.block_size = story_.animation_block;
  r.rows = s.step.point.rows;  // a matrix step's shape (0 x 0 for a whole array)
  r.cols = s.step.point.cols;
  try {
    block_->set_trace(std::make_shared<const Trace>(make_trace(r)));
  } catch (const std::exception& e) {
    block_->set_trace(nullptr);
    animation_note_->setText(QString::fromStdString(e.what()));
    return;
  }
  block_->show();
  animation_note_->setText(QString("One block of %1 threads, from the block model (the "
                                   "measured launch has %2)")
                               .arg(story_.animation_block)
                               .arg(s.step.point.block_size
                                        ? QString("%1").arg(s.step.point.block_size)
                                        : QString("its own block size")));
  phase_ = 0;
  hold_ = 0;
  block_->set_frame(0);
  timer_->start();
}

void StoryView::tick_animation() {
  const int frames = block_->frame_count();
  if (frames <= 1) return;
  const int f = block_->frame();
  if (f >= frames - 1 && block_->progress() >= 1) {
    if (++hold_ < kHoldTicks) return;
    hold_ = 0;
    phase_ = 0;
    block_->set_frame(0);
    return;
  }
  phase_ += double(kStoryTickMs) / kFrameMs;
  if (phase_ >= 1) {
    phase_ = 0;
    block_->set_frame(f + 1, 0.0);
    return;
  }
  block_->set_frame(f, std::min(1.0, phase_ * 2));  // the move in the first half, then held
}

bool StoryView::eventFilter(QObject* watched, QEvent* event) {
  // One warp per row at the largest cells that fit: lanes legible from the back of the room.
  if (watched == block_ && event->type() == QEvent::Resize)
    block_->set_cell_size(std::clamp((block_->width() - 70) / 32, 4, 40));
  return QWidget::eventFilter(watched, event);
}

}  // namespace rl::gui
