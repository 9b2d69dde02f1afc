// The window's side of its background work (jobs/job_tracker.h): files read and written on the
// tracker's threads (sessions, CSV, charts), the run's job, and quitting while jobs run. The work
// gets what it needs shared or by value; what comes back is shown on the GUI thread.
#include <QCloseEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>

#include "engine/io/export.h"
#include "jobs/chart_export_job.h"
#include "jobs/job_tracker.h"
#include "jobs/read_position.h"
#include "local_run.h"
#include "main_window.h"
#include "multi_gpu_view.h"
#include "remote/remote_run.h"
#include "run_worker.h"
#include "session_files.h"
#include "session_store.h"

namespace rl::gui {

struct MainWindow::FileToWrite {
  QString path;
  std::function<std::string()> bytes;  // run on the job's thread; may throw
};

bool MainWindow::wait_for_job(Job* job) {
  if (!job) return false;
  // Ended already (a save refused before its thread started): finished() will not come again.
  if (!job->running()) return job->outcome() == JobOutcome::Done;
  bool done = false;
  QEventLoop loop;
  connect(job, &Job::finished, &loop, [&done, &loop, job] {
    done = job->outcome() == JobOutcome::Done;
    loop.quit();
  });
  loop.exec();
  return done;
}

Job* MainWindow::start_writing(JobKind kind, const QString& title, const QString& error_title,
                               std::vector<FileToWrite> files, int holds,
                               std::shared_ptr<QStringList> written) {
  if (!written) written = std::make_shared<QStringList>();
  auto error = std::make_shared<QString>();
  auto work = [files = std::move(files), written, error](JobControl& control) {
    const qint64 n = qint64(files.size());
    for (qint64 i = 0; i < n && !control.cancelled(); ++i) {
      const FileToWrite& f = files[size_t(i)];
      try {
        if (!write_text_file(f.path, f.bytes(), error.get())) return;
      } catch (const std::exception& e) {
        *error = QString("cannot write %1: %2").arg(f.path, QString::fromUtf8(e.what()));
        return;
      }
      *written << f.path;  // read on the GUI thread once the thread has ended
      if (n > 1) control.set_progress(i + 1, n);
    }
  };
  auto done = [this, holds, written, error, error_title](Job* job) {
    for (int i = 0; i < holds; ++i) store_->release_hold();
    if (!error->isEmpty()) {
      job->finish(JobOutcome::Failed, *error);
      report_error(error_title, *error);
    } else if (job->cancelling()) {
      statusBar()->showMessage(QString("%1 cancelled; %2 file(s) written, each whole.")
                                   .arg(job->title())
                                   .arg(written->size()),
                               8000);
    } else {
      statusBar()->showMessage("Saved " + written->join(", "), 6000);
    }
  };
  return jobs_->run_on_thread(kind, title, std::move(work), std::move(done));
}

Job* MainWindow::start_save_session(const QString& path) {
  if (!store_->has_primary()) {
    report_error("Save session", "There is no session to save yet: run an experiment first.");
    return nullptr;
  }
  std::shared_ptr<const Session> s = store_->hold(0);
  return start_writing(JobKind::SaveSession, "Saving " + QFileInfo(path).fileName(), "Save session",
                       {{path, [s] { return session_to_json(*s); }}}, 1, nullptr);
}

Job* MainWindow::start_save_all_sessions(const QString& path,
                                         std::shared_ptr<QStringList> written) {
  if (!store_->has_primary()) {
    report_error("Save session", "There is no session to save yet: run an experiment first.");
    return nullptr;
  }
  const QFileInfo base(path);
  const QStringList names = store_->names();
  std::vector<FileToWrite> files;
  // The primary, then every overlay shown (the order of SessionStore::shown()).
  for (int i = 0; i < int(store_->open().size()); ++i) {
    if (i > 0 && store_->open()[size_t(i)].hidden) continue;
    QString file = path;
    if (i > 0) {
      QString name = names[i];
      name.replace(QRegularExpression("[^A-Za-z0-9_.]+"), "-");
      name.remove(QRegularExpression("^-+|-+$"));
      file = base.dir().filePath(base.completeBaseName() + "-" + name + "." + base.suffix());
    }
    std::shared_ptr<const Session> s = store_->hold(i);
    files.push_back({file, [s] { return session_to_json(*s); }});
  }
  const int n = int(files.size());
  return start_writing(JobKind::SaveSession,
                       n == 1 ? "Saving " + base.fileName()
                              : QString("Saving %1 sessions beside %2").arg(n).arg(base.fileName()),
                       "Save session", std::move(files), n, written);
}

Job* MainWindow::start_export_csv(const QString& path, bool samples) {
  std::shared_ptr<const Session> s =
      store_->has_primary() ? store_->hold(0) : std::make_shared<const Session>();
  const int holds = store_->has_primary() ? 1 : 0;
  return start_writing(
      JobKind::ExportCsv, "Exporting " + QFileInfo(path).fileName(), "Export CSV",
      {{path, [s, samples] { return samples ? samples_csv(s->results) : summary_csv(*s); }}}, holds,
      nullptr);
}

Job* MainWindow::start_export_all_charts(const QString& dir, QSize size) {
  return start_chart_export(jobs_, store_, dir, size, [this, dir](const ChartExportResult& r) {
    if (!r.error.isEmpty()) return report_error("Export charts", r.error);
    const QString left_out =
        r.left_out.isEmpty() ? QString()
                             : QString("; %1 with nothing to draw left out").arg(r.left_out.size());
    statusBar()->showMessage(QString("%1 %2 charts to %3%4")
                                 .arg(r.cancelled ? "Cancelled: wrote" : "Wrote")
                                 .arg(r.written.size())
                                 .arg(dir, left_out),
                             8000);
  });
}

bool MainWindow::save_session(const QString& path) {
  return wait_for_job(start_save_session(path));
}

bool MainWindow::save_all_sessions(const QString& path, QStringList* written) {
  auto paths = std::make_shared<QStringList>();
  const bool ok = wait_for_job(start_save_all_sessions(path, paths));
  if (written) *written = *paths;
  return ok;
}

bool MainWindow::export_summary_csv(const QString& path) {
  return wait_for_job(start_export_csv(path, false));
}

bool MainWindow::export_samples_csv(const QString& path) {
  return wait_for_job(start_export_csv(path, true));
}

Job* MainWindow::start_save_multi_session(const QString& path) {
  if (!multi_view_->has_session()) return nullptr;
  // A multi-GPU session is small (a point per size and device count): a copy, made here.
  auto s = std::make_shared<const MultiSession>(multi_view_->session());
  return start_writing(JobKind::SaveSession, "Saving " + QFileInfo(path).fileName(),
                       "Save the multi-GPU session",
                       {{path, [s] { return multi_session_to_json(*s); }}}, 0, nullptr);
}

bool MainWindow::save_multi_session(const QString& path) {
  return wait_for_job(start_save_multi_session(path));
}

Job* MainWindow::open_session_in_background(const QString& path, bool overlay) {
  // The engine's reader needs nothing of the window; it cannot be stopped midway, so Cancel ends
  // the job at once and the session read is dropped when it comes.
  auto opened = std::make_shared<OpenedSession>();
  const QFileInfo info(path);
  QString title = "Opening " + (info.fileName().isEmpty() ? path : info.fileName());
  if (info.isFile() && info.size() >= 10'000'000)  // the size where the bar takes a while
    title += QString(" (%1 MB)").arg(info.size() / 1'000'000);
  Job* job = jobs_->run_on_thread(
      JobKind::OpenSession, title,
      [opened, path, overlay](JobControl&) { *opened = read_opened_session(path, overlay); },
      [this, opened, path, overlay](Job* job) {
        if (!show_opened_session(path, overlay, std::move(*opened)))
          job->finish(JobOutcome::Failed, last_error_);
      },
      JobTracker::OnCancel::EndAtOnce);
  // Bytes read so far, from the reader's file offset (jobs/read_position.h): the reader parses
  // as it reads, so this is how far the parse is too.
  if (info.isFile() && info.size() > 0) {
    auto* poll = new QTimer(job);
    connect(poll, &QTimer::timeout, job,
            [job, file = info.canonicalFilePath(), size = info.size()] {
              if (const qint64 pos = file_read_position(file); pos >= 0)
                job->set_progress(pos, size);
            });
    poll->start(100);
  }
  return job;
}

void MainWindow::open_bundled_session() {
  auto read = std::make_shared<std::optional<Session>>();
  auto error = std::make_shared<QString>();
  bundled_job_ = jobs_->run_on_thread(
      JobKind::OpenSession, "Opening the bundled session",
      [read, error](JobControl&) { *read = read_session_file(kBundledSession, error.get()); },
      [this, read, error](Job* job) {
        if (!*read) {
          report_error("Bundled session", *error);
          job->finish(JobOutcome::Failed, *error);
          return;
        }
        if (store_->has_primary()) return;  // a run or a file came first: theirs stays shown
        store_->set_primary(std::move(**read), "bundled session");
        update_banner();
        update_baselines();
        statusBar()->showMessage(
            "Showing the bundled session. Ctrl+R runs the experiment on the left.", 8000);
      },
      JobTracker::OnCancel::EndAtOnce);
}

bool MainWindow::wait_for_bundled_session() {
  wait_for_job(bundled_job_);
  return store_->has_primary() && store_->primary_source() == "bundled session";
}

void MainWindow::export_all_charts_interactive() {
  const QString dir = QFileDialog::getExistingDirectory(this, "Folder for the charts", last_dir_);
  if (!dir.isEmpty()) start_export_all_charts(dir, export_size_);
}

// The run on this machine or on several devices, as one job: its bar counts points.
void MainWindow::start_run_job(const ExperimentSpec& spec, const QString& where, bool remote) {
  if (run_job_) run_job_->finish(JobOutcome::Cancelled);
  const std::size_t points = expand(spec).size();
  run_job_ = jobs_->start(
      remote ? JobKind::RemoteRun : JobKind::Run,
      QString("Running %1 point%2 on %3").arg(points).arg(points == 1 ? "" : "s").arg(where),
      [this] { cancel_run_work(); });
}

void MainWindow::end_run_job(bool failed, bool cancelled, const QString& message) {
  if (!run_job_) return;
  run_job_->finish(failed      ? JobOutcome::Failed
                   : cancelled ? JobOutcome::Cancelled
                               : JobOutcome::Done,
                   message);
  run_job_ = nullptr;
}

bool MainWindow::end_jobs_for_quit() {
  if (jobs_->busy() && options_.dialogs) {
    QStringList titles;
    for (const Job* j : jobs_->running()) titles << j->title();
    const auto answer = QMessageBox::question(
        this, "Quit while jobs run",
        QString("%1 still running:\n  %2\n\nQuit and cancel them? A run keeps its checkpoint; "
                "a session being saved is saved first.")
            .arg(titles.size() == 1 ? "A job is" : QString("%1 jobs are").arg(titles.size()))
            .arg(titles.join("\n  ")),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return false;
  }
  controller_->cancel(/*keep_checkpoint=*/true);  // the next start offers to resume it
  controller_->cancel_multi();
  // A save the person asked for is finished, not cancelled: quitting must not lose it.
  for (Job* j : jobs_->running())
    if (j != run_job_ && j->kind() != JobKind::SaveSession) j->cancel();
  for (const Lane& l : lanes_) {
    if (l.remote) l.remote->cancel();
    if (l.local) l.local->cancel();
  }
  // A file being written is finished (each is whole, or not there) and the window's part of
  // each job ends with it. A session still being read is dropped; the tracker waits for its
  // thread when the window is destroyed.
  jobs_->wait_for_threads(30000);
  return true;
}

}  // namespace rl::gui
