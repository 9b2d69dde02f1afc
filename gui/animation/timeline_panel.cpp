// The measured timeline panel: its controls, recording through the GPU worker as a job, the
// session's stored timelines, summaries and export.
#include "animation/timeline_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include "animation/timeline_text.h"
#include "animation/timeline_view.h"
#include "engine/catalog/catalog.h"
#include "format.h"
#include "jobs/job_tracker.h"
#include "run_worker.h"
#include "session_store.h"
#include "wrap_row.h"

namespace rl::gui {

namespace {

QString error_html(const QString& text) {
  return "<span style='color:#b00000'>" + text.toHtmlEscaped() + "</span>";
}

}  // namespace

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
  build_ui();
  update_controls();
}

TimelinePanel::~TimelinePanel() {
  if (job_) job_->finish(JobOutcome::Cancelled, "the panel closed");
}

void TimelinePanel::build_ui() {
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(0, 0, 0, 0);
  auto* row = new WrapRow(this);
  QHBoxLayout* recording = row->add_part();
  QHBoxLayout* blocks = row->add_part();
  QHBoxLayout* beside = row->add_part(1);
  QHBoxLayout* exports = row->add_part();
  record_ = new QPushButton("Record on GPU", this);
  record_->setObjectName("record_timeline");
  record_->setAutoDefault(false);
  sm_ = new QSpinBox(this);
  sm_->setRange(0, 1023);
  sm_->setToolTip("the SM whose first blocks keep their marks (the whole grid runs)");
  blocks_ = new QSpinBox(this);
  blocks_->setRange(1, int(kTimelineMaxBlocks));
  blocks_->setValue(4);
  blocks_->setToolTip("how many blocks of that SM to record: their warps interleave on it");
  second_ = new QComboBox(this);
  second_->setObjectName("timeline_second");
  second_->addItem("nothing", QString());
  for (const VariantInfo& v : catalog())
    if (has_measured_timeline(v))
      second_->addItem(variant_label(v.id, v.default_unroll, false), QString::fromStdString(v.id));
  second_->setToolTip(
      "a second rung recorded with the same block size, workspace, type and N, "
      "drawn on the same time axis");
  second_unroll_ = new QComboBox(this);
  export_ = new QPushButton("Export timeline...", this);
  export_->setObjectName("export_timeline");
  export_->setAutoDefault(false);
  recording->addWidget(record_);
  blocks->addWidget(new QLabel("SM", this));
  blocks->addWidget(sm_);
  blocks->addWidget(new QLabel("blocks", this));
  blocks->addWidget(blocks_);
  beside->addWidget(new QLabel("Beside it", this));
  beside->addWidget(second_, 1);
  beside->addWidget(new QLabel("U", this));
  beside->addWidget(second_unroll_);
  exports->addWidget(export_);
  root->addWidget(row);

  stored_row_ = new WrapRow(this);
  auto* stored_row = static_cast<WrapRow*>(stored_row_);
  QHBoxLayout* stored_a = stored_row->add_part(1);
  QHBoxLayout* stored_b = stored_row->add_part(1);
  stored_a_ = new QComboBox(this);
  stored_a_->setObjectName("stored_first");
  stored_b_ = new QComboBox(this);
  stored_b_->setObjectName("stored_second");
  for (QComboBox* c : {stored_a_, stored_b_}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(24);
  }
  stored_a->addWidget(new QLabel("Stored", this));
  stored_a->addWidget(stored_a_, 1);
  stored_b->addWidget(new QLabel("beside it", this));
  stored_b->addWidget(stored_b_, 1);
  root->addWidget(stored_row_);
  stored_row_->setVisible(false);

  message_ = new QLabel(this);
  message_->setObjectName("timeline_message");
  message_->setWordWrap(true);
  root->addWidget(message_);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  view_ = new TimelineView(scroll);
  view_->setObjectName("timeline_view");
  scroll->setWidget(view_);
  root->addWidget(scroll, 1);
  summary_ = new QLabel(this);
  summary_->setObjectName("timeline_summary");
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  root->addWidget(summary_);

  connect(record_, &QPushButton::clicked, this, [this] { record(); });
  connect(second_, &QComboBox::currentIndexChanged, this, [this] { fill_second_unrolls(); });
  connect(stored_a_, &QComboBox::activated, this, [this] { show_stored(); });
  connect(stored_b_, &QComboBox::activated, this, [this] { show_stored(); });
  connect(export_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, "Export timeline", "timeline.png",
                                                      "PNG (*.png);;SVG (*.svg)");
    QString err;
    if (path.isEmpty()) return;
    if (export_to(path, &err))
      set_message("Wrote " + path.toHtmlEscaped());
    else
      set_message(error_html(err));
  });
  connect(view_, &TimelineView::step_requested, this,
          [this](int timeline, const QString& phase, unsigned index) {
            const MeasuredTimeline* t = view_->timeline(timeline);
            if (t) emit step_requested(qstr(t->variant), t->unroll, t->block_size, phase, index);
          });
}

void TimelinePanel::fill_second_unrolls() {
  const VariantInfo* v = find_variant_by_id(second_->currentData().toString().toStdString());
  second_unroll_->clear();
  second_unroll_->setEnabled(v != nullptr);
  if (!v) return;
  for (int u : v->unroll_factors) second_unroll_->addItem(QString::number(u), u);
  second_unroll_->setCurrentIndex(second_unroll_->findData(v->default_unroll));
}

void TimelinePanel::set_gpu_jobs(RunController* jobs) {
  jobs_ = jobs;
  connect(jobs, &RunController::discovered, this, &TimelinePanel::on_discovery);
  connect(jobs, &RunController::timelines_recorded, this, &TimelinePanel::on_recorded);
  if (jobs->discovery()) on_discovery(*jobs->discovery());
  update_controls();
}

void TimelinePanel::set_job_tracker(JobTracker* tracker) {
  tracker_ = tracker;
}

void TimelinePanel::set_store(SessionStore* store) {
  store_ = store;
}

void TimelinePanel::on_discovery(const Discovery& d) {
  discovered_ = true;
  gpu_device_ = d.gpus.empty() ? -1 : d.gpus.front().index;
  if (!d.gpus.empty()) gpu_ = d.gpus.front();
  no_gpu_reason_ = d.gpus.empty() ? qstr(d.no_gpu_reason) : QString();
  update_controls();
}

void TimelinePanel::set_first_request(std::optional<TimelineRequest> r, const QString& why_not) {
  first_why_not_ = why_not;
  if (r) {
    try {  // a variant without a measured timeline is said before anyone presses Record
      check_timeline_request(*r);
    } catch (const std::exception& e) {
      first_why_not_ = e.what();
      r.reset();
    }
  }
  first_ = std::move(r);
  update_controls();
}

std::optional<TimelineRequest> TimelinePanel::second_request() const {
  const QString id = second_->currentData().toString();
  if (!first_ || id.isEmpty()) return std::nullopt;
  TimelineRequest r = *first_;
  r.variant = id.toStdString();
  r.unroll = second_unroll_->currentData().isValid()
                 ? std::optional<int>(second_unroll_->currentData().toInt())
                 : std::nullopt;
  return r;
}

bool TimelinePanel::record() {
  if (!jobs_ || gpu_device_ < 0 || !first_) {
    update_controls();
    return false;
  }
  TimelineRequest a = *first_;
  a.sm = unsigned(sm_->value());
  a.max_blocks = unsigned(blocks_->value());
  std::optional<TimelineRequest> b = second_request();
  if (b) {
    b->sm = a.sm;
    b->max_blocks = a.max_blocks;
  }
  try {  // a bad pick is said here, before it queues
    check_timeline_request(a);
    if (b) check_timeline_request(*b);
  } catch (const std::exception& e) {
    set_message(error_html(e.what()));
    return false;
  }
  if (job_) job_->finish(JobOutcome::Cancelled, "replaced by a newer request");
  recording_ = jobs_->record_timelines(a, b, gpu_device_);
  if (tracker_)
    job_ =
        tracker_->start(JobKind::Recording, "Recording warp timelines on the GPU", [jobs = jobs_] {
          if (jobs) jobs->cancel_timeline_recording();
        });
  set_message(jobs_->running() ? "Recording the timeline once the run finishes..."
                               : "Recording the timeline on the GPU...");
  return true;
}

void TimelinePanel::on_recorded(const TimelineRecording& r) {
  if (r.job != recording_) return;
  recording_ = 0;
  if (job_) {
    job_->finish(r.cancelled         ? JobOutcome::Cancelled
                 : r.error.isEmpty() ? JobOutcome::Done
                                     : JobOutcome::Failed,
                 r.error);
    job_ = nullptr;
  }
  if (r.cancelled) return set_message("Timeline recording cancelled.");
  if (!r.error.isEmpty()) return set_message(error_html("Recording failed: " + r.error));
  recorded_ = r;
  QString kept;
  if (keep(r, &kept)) {  // shown as the newest of the session's stored timelines
    const int n = stored_a_->count();
    const bool two = r.second != nullptr && n >= 2;
    stored_a_->setCurrentIndex(two ? n - 2 : n - 1);
    stored_b_->setCurrentIndex(two ? stored_b_->count() - 1 : 0);
    show_stored();
  } else {
    showing_recorded_ = true;
    show_timelines(r.first, r.second);
  }
  set_message(QString("Recorded on %1 just now.").arg(qstr(r.first->device).toHtmlEscaped()) +
              kept);
}

bool TimelinePanel::keep(const TimelineRecording& r, QString* words) {
  if (!store_) return false;
  const SessionStore::KeptTimelines kept = store_->add_timelines({r.first, r.second}, gpu_);
  if (kept.index != 0) return false;
  // The window passes the store's session on too; a panel on its own needs it here.
  set_session(store_->shared_primary(), store_->primary_source());
  *words = kept.new_session ? " Kept in a new session (the bundled one stays as shipped)."
                            : " Kept in the shown session.";
  if (kept.dropped > 0)
    *words += QString(" <b>A session keeps at most %1 timelines: the oldest %2 %3 dropped.</b>")
                  .arg(kTimelineMaxPerSession)
                  .arg(kept.dropped)
                  .arg(kept.dropped == 1 ? "was" : "were");
  return true;
}

}  // namespace rl::gui
