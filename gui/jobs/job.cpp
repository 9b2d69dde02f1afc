#include "jobs/job.h"

namespace rl::gui {

QString job_kind_name(JobKind kind) {
  switch (kind) {
    case JobKind::Run:
      return "Run";
    case JobKind::RemoteRun:
      return "Run on several devices";
    case JobKind::MultiGpuRun:
      return "Multi-GPU run";
    case JobKind::StoryStep:
      return "Story step";
    case JobKind::Recording:
      return "Recording";
    case JobKind::OpenSession:
      return "Open";
    case JobKind::SaveSession:
      return "Save";
    case JobKind::ExportCsv:
      return "Export CSV";
    case JobKind::ExportCharts:
      return "Export charts";
    case JobKind::ExportGif:
      return "Export GIF";
  }
  return "Job";
}

Job::Job(quint64 id, JobKind kind, const QString& title, std::function<void()> on_cancel)
    : id_(id), kind_(kind), title_(title), on_cancel_(std::move(on_cancel)) {}

void Job::set_title(const QString& title) {
  if (title == title_) return;
  title_ = title;
  emit changed();
}

void Job::set_progress(qint64 done, qint64 total) {
  if (!running() || (done == done_ && total == total_)) return;
  done_ = done;
  total_ = total;
  emit changed();
}

void Job::cancel() {
  if (!running() || cancelling_ || !on_cancel_) return;
  cancelling_ = true;
  emit changed();
  on_cancel_();
}

void Job::finish(JobOutcome outcome, const QString& message) {
  if (!running() || outcome == JobOutcome::Running) return;
  outcome_ = outcome;
  message_ = message;
  if (outcome == JobOutcome::Done && total_ > 0) done_ = total_;
  emit finished();
}

}  // namespace rl::gui
