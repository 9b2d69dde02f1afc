#include "jobs/job_tracker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

namespace rl::gui {

JobTracker::JobTracker(QObject* parent) : QObject(parent) {
  // A thread's progress is read a few times a second: often enough for a bar, never a flood of
  // signals from the thread.
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &JobTracker::poll_threads);
}

JobTracker::~JobTracker() {
  // The jobs' own cancel is not called here: what it reaches (the window's parts) may be gone.
  // The threads see their control's flag; the window cancels its jobs before it closes.
  for (Job* job : jobs_) disconnect(job, nullptr, this, nullptr);
  for (const ThreadJob& t : threads_) {
    t.control->cancel_.store(true);
    t.thread->wait();
    delete t.thread;
  }
}

Job* JobTracker::start(JobKind kind, const QString& title, std::function<void()> on_cancel) {
  auto* job = new Job(++next_id_, kind, title, std::move(on_cancel));
  job->setParent(this);
  jobs_.append(job);
  connect(job, &Job::changed, this, [this, job] { emit progress(job); });
  connect(job, &Job::finished, this, [this, job] {
    jobs_.removeOne(job);
    emit finished(job);
    job->deleteLater();
  });
  emit started(job);
  return job;
}

Job* JobTracker::run_on_thread(JobKind kind, const QString& title,
                               std::function<void(JobControl&)> work,
                               std::function<void(Job*)> done, OnCancel on_cancel) {
  auto control = std::make_shared<JobControl>();
  Job* job = start(kind, title, [control] { control->cancel_.store(true); });
  if (on_cancel == OnCancel::EndAtOnce) {
    // Finished from the event loop, not inside cancel(): the caller's own code runs first.
    connect(job, &Job::changed, this, [job] {
      if (job->cancelling())
        QTimer::singleShot(0, job, [job] { job->finish(JobOutcome::Cancelled); });
    });
  }
  QThread* thread = QThread::create([control, work = std::move(work)] { work(*control); });
  thread->setObjectName("reductionlab-job");
  threads_.append({job, thread, control, on_cancel == OnCancel::EndAtOnce});
  connect(thread, &QThread::finished, this,
          [this, thread, done = std::move(done)] { thread_ended(thread, done); });
  thread->start();
  if (!poll_.isActive()) poll_.start();
  return job;
}

void JobTracker::poll_threads() {
  // A job whose work says nothing of its progress (total 0) may be told it by its owner.
  for (const ThreadJob& t : threads_)
    if (t.job && t.job->running() && t.control->total_.load() > 0)
      t.job->set_progress(t.control->done_.load(), t.control->total_.load());
  if (threads_.isEmpty()) poll_.stop();
}

void JobTracker::thread_ended(QThread* thread, std::function<void(Job*)> done) {
  ThreadJob ended;
  for (int i = 0; i < threads_.size(); ++i)
    if (threads_[i].thread == thread) ended = threads_.takeAt(i);
  thread->deleteLater();
  Job* job = ended.job;
  // Cancelled and ended already (or about to): its result is dropped.
  if (!job || !job->running() || (ended.end_at_once && ended.control->cancelled())) return;
  if (ended.control->total_.load() > 0)
    job->set_progress(ended.control->done_.load(), ended.control->total_.load());
  if (done) done(job);
  job->finish(ended.control->cancelled() ? JobOutcome::Cancelled : JobOutcome::Done);
}

Job* JobTracker::find(quint64 id) const {
  for (Job* job : jobs_)
    if (job->id() == id) return job;
  return nullptr;
}

int JobTracker::threads_running() const {
  return int(threads_.size());  // ended ones leave the list once the GUI thread hears of it
}

void JobTracker::cancel_all() {
  for (Job* job : QList<Job*>(jobs_)) job->cancel();
}

bool JobTracker::wait_for_threads(int timeout_ms) {
  auto waiting = [this] {
    for (const ThreadJob& t : threads_)
      if (t.job && t.job->running()) return true;
    return false;
  };
  QElapsedTimer clock;
  clock.start();
  while (waiting() && clock.elapsed() < timeout_ms)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  return !waiting();
}

}  // namespace rl::gui
