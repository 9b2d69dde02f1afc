// The block animation panel's measured timeline (timeline_panel.h): under the views in a
// splitter, shown by its box; it records what the pickers show, and a click on a step's span
// steps the animation to that step.
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/timeline_panel.h"
#include "format.h"

namespace rl::gui {

namespace {

// The trace step a timeline span of `phase` (index: the stride of "tree" and "last warp") is
// drawn from: the one of the same kind and stride, else the first of that kind; -1 for none.
int step_of(const Trace& t, const QString& phase, unsigned index) {
  const std::string kind = phase == "last warp" ? "last_warp"
                           : phase == "write"   ? "write_partial"
                                                : phase.toStdString();
  const bool strided = kind == "tree" || kind == "last_warp";
  int first = -1;
  for (int i = 0; i < int(t.steps.size()); ++i) {
    if (t.steps[i].kind != kind) continue;
    if (!strided || t.steps[i].stride == index) return i;
    if (first < 0) first = i;
  }
  return first;
}

}  // namespace

void BlockAnimationPanel::build_timeline_toggle(QHBoxLayout* part) {
  timeline_box_ = new QCheckBox("Measured timeline", this);
  timeline_box_->setObjectName("show_timeline");
  timeline_box_->setToolTip(
      "Under the animation: when each warp of a few blocks ran each phase and waited at each "
      "__syncthreads(), as the GPU stamped it");
  part->addWidget(timeline_box_);
}

void BlockAnimationPanel::connect_timeline() {
  connect(timeline_box_, &QCheckBox::toggled, this, [this](bool on) { timeline_->setVisible(on); });
  connect(timeline_, &TimelinePanel::step_requested, this, &BlockAnimationPanel::step_to);
}

void BlockAnimationPanel::set_timeline_shown(bool on) {
  timeline_box_->setChecked(on);
}

bool BlockAnimationPanel::timeline_shown() const {
  return timeline_box_->isChecked();
}

void BlockAnimationPanel::set_session(std::shared_ptr<const Session> session, const QString& name) {
  timeline_->set_session(std::move(session), name);
}

void BlockAnimationPanel::update_timeline_request() {
  QString error;
  const std::optional<TraceRequest> t = request_from(variant_a_, unroll_a_, &error);
  if (!t) return timeline_->set_first_request(std::nullopt, error);
  TimelineRequest r;
  r.variant = t->variant;
  r.block_size = t->block_size;
  r.unroll = t->unroll;
  r.workspace = t->workspace;
  r.type = t->type;
  if (t->size != 0) r.size = t->size;  // else the request's default N
  timeline_->set_first_request(r);
}

bool BlockAnimationPanel::step_to(const QString& variant, int unroll, int block_size,
                                  const QString& phase, unsigned index) {
  const std::string id = variant.toStdString();
  for (BlockView* view : {view_a_, view_b_}) {
    const Trace* t = view->trace();
    if (!t || (view == view_b_ && !side_by_side())) continue;
    if (t->variant != id || t->unroll != unroll || t->block_size != block_size) continue;
    const int step = step_of(*t, phase, index);
    if (step < 0) continue;
    const int frame = step + 1;  // frame k shows the block after step k - 1
    set_playing(false);
    int target = frame;
    for (int f = 0; f < int(aligned_.size()); ++f)
      if ((view == view_a_ ? aligned_[f].frame_a : aligned_[f].frame_b) == frame) {
        target = f;
        break;
      }
    set_frame(target);
    status_->setText(QString("The timeline's %1 span: step %2 of %3.")
                         .arg(phase == "tree" || phase == "last warp"
                                  ? QString("%1 (stride %2)").arg(phase).arg(index)
                                  : phase,
                              QString::number(step + 1), qstr(t->label))
                         .toHtmlEscaped());
    return true;
  }
  status_->setText(
      QString("The timeline's span is of %1 (B=%2): pick it above to step the animation to it.")
          .arg(variant_label(id, unroll), QString::number(block_size))
          .toHtmlEscaped());
  return false;
}

}  // namespace rl::gui
