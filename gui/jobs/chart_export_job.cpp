#include "jobs/chart_export_job.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryFile>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "charts/chart_widget.h"
#include "jobs/job_tracker.h"
#include "session_files.h"
#include "session_store.h"
#include "time_basis.h"

namespace rl::gui {

namespace {

// What the export draws from: the shown sessions, held for the job's length, and the window's
// choices when it began.
struct ExportInput {
  std::vector<std::shared_ptr<const Session>> held;
  std::vector<ShownSession> sessions;
  std::string baseline;
  TimeBasis basis = TimeBasis::Whole;
  std::optional<LadderSetting> ladder;
  QString dir;
  QSize size;
};

// The GUI thread's part: draws a chart when the job's thread asks (a queued call, one turn of the
// event loop), and gives the sessions back to the store when the job is gone.
class ChartDrawer : public QObject {
 public:
  explicit ChartDrawer(SessionStore* store, int holds) : store_(store), holds_(holds) {}
  ~ChartDrawer() override {
    if (store_)
      for (int i = 0; i < holds_; ++i) store_->release_hold();
  }

 private:
  QPointer<SessionStore> store_;
  int holds_;
};

// One drawing asked of the GUI thread, and its answer.
struct Drawing {
  std::mutex mutex;
  std::condition_variable ready;
  std::optional<QImage> image;
};

// Asks the GUI thread to draw c and waits for it, seeing a cancel within 100 ms; nullopt when
// cancelled (or the drawer is gone: the window is closing).
std::optional<QImage> draw_on_gui_thread(QObject* drawer, const charts::Chart& c, QSize size,
                                         const JobControl& control) {
  auto drawing = std::make_shared<Drawing>();
  auto chart = std::make_shared<const charts::Chart>(c);
  QMetaObject::invokeMethod(
      drawer,
      [drawing, chart, size] {
        QImage image = charts::render_chart(*chart, size);
        {
          std::lock_guard lock(drawing->mutex);
          drawing->image = std::move(image);
        }
        drawing->ready.notify_one();
      },
      Qt::QueuedConnection);
  std::unique_lock lock(drawing->mutex);
  while (!drawing->image && !control.cancelled())
    drawing->ready.wait_for(lock, std::chrono::milliseconds(100));
  return drawing->image;
}

// The folder is made at the first chart that has something to draw: an export with nothing in
// it fails without creating anything. Empty: ready; else why not.
QString prepare_folder(const QString& dir) {
  if (!QDir(dir).exists() && !QDir().mkpath(dir))
    return QString("cannot create the folder %1").arg(dir);
  if (!QFileInfo(dir).isDir()) return QString("%1 is not a folder").arg(dir);
  QTemporaryFile probe(QDir(dir).filePath(".reductionlab-write-test-XXXXXX"));
  if (!probe.open()) return QString("cannot write into %1: %2").arg(dir, probe.errorString());
  return {};
}

// The job's thread: every chart built, drawn (on the GUI thread) and written in turn.
void export_charts(const ExportInput& in, QObject* drawer, JobControl& control,
                   ChartExportResult& out) {
  const std::vector<ChartKind>& kinds = chart_kinds();
  const qint64 total = qint64(kinds.size());
  bool folder_ready = false;
  for (qint64 k = 0; k < total; ++k) {
    control.set_progress(k, total);
    if (control.cancelled()) return void(out.cancelled = true);
    charts::Chart c =
        build_chart(kinds[size_t(k)].id, in.sessions, in.baseline, in.basis, in.ladder);
    c.pointer_notes.clear();  // nobody hovers over an image
    if (c.empty()) {
      const QString hint = c.empty_hint.section('\n', 0, 0).trimmed();
      out.left_out << c.id + ": " + (hint.isEmpty() ? QString("nothing to draw") : hint);
      continue;
    }
    if (!folder_ready) {
      out.error = prepare_folder(in.dir);
      if (!out.error.isEmpty()) return;
      folder_ready = true;
    }
    const std::optional<QImage> image = draw_on_gui_thread(drawer, c, in.size, control);
    if (!image) return void(out.cancelled = true);
    const QString path = QDir(in.dir).filePath(c.id + ".png");
    if (!write_png_file(*image, path, &out.error)) return;
    out.written << path;
  }
  control.set_progress(total, total);
  if (out.written.isEmpty())
    out.error = QString("no chart has anything to draw in %1; left out:\n  %2")
                    .arg(qtext::time_basis_name(in.basis), out.left_out.join("\n  "));
}

}  // namespace

Job* start_chart_export(JobTracker* tracker, SessionStore* store, const QString& dir, QSize size,
                        std::function<void(const ChartExportResult&)> done) {
  auto in = std::make_shared<ExportInput>();
  const QStringList names = store->names();
  for (int i = 0; i < int(store->open().size()); ++i)
    if (!store->open()[size_t(i)].hidden) {
      in->held.push_back(store->hold(i));
      in->sessions.push_back({in->held.back().get(), names[i]});
    }
  in->baseline = store->baseline();
  in->basis = store->time_basis();
  in->ladder = store->ladder_setting();
  in->dir = dir;
  in->size = size;
  auto* drawer = new ChartDrawer(store, int(in->held.size()));
  auto result = std::make_shared<ChartExportResult>();
  Job* job = tracker->run_on_thread(
      JobKind::ExportCharts, QString("Exporting charts to %1").arg(QDir(dir).dirName()),
      [in, drawer, result](JobControl& control) { export_charts(*in, drawer, control, *result); },
      [result, done](Job* job) {
        if (!result->error.isEmpty())
          job->finish(JobOutcome::Failed, result->error);
        else if (result->cancelled)
          job->finish(JobOutcome::Cancelled);
        if (done) done(*result);
      });
  job->set_progress(0, qint64(chart_kinds().size()));
  drawer->setParent(job);  // lives while the job does; gives the sessions back when it goes
  return job;
}

}  // namespace rl::gui
