// The app's background work in one place: every job (a run on this machine, on several devices or
// through a launcher, a multi-GPU run, a story step, a recording, opening or saving a session,
// exporting CSV, charts or a GIF) is a Job started here; the tracker says when one starts, moves
// and ends, which are running, and cancels them. The window shows them in one status-bar widget
// (jobs_bar.h) and asks before it quits while one runs.
//
// Work that has no home of its own runs on a thread the tracker starts and waits for
// (run_on_thread); the GPU job queue (run_worker.h) and launchers keep doing their work and only
// report it through a Job. Modelled on KDAB hotspot's JobTracker: a result that arrives for a job
// that was cancelled is dropped, never shown.
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

#include "jobs/job.h"

class QThread;

namespace rl::gui {

// What a job's thread sees: whether cancel was asked for, and where to say how far it is. The
// GUI thread reads the progress a few times a second; nothing here waits.
class JobControl {
 public:
  bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }
  void set_progress(qint64 done, qint64 total) {
    total_.store(total, std::memory_order_relaxed);
    done_.store(done, std::memory_order_relaxed);
  }

 private:
  friend class JobTracker;
  std::atomic<bool> cancel_{false};
  std::atomic<qint64> done_{0}, total_{0};
};

class JobTracker : public QObject {
  Q_OBJECT
 public:
  explicit JobTracker(QObject* parent = nullptr);
  // Cancels every job and waits for the tracker's threads: none outlives the window.
  ~JobTracker() override;

  // A job whose work runs elsewhere (the GPU job queue, a launcher's process): its owner reports
  // progress and finishes it. on_cancel: what Cancel does; empty: it cannot be cancelled.
  Job* start(JobKind kind, const QString& title, std::function<void()> on_cancel = {});

  // How a thread's job ends when it is cancelled.
  enum class OnCancel {
    WaitForThread,  // the work checks JobControl::cancelled() and returns soon
    EndAtOnce,      // the job ends now; the thread runs on unseen, its result dropped (a read
                    // that cannot be stopped midway); the tracker still waits for it at exit
  };
  // A job whose work runs on a thread of the tracker's: work(control) there, then done(job) on the
  // GUI thread, the job still running, unless it was cancelled with EndAtOnce. done may finish
  // the job with its outcome; if it does not, the job ends Done, or Cancelled when cancel was
  // asked for. work must not touch the window: it gets what it needs by value or shared.
  Job* run_on_thread(JobKind kind, const QString& title, std::function<void(JobControl&)> work,
                     std::function<void(Job*)> done, OnCancel on_cancel = OnCancel::WaitForThread);

  QList<Job*> running() const { return jobs_; }
  Job* find(quint64 id) const;
  bool busy() const { return !jobs_.isEmpty(); }
  int threads_running() const;
  void cancel_all();
  // Runs the event loop until every thread whose job still runs has ended and its job finished;
  // false after timeout_ms. (A job cancelled with EndAtOnce has ended; its thread is waited
  // for when the tracker is destroyed.)
  bool wait_for_threads(int timeout_ms);

 signals:
  void started(rl::gui::Job* job);
  void progress(rl::gui::Job* job);  // its title, progress or cancelling changed
  void finished(rl::gui::Job* job);  // deleted once the event loop turns

 private:
  struct ThreadJob {
    QPointer<Job> job;
    QThread* thread = nullptr;
    std::shared_ptr<JobControl> control;
    bool end_at_once = false;
  };
  void poll_threads();
  void thread_ended(QThread* thread, std::function<void(Job*)> done);
  QList<Job*> jobs_;
  QList<ThreadJob> threads_;
  QTimer poll_;
  quint64 next_id_ = 0;
};

}  // namespace rl::gui
