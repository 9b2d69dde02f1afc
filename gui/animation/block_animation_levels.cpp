// The block animation panel's levels above the block (the hierarchy plan and view, the open
// multi-GPU session's measured phases), its phase alignment of two traces, and the animated GIF.
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/gif_writer.h"
#include "animation/hierarchy_view.h"
#include "animation/timeline_panel.h"
#include "engine/experiment/spec.h"
#include "engine/views/hierarchy_plan.h"
#include "format.h"
#include "jobs/job_tracker.h"
#include "wrap_row.h"

namespace rl::gui {

namespace {
constexpr std::uint64_t kDefaultLevelsN = std::uint64_t(1) << 28;  // MultiSpec's default size
}  // namespace

// Third row: what the panel shows, and for the levels the GPU count and the exchange.
void BlockAnimationPanel::build_levels_row(QVBoxLayout* root) {
  auto* row = new WrapRow(this);  // on more lines where the tab is narrow
  show_ = new QComboBox(this);
  show_->setObjectName("show");
  show_->addItem("Inside the block");
  show_->addItem("Levels above (grid, GPUs)");
  show_->setToolTip(
      "Inside the block, or the levels above it: the grid, each GPU's shard, the "
      "exchange. Each GPU runs the variant picked above.");
  gpus_ = new QSpinBox(this);
  gpus_->setObjectName("gpus");
  gpus_->setRange(1, HierarchyRequest::kMaxGpus);
  gpus_->setValue(2);
  gpus_->setToolTip("GPUs sharing the reduction: each reduces a shard of N / G elements");
  exchange_ = new QComboBox(this);
  exchange_->setObjectName("exchange");
  for (Exchange e : all_exchanges())
    exchange_->addItem(QString::fromStdString(std::string(to_string(e))), int(e));
  for (int i = 0; i < exchange_->count(); ++i)
    exchange_->setItemData(i, qstr(std::string(describe(all_exchanges()[i]))), Qt::ToolTipRole);
  QHBoxLayout* show = row->add_part();
  show->addWidget(new QLabel("Show", this));
  show->addWidget(show_);
  QHBoxLayout* gpus = row->add_part();
  gpus->addWidget(new QLabel("GPUs", this));
  gpus->addWidget(gpus_);
  QHBoxLayout* exchange = row->add_part();
  exchange->addWidget(new QLabel("Exchange", this));
  exchange->addWidget(exchange_);
  levels_n_ = new QLineEdit(this);
  levels_n_->setObjectName("levels_n");
  levels_n_->setPlaceholderText("2^28");
  levels_n_->setToolTip("N split over the GPUs, e.g. 2^30 or 1000003; empty: 2^28");
  levels_n_->setMaximumWidth(110);
  QHBoxLayout* size = row->add_part();
  size->addWidget(new QLabel("N", this));
  size->addWidget(levels_n_);
  build_timeline_toggle(row->add_part());
  root->addWidget(row);
  const auto on_levels = [this] {
    rebuild_levels();
    set_frame(0);
  };
  connect(show_, &QComboBox::currentIndexChanged, this, [this, on_levels] {
    stack_->setCurrentIndex(show_->currentIndex());
    set_playing(false);
    on_levels();
  });
  connect(gpus_, &QSpinBox::valueChanged, this, on_levels);
  connect(levels_n_, &QLineEdit::editingFinished, this, on_levels);
  connect(exchange_, &QComboBox::currentIndexChanged, this, on_levels);
}

bool BlockAnimationPanel::levels_shown() const {
  return show_ && show_->currentIndex() == 1;
}

void BlockAnimationPanel::set_levels_shown(bool on) {
  show_->setCurrentIndex(on ? 1 : 0);
}

bool BlockAnimationPanel::set_levels(int gpus, Exchange exchange, const QString& n) {
  const QSignalBlocker a(gpus_), b(exchange_);
  gpus_->setValue(gpus);
  levels_n_->setText(n);
  exchange_->setCurrentIndex(exchange_->findData(int(exchange)));
  rebuild_levels();
  set_frame(0);
  return hierarchy_->plan() != nullptr && gpus_->value() == gpus;
}

void BlockAnimationPanel::set_multi_session(const MultiSession& session, const QString& path) {
  multi_ = session;
  multi_path_ = path;
  // Start on a point the session measured (the largest N and G, NCCL's all-reduce where it
  // ran), so its measured phases show at once.
  if (!session.points.empty()) {
    const MultiPoint* pick = &session.points.back();
    for (const MultiPoint& m : session.points)
      if (m.status == PointStatus::Ok && m.point.exchange == Exchange::NcclAllReduce) pick = &m;
    const MultiPoint& m = *pick;
    const QSignalBlocker a(gpus_), b(exchange_);
    gpus_->setValue(m.point.gpu_count);
    exchange_->setCurrentIndex(exchange_->findData(int(m.point.exchange)));
    levels_n_->setText(QString::number(m.point.size));
  }
  rebuild_levels();
  update_transport();
}

void BlockAnimationPanel::rebuild_levels() {
  if (!hierarchy_) return;
  HierarchyRequest r;
  r.variant = variant_a_->currentData().toString().toStdString();
  r.block_size = block_->currentData().toInt();
  if (unroll_a_->currentData().isValid()) r.unroll = unroll_a_->currentData().toInt();
  r.workspace = static_cast<Workspace>(workspace_->currentData().toInt());
  r.type = static_cast<DType>(type_->currentData().toInt());
  r.gpus = gpus_->value();
  r.exchange = static_cast<Exchange>(exchange_->currentData().toInt());
  r.size = kDefaultLevelsN;
  QString error;
  std::string why;
  const QString n = levels_n_->text().trimmed();
  if (!n.isEmpty() && !parse_size(n.toStdString(), &r.size, &why)) error = qstr(why);
  std::optional<HierarchyPlan> plan;
  if (error.isEmpty()) {
    try {
      plan = make_hierarchy_plan(r);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  QString note =
      "No multi-GPU session is open (File > Open a file from reductionlab-cli run "
      "--devices ... --json): nothing measured to show.";
  std::optional<MeasuredPhases> measured;
  if (multi_ && plan) {
    measured = measured_phases(*multi_, *plan);
    note = measured ? QString("Measured in %1 on %2 with %3 (green lines: medians over the GPUs).")
                          .arg(multi_path_, qstr(measured->devices), qstr(measured->local_label))
                    : QString(
                          "%1 has no verified point of %2 over %3 GPU(s) at this N and type: "
                          "nothing measured to show.")
                          .arg(multi_path_, exchange_->currentText())
                          .arg(r.gpus);
  }
  hierarchy_->set_plan(plan);
  hierarchy_->set_measured(measured, note);
  if (levels_shown())
    status_->setText(plan ? QString("The levels above one block, step by step (the transport and "
                                    "PageDown / PageUp step them).")
                          : "<span style='color:#b00000'>" + error.toHtmlEscaped() + "</span>");
}

void BlockAnimationPanel::set_aligned(bool on) {
  align_->setChecked(on);
}

bool BlockAnimationPanel::aligned() const {
  return !aligned_.empty();
}

void BlockAnimationPanel::realign() {
  aligned_.clear();
  if (align_->isChecked() && side_by_side() && view_a_->trace())
    aligned_ = align_by_phase(*view_a_->trace(), *view_b_->trace());
  update_phase_label();
}

QString BlockAnimationPanel::phase_text() const {
  return phase_label_->text();
}

void BlockAnimationPanel::update_phase_label() {
  if (aligned_.empty() || levels_shown()) {
    phase_label_->setVisible(false);
    phase_label_->clear();
    return;
  }
  const AlignedFrame& f = aligned_[std::clamp(frame_, 0, int(aligned_.size()) - 1)];
  const QString a = qstr(view_a_->trace()->label), b = qstr(view_b_->trace()->label);
  QString held;
  if (f.a_holds && f.b_holds)
    held = "";
  else if (f.a_holds)
    held = QString(" (%1 has no more steps in it: it holds its frame)").arg(a);
  else if (f.b_holds)
    held = QString(" (%1 has no more steps in it: it holds its frame)").arg(b);
  phase_label_->setText(QString("Aligned by phase: both views show <b>%1</b>%2.")
                            .arg(qstr(std::string(phase_name(f.phase))), held.toHtmlEscaped()));
  phase_label_->setVisible(true);
}

int BlockAnimationPanel::export_gif(const QString& path, QString* error) {
  if (frame_count() == 0) {
    if (error) *error = "Nothing to export: no trace is shown.";
    return -1;
  }
  const std::vector<QImage> frames = render_all_frames();
  const int delay = gif_delay_for_speed(speed_->currentData().toDouble());
  if (!write_animated_gif(frames, delay, path, error)) return -1;
  return int(frames.size());
}

void BlockAnimationPanel::ask_export_gif() {
  const QString path = QFileDialog::getSaveFileName(this, "Export animated GIF",
                                                    "block-animation.gif", "GIF (*.gif)");
  if (path.isEmpty()) return;
  if (tracker_) return void(start_export_gif(path));
  QString err;
  const int n = export_gif(path, &err);
  status_->setText(n < 0 ? "<span style='color:#b00000'>" + err.toHtmlEscaped() + "</span>"
                         : QString("Wrote %1 frames to %2").arg(n).arg(path.toHtmlEscaped()));
}

void BlockAnimationPanel::set_job_tracker(JobTracker* tracker) {
  tracker_ = tracker;
  timeline_->set_job_tracker(tracker);
}

Job* BlockAnimationPanel::start_export_gif(const QString& path) {
  if (frame_count() == 0) {
    status_->setText("<span style='color:#b00000'>Nothing to export: no trace is shown.</span>");
    return nullptr;
  }
  // Drawn here (the views are widgets); the quantizing and encoding, the slow part, on a thread.
  auto frames = std::make_shared<const std::vector<QImage>>(render_all_frames());
  auto error = std::make_shared<QString>();
  const int delay = gif_delay_for_speed(speed_->currentData().toDouble());
  return tracker_->run_on_thread(
      JobKind::ExportGif, "Exporting " + QFileInfo(path).fileName(),
      [frames, delay, path, error](JobControl&) {
        write_animated_gif(*frames, delay, path, error.get());
      },
      [self = QPointer<BlockAnimationPanel>(this), frames, path, error](Job* job) {
        if (!error->isEmpty()) job->finish(JobOutcome::Failed, *error);
        if (!self) return;
        self->status_->setText(
            error->isEmpty()
                ? QString("Wrote %1 frames to %2").arg(frames->size()).arg(path.toHtmlEscaped())
                : "<span style='color:#b00000'>" + error->toHtmlEscaped() + "</span>");
      });
}

}  // namespace rl::gui
