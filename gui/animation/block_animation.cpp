// The block animation panel: building traces from the pickers, GPU recording on a worker
// thread, the play clock and stepping (the widgets are in block_animation_ui.cpp; the levels
// above the block, phase alignment and the GIF in block_animation_levels.cpp; the PNG exports
// in block_animation_export.cpp).
#include "animation/block_animation.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

#include "animation/block_view.h"
#include "animation/hierarchy_view.h"
#include "animation/step_source.h"
#include "animation/timeline_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/spec.h"

namespace rl::gui {

namespace {
constexpr double kTransitionShare = 0.6;  // share of a step spent animating into it
}  // namespace

BlockAnimationPanel::BlockAnimationPanel(QWidget* parent) : QWidget(parent) {
  build_ui();
  rebuild();
  source_->setItemText(1, "recorded on the GPU: unavailable (no GPU job queue)");
}

BlockAnimationPanel::~BlockAnimationPanel() = default;

void BlockAnimationPanel::set_gpu_jobs(RunController* jobs) {
  jobs_ = jobs;
  source_->setItemText(1, "recorded on the GPU (looking for one...)");
  connect(jobs, &RunController::discovered, this, &BlockAnimationPanel::on_discovery);
  connect(jobs, &RunController::traces_recorded, this, &BlockAnimationPanel::on_recorded);
  timeline_->set_gpu_jobs(jobs);
  if (jobs->discovery()) on_discovery(*jobs->discovery());  // answered before this panel asked
}

void BlockAnimationPanel::on_discovery(const Discovery& d) {
  gpu_device_ = d.gpus.empty() ? -1 : d.gpus.front().index;
  source_->setItemText(
      1, QString::fromStdString(d.gpus.empty()
                                    ? "recorded on the GPU: unavailable (" + d.no_gpu_reason + ")"
                                    : "recorded on " + d.gpus.front().label()));
  if (auto* m = qobject_cast<QStandardItemModel*>(source_->model()))
    m->item(1)->setEnabled(gpu_device_ >= 0);
}

std::optional<TraceRequest> BlockAnimationPanel::request_from(QComboBox* variant, QComboBox* unroll,
                                                              QString* error) const {
  TraceRequest r;
  r.variant = variant->currentData().toString().toStdString();
  r.block_size = block_->currentData().toInt();
  if (unroll->currentData().isValid()) r.unroll = unroll->currentData().toInt();
  r.workspace = static_cast<Workspace>(workspace_->currentData().toInt());
  r.type = static_cast<DType>(type_->currentData().toInt());
  r.block_index = static_cast<unsigned>(block_index_->value());
  const VariantInfo* v = find_variant_by_id(r.variant);
  if (v != nullptr && v->is_segmented()) {
    // A matrix variant's N is its shape's: the N field does not apply.
    const QString shape = shape_->text().trimmed();
    if (shape.isEmpty()) {
      *error = "Shape: " + QString::fromStdString(v->id) +
               " sums the rows of a matrix; type its rows x cols, e.g. 6x40";
      return std::nullopt;
    }
    MatrixShape m;
    std::string why;
    if (!parse_shape(shape.toStdString(), &m, &why)) {
      *error = "Shape: " + QString::fromStdString(why);
      return std::nullopt;
    }
    r.rows = m.rows;
    r.cols = m.cols;
    return r;
  }
  const QString n = size_->text().trimmed();
  if (!n.isEmpty()) {
    std::string why;
    if (!parse_size(n.toStdString(), &r.size, &why)) {
      *error = QString::fromStdString(why);
      return std::nullopt;
    }
  }
  return r;
}

void BlockAnimationPanel::rebuild() {
  recording_ = 0;  // a recording for the old pickers is stale
  set_playing(false);
  rebuild_levels();
  update_timeline_request();
  update_shape_fields();
  QString error;
  const auto ra = request_from(variant_a_, unroll_a_, &error);
  std::optional<TraceRequest> rb;
  if (ra && compare_->isChecked()) rb = request_from(variant_b_, unroll_b_, &error);
  view_b_->setVisible(compare_->isChecked());
  variant_b_->setEnabled(compare_->isChecked());
  unroll_b_->setEnabled(compare_->isChecked());
  std::shared_ptr<const Trace> ta, tb;
  try {
    if (ra) ta = std::make_shared<const Trace>(make_trace(*ra));
    if (rb) tb = std::make_shared<const Trace>(make_trace(*rb));
  } catch (const std::exception& e) {  // rl::Error for a bad pick; bad_alloc if memory runs out
    error = e.what();
    ta.reset();
    tb.reset();
  }
  if (!error.isEmpty() || !ta) {
    status_->setText("<span style='color:#b00000'>" + error.toHtmlEscaped() + "</span>");
    view_a_->set_trace(nullptr);
    view_b_->set_trace(nullptr);
    source_strip_->show_step(nullptr, 0);
    realign();
    update_transport();
    return;
  }
  view_a_->set_trace(ta);
  view_b_->set_trace(tb);
  realign();
  status_->setText(
      QString::fromStdString(ta->label + ": " + find_variant_by_id(ta->variant)->explanation));
  frame_ = 0;
  phase_ = 0;
  show_frame(0, 1.0);
  if (source_->currentIndex() == 1) record_on_gpu(*ra, rb);
}

void BlockAnimationPanel::record_on_gpu(const TraceRequest& a, std::optional<TraceRequest> b) {
  if (gpu_device_ < 0 || !jobs_) {
    status_->setText("No GPU to record on: showing the block model.");
    return;
  }
  // The one GPU worker runs it after any run in progress, so a timed run is never disturbed.
  status_->setText(jobs_->running() ? "Recording the masks on the GPU once the run finishes..."
                                    : "Recording the masks on the GPU...");
  recording_ = jobs_->record_traces(a, b, gpu_device_);
}

void BlockAnimationPanel::on_recorded(const TraceRecording& r) {
  if (r.job != recording_) return;  // the pickers changed since it was asked for
  recording_ = 0;
  if (r.cancelled) {
    status_->setText("GPU recording cancelled: showing the block model.");
    return;
  }
  if (!r.error.isEmpty()) {
    status_->setText("GPU recording failed, showing the model: " + r.error.toHtmlEscaped());
    return;
  }
  view_a_->set_trace(r.first);
  if (r.second) view_b_->set_trace(r.second);
  realign();
  status_->setText("Masks and values recorded on " +
                   QString::fromStdString(r.first->source_device) + ".");
  show_frame(frame_, 1.0);
}

bool BlockAnimationPanel::show_variants(const QString& first, const QString& second, int block_size,
                                        std::optional<int> unroll, Workspace workspace) {
  building_ = true;
  // Ids or the classic names ("reduceUnroll8" also picks unroll 8).
  auto pick = [&unroll](QComboBox* c, const QString& name) {
    const std::optional<VariantRef> ref = resolve_variant(name.toStdString());
    const int i = ref ? c->findData(QString::fromStdString(ref->variant->id)) : -1;
    if (i >= 0) c->setCurrentIndex(i);
    if (ref && ref->unroll && !unroll) unroll = ref->unroll;
    return i >= 0;
  };
  bool ok = pick(variant_a_, first);
  fill_unrolls(variant_a_, unroll_a_);
  compare_->setChecked(!second.isEmpty());
  if (!second.isEmpty()) {
    ok = pick(variant_b_, second) && ok;
    fill_unrolls(variant_b_, unroll_b_);
  }
  const int b = block_->findData(block_size);
  if (b >= 0) block_->setCurrentIndex(b);
  ok = b >= 0 && ok;
  if (unroll) {  // each side takes it where its variant does, else keeps its default
    for (QComboBox* c : {unroll_a_, unroll_b_})
      if (const int i = c->findData(*unroll); i >= 0) c->setCurrentIndex(i);
  }
  workspace_->setCurrentIndex(workspace_->findData(int(workspace)));
  building_ = false;
  rebuild();
  return ok && view_a_->trace() != nullptr;
}

// N applies to the whole-array variants, the shape to the matrix ones: each field is enabled
// while a variant shown takes it.
void BlockAnimationPanel::update_shape_fields() {
  auto segmented = [](QComboBox* c) {
    const VariantInfo* v = find_variant_by_id(c->currentData().toString().toStdString());
    return v != nullptr && v->is_segmented();
  };
  const bool a = segmented(variant_a_), b = compare_->isChecked() && segmented(variant_b_);
  const bool b_whole = compare_->isChecked() && !segmented(variant_b_);
  shape_->setEnabled(a || b);
  size_->setEnabled(!a || b_whole);
}

void BlockAnimationPanel::set_shape(const QString& shape) {
  shape_->setText(shape);
  rebuild();
}

bool BlockAnimationPanel::side_by_side() const {
  return compare_->isChecked() && view_b_->trace();
}

int BlockAnimationPanel::frame_count() const {
  if (levels_shown()) return hierarchy_->step_count();
  if (!aligned_.empty()) return int(aligned_.size());
  return std::max(view_a_->frame_count(), side_by_side() ? view_b_->frame_count() : 0);
}

void BlockAnimationPanel::show_frame(int f, double progress) {
  frame_ = std::clamp(f, 0, std::max(0, frame_count() - 1));
  if (levels_shown()) {
    hierarchy_->set_step(frame_);
  } else if (!aligned_.empty()) {
    // A view that holds its frame shows it still, not a transition into it.
    const AlignedFrame& a = aligned_[frame_];
    view_a_->set_frame(a.frame_a, a.a_holds ? 1.0 : progress);
    view_b_->set_frame(a.frame_b, a.b_holds ? 1.0 : progress);
  } else {
    view_a_->set_frame(frame_, progress);
    view_b_->set_frame(frame_, progress);
  }
  // The strip follows the first view (in the aligned case, its own frame); cheap per tick.
  source_strip_->setVisible(!levels_shown());
  source_strip_->show_step(levels_shown() ? nullptr : view_a_->trace(), view_a_->frame());
  update_phase_label();
  update_transport();
}

void BlockAnimationPanel::set_frame(int f) {
  phase_ = 0;
  show_frame(f, 1.0);
}

void BlockAnimationPanel::step(int delta) {
  set_playing(false);
  set_frame(frame_ + delta);
}

bool BlockAnimationPanel::playing() const {
  return timer_->isActive();
}

void BlockAnimationPanel::set_playing(bool on) {
  if (on == playing()) return;
  if (on) {
    if (frame_count() <= 1) return;
    if (frame_ >= frame_count() - 1) set_frame(0);
    phase_ = 0;
    clock_.start();
    timer_->start();
  } else {
    timer_->stop();
    show_frame(frame_, 1.0);
  }
  update_transport();
}

void BlockAnimationPanel::tick() {
  const double dt = clock_.restart() / 1000.0;
  phase_ += dt * speed_->currentData().toDouble();
  if (phase_ >= 1.0) {
    phase_ = 0;
    if (frame_ + 1 < frame_count()) {
      show_frame(frame_ + 1, 0.0);
      return;
    }
    if (!loop_->isChecked()) {
      set_playing(false);
      return;
    }
    show_frame(0, 1.0);
    return;
  }
  // Animate the transition into the current frame, then hold it.
  show_frame(frame_, frame_ == 0 ? 1.0 : std::min(1.0, phase_ / kTransitionShare));
}

void BlockAnimationPanel::update_transport() {
  const int n = frame_count();
  {
    const QSignalBlocker block(scrub_);
    scrub_->setRange(0, std::max(0, n - 1));
    scrub_->setValue(frame_);
  }
  frame_label_->setText(QString("%1 / %2").arg(frame_).arg(std::max(0, n - 1)));
  play_->setText(playing() ? "Pause" : "Play");
  back_->setEnabled(frame_ > 0);
  first_->setEnabled(frame_ > 0);
  forward_->setEnabled(frame_ + 1 < n);
  last_->setEnabled(frame_ + 1 < n);
}

QString BlockAnimationPanel::status_text() const {
  return status_->text();
}

}  // namespace rl::gui
