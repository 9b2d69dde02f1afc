// One piece of the app's background work as the window shows it: what kind it is, a title for
// people ("Opening big.json", "Exporting 9 charts", "Running 12 points on H200"), how far it is
// (done of total, or no total known) and a way to cancel it. The work itself lives where it always
// did (the GPU job queue, a launcher's process, a thread of the tracker's); a Job only reports it,
// so every kind of work is shown and cancelled the same way (job_tracker.h). GUI thread only.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

namespace rl::gui {

enum class JobKind {
  Run,          // an experiment on this machine's GPU job queue
  RemoteRun,    // an experiment on several devices, or through a launcher
  MultiGpuRun,  // one reduction across GPUs (the Several GPUs tab)
  StoryStep,    // a story's "Run this step now"
  Recording,    // the block animation's masks recorded on the GPU
  OpenSession,
  SaveSession,
  ExportCsv,
  ExportCharts,
  ExportGif,
};
QString job_kind_name(JobKind kind);  // "Run", "Open", "Save", ...

enum class JobOutcome { Running, Done, Cancelled, Failed };

class Job : public QObject {
  Q_OBJECT
 public:
  Job(quint64 id, JobKind kind, const QString& title, std::function<void()> on_cancel);

  quint64 id() const { return id_; }
  JobKind kind() const { return kind_; }
  const QString& title() const { return title_; }
  // Progress in the job's own units (points, bytes, charts); total 0: not known.
  qint64 done() const { return done_; }
  qint64 total() const { return total_; }
  bool indeterminate() const { return total_ <= 0; }
  bool can_cancel() const { return bool(on_cancel_); }
  // Cancel was asked for; the work stops at its next chance (a sample, a chart, a file).
  bool cancelling() const { return cancelling_; }
  JobOutcome outcome() const { return outcome_; }
  bool running() const { return outcome_ == JobOutcome::Running; }
  const QString& message() const { return message_; }  // why it failed, or what it did

  void set_title(const QString& title);
  void set_progress(qint64 done, qint64 total);
  // Asks the work to stop (once); a job that cannot be cancelled ignores it.
  void cancel();
  // The work ended; the first call counts, later ones are ignored.
  void finish(JobOutcome outcome, const QString& message = {});

 signals:
  void changed();  // title, progress or cancelling
  void finished();

 private:
  quint64 id_;
  JobKind kind_;
  QString title_, message_;
  qint64 done_ = 0, total_ = 0;
  bool cancelling_ = false;
  JobOutcome outcome_ = JobOutcome::Running;
  std::function<void()> on_cancel_;
};

}  // namespace rl::gui
