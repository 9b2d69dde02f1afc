// The window's background work through its job tracker: opening a session shows a job, then the
// session; saving and CSV exports run on a thread and write the right file; exporting every chart
// can be cancelled halfway and leaves only whole files; the GPU queue's own jobs (a story's
// measurement) show as jobs; quitting while jobs run cancels them and leaves no thread running.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QStatusBar>
#include <QTemporaryDir>

#include "animation/block_animation.h"
#include "app_sample_session.h"
#include "app_test_support.h"
#include "chart_export.h"
#include "engine/io/export.h"
#include "jobs/gpu_queue_jobs.h"
#include "jobs/job_tracker.h"
#include "jobs/jobs_bar.h"
#include "session_files.h"
#include "session_store.h"

namespace rl::gui {
namespace {

QString write_sample(const QTemporaryDir& dir, const QString& name = "sample.json") {
  const QString path = dir.filePath(name);
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray::fromStdString(session_to_json(test::sample_session())));
  return path;
}

Job* only_job_of(const JobTracker& tracker, JobKind kind) {
  Job* found = nullptr;
  for (Job* j : tracker.running())
    if (j->kind() == kind) found = j;
  return found;
}

TEST(AppJobs, OpeningShowsAJobThenTheSession) {
  QTemporaryDir dir;
  const QString path = write_sample(dir, "big.json");
  MainWindow w(test::quiet_options());
  w.show();
  Job* job = w.open_session_in_background(path);
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->kind(), JobKind::OpenSession);
  EXPECT_EQ(job->title(), "Opening big.json");
  EXPECT_FALSE(w.store()->has_primary());  // read on the job's thread, not here
  EXPECT_TRUE(w.jobs_bar()->isVisible());
  EXPECT_EQ(w.jobs_bar()->shown_job(), job);
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 20000));
  ASSERT_TRUE(w.store()->has_primary()) << w.last_error().toStdString();
  EXPECT_EQ(w.store()->primary().results.size(), test::sample_session().results.size());
  EXPECT_FALSE(w.jobs_bar()->isVisible());
}

TEST(AppJobs, AnOpenCancelledShowsNothing) {
  QTemporaryDir dir;
  const QString path = write_sample(dir);
  MainWindow w(test::quiet_options());
  Job* job = w.open_session_in_background(path);
  job->cancel();
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 5000));
  QCoreApplication::processEvents();
  EXPECT_FALSE(w.store()->has_primary());
  // The reading thread still ends; its session is dropped when it comes.
  ASSERT_TRUE(test::wait_until([&] { return w.jobs()->threads_running() == 0; }, 20000));
  EXPECT_FALSE(w.store()->has_primary());
}

TEST(AppJobs, SaveRunsOnAThreadAndWritesTheSession) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  const QString path = dir.filePath("run.json");
  Job* job = w.start_save_session(path);
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->title(), "Saving run.json");
  EXPECT_TRUE(job->running());  // the call returned before the file was written
  EXPECT_TRUE(w.store()->held());
  // A baseline chosen while the session is written applies when the save ends.
  w.store()->set_baseline("interleaved");
  EXPECT_EQ(w.store()->baseline(), "neighbored");
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 20000));
  EXPECT_FALSE(w.store()->held());
  EXPECT_EQ(w.store()->baseline(), "interleaved");
  QString error;
  const std::optional<Session> back = read_session_file(path, &error);
  ASSERT_TRUE(back.has_value()) << error.toStdString();
  ASSERT_EQ(back->results.size(), w.store()->primary().results.size());
  for (std::size_t i = 0; i < back->results.size(); ++i)
    EXPECT_EQ(back->results[i].point, w.store()->primary().results[i].point);
  // Its speed-ups are those of the baseline when the save began.
  for (const PointResult& r : back->results)
    if (r.point.variant == "neighbored" && r.speedup) EXPECT_DOUBLE_EQ(*r.speedup, 1.0);
}

TEST(AppJobs, SaveEverySessionAndCsvExportsAreJobs) {
  QTemporaryDir dir;
  const QString sample = write_sample(dir);
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(sample));
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  w.store()->set_hidden(1, false);  // the sample beside the run
  auto written = std::make_shared<QStringList>();
  Job* job = w.start_save_all_sessions(dir.filePath("both.json"), written);
  ASSERT_NE(job, nullptr);
  EXPECT_TRUE(job->title().startsWith("Saving 2 sessions")) << job->title().toStdString();
  Job* csv = w.start_export_csv(dir.filePath("summary.csv"), false);
  EXPECT_EQ(w.jobs()->running().size(), 2);
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 20000));
  (void)csv;
  EXPECT_EQ(written->size(), 2);
  for (const QString& p : *written) {
    QString error;
    EXPECT_TRUE(read_session_file(p, &error).has_value()) << error.toStdString();
  }
  QFile f(dir.filePath("summary.csv"));
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(f.readAll().trimmed().split('\n').size(), 5);  // header + the run's 4 points
}

TEST(AppJobs, ExportAllChartsWritesWhatTheHeadlessExportWrites) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(write_sample(dir)));
  Job* job = w.start_export_all_charts(dir.filePath("charts"), QSize(800, 500));
  EXPECT_EQ(job->kind(), JobKind::ExportCharts);
  EXPECT_EQ(job->total(), qint64(chart_kinds().size()));
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 60000));
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  QStringList expected, error_list;
  QString error;
  ASSERT_TRUE(write_all_charts(w.store()->shown(), w.store()->baseline(), w.store()->time_basis(),
                               dir.filePath("headless"), QSize(800, 500), &expected, &error));
  QStringList names;
  for (const QString& p : expected) names << QFileInfo(p).fileName();
  EXPECT_EQ(QDir(dir.filePath("charts")).entryList(QDir::Files, QDir::Name),
            QDir(dir.filePath("headless")).entryList(QDir::Files, QDir::Name));
  EXPECT_FALSE(names.isEmpty());
}

TEST(AppJobs, ExportAllChartsCancelledHalfwayLeavesOnlyWholeFiles) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(write_sample(dir)));
  const QString out = dir.filePath("charts");
  Job* job = w.start_export_all_charts(out, QSize(1600, 1000));
  const qint64 total = job->total();
  ASSERT_TRUE(test::wait_until([&] { return job->done() >= 3; }, 30000));
  job->cancel();
  ASSERT_TRUE(test::wait_until([&] { return !w.jobs()->busy(); }, 30000));
  ASSERT_TRUE(test::wait_until([&] { return w.jobs()->threads_running() == 0; }, 30000));
  const QStringList files = QDir(out).entryList(QDir::Files | QDir::Hidden, QDir::Name);
  EXPECT_LT(files.size(), total);
  for (const QString& f : files) {
    EXPECT_TRUE(f.endsWith(".png")) << f.toStdString();  // no temporary file left behind
    const QImage image(QDir(out).filePath(f));
    EXPECT_FALSE(image.isNull()) << f.toStdString();
    EXPECT_EQ(image.size(), QSize(1600, 1000)) << f.toStdString();
  }
  EXPECT_TRUE(w.statusBar()->currentMessage().startsWith("Cancelled"))
      << w.statusBar()->currentMessage().toStdString();
}

TEST(AppJobs, ARunIsAJobThatEscCancels) {
  MainWindow w(test::quiet_options());
  ExperimentSpec spec = test::tiny_spec();
  // Sizes whose host emulation takes a while, so the run is still going when Esc comes,
  // however fast this machine is.
  spec.sizes = {1 << 22, (1 << 22) + 1, 1 << 23, (1 << 23) + 1, 1 << 24};
  spec.timing.budget_ms = 200;
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(spec);
  w.run();
  Job* job = only_job_of(*w.jobs(), JobKind::Run);
  ASSERT_NE(job, nullptr);
  EXPECT_TRUE(job->title().startsWith("Running 10 points on ")) << job->title().toStdString();
  ASSERT_TRUE(test::wait_until([&] { return job->total() == 10; }, 20000));
  JobOutcome outcome = JobOutcome::Running;
  QObject::connect(job, &Job::finished, [&] { outcome = job->outcome(); });
  w.cancel();  // Esc
  EXPECT_TRUE(job->cancelling());
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 30000));
  QCoreApplication::processEvents();
  EXPECT_EQ(outcome, JobOutcome::Cancelled);
  EXPECT_FALSE(w.jobs()->busy());
}

TEST(AppJobs, AStoryMeasurementIsAJobOfTheQueue) {
  RunController controller;
  JobTracker tracker;
  GpuQueueJobs gpu_jobs(&controller, &tracker);
  controller.measure(test::tiny_spec(), kHostDevice, "Story step 1: reduceNeighbored");
  Job* job = only_job_of(tracker, JobKind::StoryStep);
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->title(), "Story step 1: reduceNeighbored");
  JobOutcome outcome = JobOutcome::Running;
  QObject::connect(job, &Job::finished, [&] { outcome = job->outcome(); });
  ASSERT_TRUE(test::wait_until([&] { return !tracker.busy(); }, 30000));
  EXPECT_EQ(outcome, JobOutcome::Done);
}

TEST(AppJobs, ARecordingIsAJobThatCancelDrops) {
  RunController controller;
  JobTracker tracker;
  GpuQueueJobs gpu_jobs(&controller, &tracker);
  std::vector<TraceRecording> heard;
  QObject::connect(&controller, &RunController::traces_recorded,
                   [&](const TraceRecording& r) { heard.push_back(r); });
  TraceRequest request;
  request.variant = "interleaved";
  request.block_size = 64;
  const quint64 id = controller.record_traces(request, std::nullopt, kHostDevice);
  Job* job = only_job_of(tracker, JobKind::Recording);
  ASSERT_NE(job, nullptr);
  JobOutcome outcome = JobOutcome::Running;
  QObject::connect(job, &Job::finished, [&] { outcome = job->outcome(); });
  job->cancel();
  EXPECT_EQ(outcome, JobOutcome::Cancelled);
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].job, id);
  EXPECT_TRUE(heard[0].cancelled);
  // Whatever the worker brings back later for it is dropped.
  test::wait_until([] { return false; }, 300);
  EXPECT_EQ(heard.size(), 1u);
  EXPECT_FALSE(tracker.busy());
}

TEST(AppJobs, AGifIsEncodedAsAJob) {
  JobTracker tracker;
  BlockAnimationPanel panel;
  panel.set_job_tracker(&tracker);
  panel.resize(1000, 700);
  ASSERT_TRUE(panel.show_variants("interleaved", "neighbored", 64));
  QTemporaryDir dir;
  Job* job = panel.start_export_gif(dir.filePath("block.gif"));
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->kind(), JobKind::ExportGif);
  EXPECT_EQ(job->title(), "Exporting block.gif");
  ASSERT_TRUE(test::wait_until([&] { return !tracker.busy(); }, 60000));
  EXPECT_TRUE(panel.status_text().startsWith(QString("Wrote %1 frames").arg(panel.frame_count())))
      << panel.status_text().toStdString();
  EXPECT_TRUE(QImage(dir.filePath("block.gif")).size().isValid());
  // A folder that does not exist: the job fails and says why.
  job = panel.start_export_gif(dir.filePath("missing/block.gif"));
  ASSERT_TRUE(test::wait_until([&] { return !tracker.busy(); }, 60000));
  EXPECT_NE(panel.status_text().indexOf("Could not write"), -1)
      << panel.status_text().toStdString();
}

TEST(AppJobs, AWindowClosedWhileASessionIsReadWaitsForTheReader) {
  QTemporaryDir dir;
  const QString path = write_sample(dir);
  for (int i = 0; i < 3; ++i) {
    MainWindow w(test::quiet_options());
    w.show();
    w.open_session_in_background(path);
    EXPECT_TRUE(w.close());
    EXPECT_FALSE(w.jobs()->busy());  // the open was cancelled: its session is never shown
  }                                  // the destructor joins the reading thread
}

TEST(AppJobs, QuitWhileJobsRunCancelsThemAndLeavesNoThread) {
  QTemporaryDir dir;
  QPointer<Job> run_job;
  {
    MainWindow w(test::quiet_options());
    ASSERT_TRUE(w.open_session(write_sample(dir)));
    w.show();
    ExperimentSpec spec = test::tiny_spec();
    spec.timing.budget_ms = 500;
    w.experiment()->set_device(kHostDevice);
    w.experiment()->set_spec(spec);
    w.run();
    run_job = only_job_of(*w.jobs(), JobKind::Run);
    Job* charts = w.start_export_all_charts(dir.filePath("charts"), QSize(1600, 1000));
    Job* save = w.start_save_session(dir.filePath("kept.json"));
    ASSERT_TRUE(charts && save && run_job);
    EXPECT_TRUE(w.close());
    // Files being written were finished, the export stopped; the run stops between samples.
    EXPECT_EQ(w.jobs()->threads_running(), 0);
    EXPECT_EQ(only_job_of(*w.jobs(), JobKind::ExportCharts), nullptr);
    EXPECT_EQ(only_job_of(*w.jobs(), JobKind::SaveSession), nullptr);
    QString error;
    EXPECT_TRUE(read_session_file(dir.filePath("kept.json"), &error).has_value())
        << error.toStdString();
  }  // the window's destructor: the run's worker thread and every job thread are joined
  EXPECT_TRUE(run_job.isNull());
  for (const QString& f : QDir(dir.filePath("charts")).entryList(QDir::Files))
    EXPECT_FALSE(QImage(QDir(dir.filePath("charts")).filePath(f)).isNull()) << f.toStdString();
}

}  // namespace
}  // namespace rl::gui
