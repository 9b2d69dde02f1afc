#include "jobs/chart_export_job.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryFile>
#include <QTimer>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "charts/chart_widget.h"
#include "jobs/job_tracker.h"
#include "session_files.h"
#include "session_store.h"
#include "time_basis.h"

namespace rl::gui {

namespace {

// Images drawn on the GUI thread, waiting for the writer thread. At most kMaxQueued wait: a
// drawing faster than the encoding does not fill the memory with images.
struct ImageQueue {
  static constexpr std::size_t kMaxQueued = 3;
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<QString, QImage>> items;
  bool closed = false, cancelled = false;
  QStringList written;
  QString error;

  void push(const QString& path, QImage image) {
    {
      std::lock_guard lock(mutex);
      items.emplace_back(path, std::move(image));
    }
    ready.notify_one();
  }
  void close(bool cancel) {
    {
      std::lock_guard lock(mutex);
      closed = true;
      cancelled = cancelled || cancel;
      if (cancel) items.clear();
    }
    ready.notify_one();
  }
  bool full() {
    std::lock_guard lock(mutex);
    return items.size() >= kMaxQueued;
  }
  QString failure() {
    std::lock_guard lock(mutex);
    return error;
  }
  // The writer thread: every image as it comes, until the queue is closed and empty.
  // The tracker's own cancel (the window closing) is seen within 100 ms.
  void write_all(JobControl& control) {
    for (;;) {
      std::unique_lock lock(mutex);
      while (items.empty() && !closed && !control.cancelled())
        ready.wait_for(lock, std::chrono::milliseconds(100));
      if (cancelled || control.cancelled() || items.empty()) return;
      auto [path, image] = std::move(items.front());
      items.pop_front();
      lock.unlock();
      QByteArray bytes;
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      QString why;
      const bool ok =
          image.save(&buffer, "PNG")
              ? write_text_file(
                    path, std::string_view(bytes.constData(), std::size_t(bytes.size())), &why)
              : (why = QString("cannot encode %1 as PNG").arg(path), false);
      lock.lock();
      if (!ok) {
        error = why;
        return;
      }
      written << path;
    }
  }
};

// The GUI thread's side: one chart per turn of the event loop.
class ChartDrawer : public QObject {
 public:
  ChartDrawer(SessionStore* store, const QString& dir, QSize size,
              std::shared_ptr<ImageQueue> queue, std::shared_ptr<ChartExportResult> result)
      : store_(store),
        dir_(dir),
        size_(size),
        queue_(std::move(queue)),
        result_(std::move(result)) {
    for (int i = 0; i < int(store->open().size()); ++i)
      if (!store->open()[size_t(i)].hidden) held_.push_back(store->hold(i));
    const QStringList names = store->names();
    for (int i = 0, h = 0; i < int(store->open().size()); ++i)
      if (!store->open()[size_t(i)].hidden)
        sessions_.push_back({held_[size_t(h++)].get(), names[i]});
    baseline_ = store->baseline();
    basis_ = store->time_basis();
    ladder_ = store->ladder_setting();
  }
  ~ChartDrawer() override {
    queue_->close(false);
    if (store_)
      for (std::size_t i = 0; i < held_.size(); ++i) store_->release_hold();
  }
  int total() const { return int(chart_kinds().size()); }

  void start(Job* job) {
    job_ = job;
    connect(job, &Job::changed, this, [this] {
      if (job_->cancelling()) stop(true);
    });
    QTimer::singleShot(0, this, [this] { step(); });
  }

 private:
  void stop(bool cancel) {
    if (done_) return;
    done_ = true;
    result_->cancelled = cancel;
    queue_->close(cancel);
  }
  void step() {
    if (done_) return;
    if (const QString why = queue_->failure(); !why.isEmpty()) return stop(false);
    if (queue_->full()) return void(QTimer::singleShot(5, this, [this] { step(); }));
    const std::vector<ChartKind>& kinds = chart_kinds();
    if (next_ >= kinds.size()) return finish();
    const ChartKind& kind = kinds[next_++];
    if (job_) job_->set_progress(qint64(next_) - 1, total());
    charts::Chart c = build_chart(kind.id, sessions_, baseline_, basis_, ladder_);
    c.pointer_notes.clear();  // nobody hovers over an image
    if (c.empty()) {
      const QString hint = c.empty_hint.section('\n', 0, 0).trimmed();
      result_->left_out << kind.id + ": " + (hint.isEmpty() ? QString("nothing to draw") : hint);
    } else if (prepare_folder()) {
      ++drawn_;
      queue_->push(QDir(dir_).filePath(c.id + ".png"), charts::render_chart(c, size_));
    } else {
      return stop(false);
    }
    QTimer::singleShot(0, this, [this] { step(); });
  }
  // The folder is made at the first chart that has something to draw: an export with nothing in
  // it fails without creating anything.
  bool prepare_folder() {
    if (folder_ready_) return true;
    if (!QDir(dir_).exists() && !QDir().mkpath(dir_)) {
      result_->error = QString("cannot create the folder %1").arg(dir_);
      return false;
    }
    if (!QFileInfo(dir_).isDir()) {
      result_->error = QString("%1 is not a folder").arg(dir_);
      return false;
    }
    QTemporaryFile probe(QDir(dir_).filePath(".reductionlab-write-test-XXXXXX"));
    if (!probe.open()) {
      result_->error = QString("cannot write into %1: %2").arg(dir_, probe.errorString());
      return false;
    }
    folder_ready_ = true;
    return true;
  }
  void finish() {
    if (job_) job_->set_progress(total(), total());
    if (drawn_ == 0)
      result_->error = QString("no chart has anything to draw in %1; left out:\n  %2")
                           .arg(qtext::time_basis_name(basis_), result_->left_out.join("\n  "));
    stop(false);
  }

  QPointer<SessionStore> store_;
  QString dir_;
  QSize size_;
  std::shared_ptr<ImageQueue> queue_;
  std::shared_ptr<ChartExportResult> result_;
  std::vector<std::shared_ptr<const Session>> held_;
  std::vector<ShownSession> sessions_;
  std::string baseline_;
  TimeBasis basis_ = TimeBasis::Whole;
  std::optional<LadderSetting> ladder_;
  QPointer<Job> job_;
  std::size_t next_ = 0;
  int drawn_ = 0;
  bool folder_ready_ = false, done_ = false;
};

}  // namespace

Job* start_chart_export(JobTracker* tracker, SessionStore* store, const QString& dir, QSize size,
                        std::function<void(const ChartExportResult&)> done) {
  auto queue = std::make_shared<ImageQueue>();
  auto result = std::make_shared<ChartExportResult>();
  auto* drawer = new ChartDrawer(store, dir, size, queue, result);
  const int total = drawer->total();
  Job* job = tracker->run_on_thread(
      JobKind::ExportCharts, QString("Exporting charts to %1").arg(QDir(dir).dirName()),
      [queue](JobControl& control) { queue->write_all(control); },
      [queue, result, done](Job* job) {
        {
          std::lock_guard lock(queue->mutex);
          result->written = queue->written;
          if (result->error.isEmpty()) result->error = queue->error;
        }
        if (!result->error.isEmpty())
          job->finish(JobOutcome::Failed, result->error);
        else if (result->cancelled)
          job->finish(JobOutcome::Cancelled);
        if (done) done(*result);
      });
  job->set_progress(0, total);
  drawer->setParent(job);  // lives while the job does; releases the sessions when it goes
  drawer->start(job);
  return job;
}

}  // namespace rl::gui
