// The job tracker on its own: jobs start, move, finish and cancel; two at once; work on a thread
// of the tracker's reports progress and hands its result back on the GUI thread; the status-bar
// view shows the job in progress and cancels it.
#include <gtest/gtest.h>

#include <QFile>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <chrono>
#include <thread>

#include "app_test_support.h"
#include "jobs/job_tracker.h"
#include "jobs/jobs_bar.h"
#include "jobs/read_position.h"

namespace rl::gui {
namespace {

TEST(JobTracker, StartProgressFinish) {
  JobTracker tracker;
  QSignalSpy started(&tracker, &JobTracker::started);
  QSignalSpy moved(&tracker, &JobTracker::progress);
  QSignalSpy finished(&tracker, &JobTracker::finished);
  Job* job = tracker.start(JobKind::SaveSession, "Saving run.json");
  EXPECT_EQ(started.count(), 1);
  EXPECT_TRUE(tracker.busy());
  EXPECT_EQ(tracker.running(), QList<Job*>{job});
  EXPECT_TRUE(job->indeterminate());
  EXPECT_FALSE(job->can_cancel());
  job->set_progress(3, 10);
  EXPECT_EQ(moved.count(), 1);
  EXPECT_EQ(job->done(), 3);
  EXPECT_EQ(job->total(), 10);
  job->cancel();  // cannot be cancelled: nothing happens
  EXPECT_FALSE(job->cancelling());
  job->finish(JobOutcome::Done);
  EXPECT_EQ(finished.count(), 1);
  EXPECT_EQ(job->done(), 10);
  EXPECT_FALSE(tracker.busy());
  job->finish(JobOutcome::Failed, "late");  // the first outcome stands
  EXPECT_EQ(job->outcome(), JobOutcome::Done);
  EXPECT_EQ(finished.count(), 1);
}

TEST(JobTracker, CancelAsksOnceAndTwoJobsRunApart) {
  JobTracker tracker;
  int asked_a = 0, asked_b = 0;
  Job* a = tracker.start(JobKind::Run, "Running 4 points on the host", [&] { ++asked_a; });
  Job* b = tracker.start(JobKind::ExportCsv, "Exporting summary.csv", [&] { ++asked_b; });
  EXPECT_EQ(tracker.running().size(), 2);
  EXPECT_NE(a->id(), b->id());
  EXPECT_EQ(tracker.find(b->id()), b);
  a->cancel();
  a->cancel();
  EXPECT_EQ(asked_a, 1);
  EXPECT_EQ(asked_b, 0);
  EXPECT_TRUE(a->cancelling());
  EXPECT_TRUE(a->running());  // until its work says it stopped
  a->finish(JobOutcome::Cancelled);
  EXPECT_EQ(tracker.running(), QList<Job*>{b});
  tracker.cancel_all();
  EXPECT_EQ(asked_b, 1);
  b->finish(JobOutcome::Cancelled);
  EXPECT_FALSE(tracker.busy());
}

TEST(JobTracker, ThreadWorkReportsProgressAndEndsOnTheGuiThread) {
  JobTracker tracker;
  std::atomic<QThread*> worked_on{nullptr};
  QThread* done_on = nullptr;
  std::atomic<bool> go{false};
  Job* job = tracker.run_on_thread(
      JobKind::ExportCharts, "Exporting 4 charts",
      [&](JobControl& control) {
        worked_on = QThread::currentThread();
        control.set_progress(1, 4);
        while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        control.set_progress(4, 4);
      },
      [&](Job*) { done_on = QThread::currentThread(); });
  const quint64 id = job->id();
  EXPECT_EQ(tracker.threads_running(), 1);
  ASSERT_TRUE(test::wait_until([&] { return job->done() == 1; }, 5000));
  EXPECT_EQ(job->total(), 4);
  go = true;
  ASSERT_TRUE(test::wait_until([&] { return !tracker.find(id); }, 5000));
  EXPECT_NE(worked_on.load(), QThread::currentThread());
  EXPECT_EQ(done_on, QThread::currentThread());
  EXPECT_EQ(tracker.threads_running(), 0);
}

TEST(JobTracker, CancelledThreadWorkStopsAndEndsCancelled) {
  JobTracker tracker;
  bool done_called = false;
  Job* job = tracker.run_on_thread(
      JobKind::SaveSession, "Saving 3 sessions",
      [](JobControl& control) {
        while (!control.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      },
      [&](Job*) { done_called = true; });
  QSignalSpy finished(&tracker, &JobTracker::finished);
  JobOutcome outcome = JobOutcome::Running;
  QObject::connect(job, &Job::finished, [&] { outcome = job->outcome(); });
  job->cancel();
  ASSERT_TRUE(test::wait_until([&] { return finished.count() == 1; }, 5000));
  EXPECT_TRUE(done_called);  // its result is the window's to tidy up (holds released)
  EXPECT_EQ(outcome, JobOutcome::Cancelled);
}

TEST(JobTracker, EndAtOnceDropsTheResultAndTheTrackerWaitsForTheThread) {
  std::atomic<bool> release{false}, ended{false};
  bool done_called = false;
  {
    JobTracker tracker;
    Job* job = tracker.run_on_thread(
        JobKind::OpenSession, "Opening big.json",
        [&](JobControl&) {
          while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(2));
          ended = true;
        },
        [&](Job*) { done_called = true; }, JobTracker::OnCancel::EndAtOnce);
    job->cancel();
    ASSERT_TRUE(test::wait_until([&] { return !tracker.busy(); }, 5000));
    EXPECT_EQ(tracker.threads_running(), 1);   // the read goes on, unseen
    EXPECT_TRUE(tracker.wait_for_threads(0));  // no running job waits on it
    std::thread([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      release = true;
    }).detach();
  }  // the destructor joins the thread
  EXPECT_TRUE(ended);
  EXPECT_FALSE(done_called);
}

TEST(ReadPosition, SaysHowFarTheFileIsRead) {
  QTemporaryDir dir;
  const QString path = dir.filePath("session.json");
  {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, 'x'));
  }
  const QString canonical = QFileInfo(path).canonicalFilePath();
  EXPECT_EQ(file_read_position(canonical), -1);  // nothing has it open
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly | QIODevice::Unbuffered));
  EXPECT_EQ(file_read_position(canonical), 0);
  ASSERT_EQ(f.read(1000).size(), 1000);
  EXPECT_EQ(file_read_position(canonical), 1000);
}

TEST(JobsBar, ShowsTheJobInProgressAndCancelsIt) {
  JobTracker tracker;
  QWidget host;
  auto& bar = *new JobsBar(&tracker, &host);
  host.resize(700, 40);
  host.show();
  EXPECT_FALSE(bar.isVisible());
  int asked = 0;
  Job* run = tracker.start(JobKind::Run, "Running 12 points on H200", [&] { ++asked; });
  EXPECT_TRUE(bar.isVisible());
  EXPECT_EQ(bar.shown_job(), run);
  EXPECT_EQ(bar.text(), "Running 12 points on H200");
  EXPECT_EQ(bar.bar()->maximum(), 0);  // no total yet: busy
  run->set_progress(3, 12);
  EXPECT_EQ(bar.bar()->maximum(), 12);
  EXPECT_EQ(bar.bar()->value(), 3);
  Job* save = tracker.start(JobKind::SaveSession, "Saving run.json");
  EXPECT_EQ(bar.shown_job(), run);  // the oldest stays in view
  EXPECT_EQ(bar.text(), "Running 12 points on H200  (+1 more)");
  EXPECT_TRUE(bar.toolTip().contains("Saving run.json"));
  bar.cancel_button()->click();
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(bar.text().contains("cancelling"));
  EXPECT_FALSE(bar.cancel_button()->isEnabled());
  run->finish(JobOutcome::Cancelled);
  EXPECT_EQ(bar.shown_job(), save);
  EXPECT_FALSE(bar.cancel_button()->isEnabled());  // a save cannot be cancelled
  // Byte counts past int's range still draw a bar.
  save->set_progress(qint64(3) << 32, qint64(4) << 32);
  EXPECT_EQ(bar.bar()->value() * 4, bar.bar()->maximum() * 3);
  save->finish(JobOutcome::Done);
  EXPECT_FALSE(bar.isVisible());
}

}  // namespace
}  // namespace rl::gui
