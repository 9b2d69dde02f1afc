// The multi-GPU job of the app's GPU worker (run_worker.h): a run across GPUs queues on the same
// thread as every other GPU job, in a worker process of its own where the executable is there.
#include <string>

#include "engine/core/error.h"
#include "engine/multi/multi_run.h"
#include "engine/process/multi_supervisor.h"
#include "run_worker.h"

namespace rl::gui {

void RunWorker::run_multi(quint64 job, const rl::MultiSpec& spec,
                          std::shared_ptr<std::atomic<bool>> cancel) {
  rl::MultiCallbacks cb;
  cb.on_session = [&](const rl::MultiSession& s) { emit multi_progress(job, s); };
  cb.on_notice = [&](const std::string& what) { emit notice(job, QString::fromStdString(what)); };
  try {
    const rl::MultiSession s = rl::run_multi_gpu(spec, cb, cancel.get());
    emit multi_finished(job, s);
  } catch (const std::exception& e) {
    emit multi_failed(job, QString::fromStdString(e.what()));
  }
}

void RunController::connect_multi() {
  connect(worker_, &RunWorker::multi_progress, this, [this](quint64 id, const MultiSession& s) {
    if (id == multi_current_ && multi_running_) emit multi_progress(s);
  });
  connect(worker_, &RunWorker::multi_finished, this, [this](quint64 id, const MultiSession& s) {
    if (id != multi_current_ || !multi_running_) return;
    multi_running_ = false;
    emit multi_finished(s);
  });
  connect(worker_, &RunWorker::multi_failed, this, [this](quint64 id, const QString& m) {
    if (id != multi_current_ || !multi_running_) return;
    multi_running_ = false;
    emit multi_failed(m);
  });
  connect(worker_, &RunWorker::notice, this, [this](quint64 id, const QString& m) {
    if (id == multi_current_ && multi_running_) emit multi_notice(m);
  });
}

quint64 RunController::start_multi(const rl::MultiSpec& spec) {
  if (multi_cancel_) multi_cancel_->store(true);  // the previous one stops and is ignored
  multi_cancel_ = std::make_shared<std::atomic<bool>>(false);
  multi_current_ = ++next_;
  multi_running_ = true;
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, id = multi_current_, spec, flag = multi_cancel_] {
        w->run_multi(id, spec, flag);
      },
      Qt::QueuedConnection);
  return multi_current_;
}

void RunController::cancel_multi() {
  if (multi_running_ && multi_cancel_) multi_cancel_->store(true);
}

}  // namespace rl::gui
