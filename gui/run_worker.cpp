#include "run_worker.h"

#include "engine/multi/multi_run.h"

#include <QElapsedTimer>
#include <QFile>

#include <exception>

#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/io/export.h"
#include "engine/io/output_file.h"
#include "engine/run/backend.h"
#include "engine/run/runner.h"
#include "engine/run/supervisor.h"

namespace rl::gui {

void register_metatypes() {
  qRegisterMetaType<rl::PointResult>();
  qRegisterMetaType<rl::Progress>();
  qRegisterMetaType<rl::Session>();
  qRegisterMetaType<rl::gui::UserKernelBuild>();
  qRegisterMetaType<rl::Discovery>();
  qRegisterMetaType<rl::DeviceInfo>();
  qRegisterMetaType<rl::gui::TraceRecording>();
  qRegisterMetaType<rl::MultiSession>();
}

RunWorker::RunWorker() = default;
RunWorker::~RunWorker() =
    default;  // on the worker thread: the backend is released where it was made

void RunWorker::discover() {
  // With the links between the GPUs (NVML's answer takes a moment: off the GUI thread).
  discovery_ = rl::discover_devices_with_links();
  emit discovered(*discovery_);
}

void RunWorker::use_discovery(const rl::Discovery& discovery) {
  discovery_ = discovery;
  emit discovered(*discovery_);
}

bool RunWorker::supervised(quint64 run_id, int device, std::string* worker) {
  if (device == kHostDevice || factory_) return false;
  std::string looked_at;
  *worker = rl::find_worker(&looked_at);
  if (!worker->empty()) return true;
  if (!said_no_worker_) {
    said_no_worker_ = true;
    emit notice(run_id, QString::fromStdString(
                            "No GPU worker process (" + looked_at +
                            " is missing): runs happen in the app's own process, where a GPU "
                            "fault leaves the GPU unusable until the app is restarted"));
  }
  return false;
}

rl::Session RunWorker::run_supervised(quint64 run_id, const std::string& worker,
                                      const rl::ExperimentSpec& spec, int device,
                                      const std::atomic<bool>* cancel,
                                      const rl::RunCallbacks& callbacks, const rl::Session* resume,
                                      const RunProfiling& profiling) {
  if (!discovery_) discovery_ = rl::discover_devices();
  const rl::DeviceInfo* info = nullptr;
  for (const rl::DeviceInfo& d : discovery_->gpus)
    if (d.index == device) info = &d;
  if (!info) throw rl::Error("cuda:" + std::to_string(device) + ": no such GPU");
  rl::SupervisorOptions o;
  o.worker = worker;
  o.device_index = device;
  o.device = *info;
  if (profiling.counters) o.counters = rl::default_counters();
  o.line_samples = profiling.line_samples;
  o.line_counts = profiling.line_counts;
  o.on_notice = [&](const std::string& what) { emit notice(run_id, QString::fromStdString(what)); };
  rl::Supervisor supervisor(std::move(o));
  emit run_started(run_id, supervisor.device());
  return supervisor.run(spec, callbacks, cancel, resume);
}

void RunWorker::run(quint64 run_id, const rl::ExperimentSpec& spec, int device,
                    std::shared_ptr<std::atomic<bool>> cancel, const QString& checkpoint,
                    std::shared_ptr<std::atomic<bool>> discard, std::optional<rl::Session> resume,
                    RunProfiling profiling) {
  if (cancel->load()) {  // cancelled (or replaced) before it began
    Session empty;
    empty.spec = spec;
    empty.cancelled = true;
    emit run_finished(run_id, empty);
    return;
  }
  try {
    std::string worker;
    const bool in_workers = supervised(run_id, device, &worker);
    if (in_workers) {
      runner_.reset();  // no CUDA context is held for a run
      runner_device_ = -2;
    } else if (!runner_ || runner_device_ != device) {
      runner_.reset();
      // Created here, on the worker thread: the CUDA backend calls cudaSetDevice on this thread.
      // A point that faults the GPU fails alone: the runner resets the device and goes on.
      runner_ =
          std::make_unique<rl::Runner>(factory_                ? factory_(device)
                                       : device == kHostDevice ? rl::make_host_backend()
                                                               : rl::make_cuda_backend(device));
      runner_device_ = device;
    }
    if (!in_workers) {
      // The runner is kept between runs: this run's choice replaces the last one's (off first,
      // as the runner refuses the two together).
      runner_->set_line_samples(false);
      runner_->set_counters({});
      if (profiling.line_counts) throw rl::Error(rl::kLineCountsNeedWorkers);
      if (profiling.counters) runner_->set_counters(rl::default_counters());
      if (profiling.line_samples) runner_->set_line_samples(true);
      emit run_started(run_id, runner_->device());
    }
    RunCallbacks callbacks;
    callbacks.on_progress = [&](const Progress& p) { emit progress(run_id, p); };
    callbacks.on_result = [&](const PointResult& r) { emit point_finished(run_id, r); };
    const std::string path = checkpoint.toStdString();
    bool write_failed = false;
    callbacks.on_session = [&](const Session& s) {
      if (path.empty() || write_failed) return;
      const std::string error = rl::write_output_file(path, rl::session_to_json(s));
      if (error.empty()) {
        ++checkpoints_written_;
        return;
      }
      write_failed = true;  // said once; the run goes on
      emit checkpoint_failed(run_id, QString::fromStdString(error));
    };
    const Session* resumed = resume ? &*resume : nullptr;
    Session session = in_workers ? run_supervised(run_id, worker, spec, device, cancel.get(),
                                                  callbacks, resumed, profiling)
                                 : runner_->run(spec, callbacks, cancel.get(), resumed);
    // Finished, or cancelled on purpose: the user has the session. Kept when the app closes.
    if (!path.empty() && (!session.cancelled || (discard && discard->load())))
      QFile::remove(checkpoint);
    emit run_finished(run_id, session);
  } catch (const std::exception& e) {
    if (!runner_ || runner_device_ != device) runner_device_ = -2;
    emit run_failed(run_id, QString::fromStdString(e.what()));
  }
}

void RunWorker::record(quint64 job, const rl::TraceRequest& first,
                       std::optional<rl::TraceRequest> second, int device) {
  TraceRecording out;
  out.job = job;
  try {
    out.first = std::make_shared<const Trace>(record_trace_on_gpu(first, device));
    if (second) out.second = std::make_shared<const Trace>(record_trace_on_gpu(*second, device));
  } catch (const std::exception& e) {
    out.first.reset();
    out.second.reset();
    out.error = QString::fromStdString(e.what());
  }
  emit recorded(out);
}

void RunWorker::compile(quint64 job, const rl::UserKernelSource& source,
                        const rl::UserCompileShape& shape) {
  UserKernelBuild out;
  out.job = job;
  out.source = source;
  out.shape = shape;
  QElapsedTimer clock;
  clock.start();
  register_user_kernel(source);  // the entry names its variant; the contract's refusals are
                                 // in the compiler's diagnostics
  out.code = std::make_shared<const code::UserCode>(code::user_code(source, shape));
  out.wall_ms = double(clock.nsecsElapsed()) / 1e6;
  emit compiled(out);
}

quint64 RunController::compile_user_kernel(const rl::UserKernelSource& source,
                                           const rl::UserCompileShape& shape) {
  compiling_ = ++next_;
  QMetaObject::invokeMethod(
      worker_, [w = worker_, id = compiling_, source, shape] { w->compile(id, source, shape); },
      Qt::QueuedConnection);
  return compiling_;
}

RunController::RunController(QObject* parent) : QObject(parent), worker_(new RunWorker) {
  register_metatypes();
  thread_.setObjectName("reductionlab-runner");
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &RunWorker::discovered, this, [this](const rl::Discovery& d) {
    discovery_ = d;
    emit discovered(d);
  });
  connect(worker_, &RunWorker::recorded, this, [this](const TraceRecording& r) {
    if (r.job == recording_) emit traces_recorded(r);
  });
  connect(worker_, &RunWorker::compiled, this, [this](const UserKernelBuild& b) {
    if (b.job == compiling_) emit user_kernel_compiled(b);
  });
  connect(worker_, &RunWorker::run_started, this, [this](quint64 id, const rl::DeviceInfo& d) {
    if (id == current_ && running_) emit started(d);
  });
  connect(worker_, &RunWorker::progress, this, [this](quint64 id, const rl::Progress& p) {
    if (id == current_ && running_) emit progress(p);
  });
  connect(worker_, &RunWorker::point_finished, this, [this](quint64 id, const rl::PointResult& r) {
    if (id == current_ && running_) emit point_finished(r);
  });
  connect(worker_, &RunWorker::run_finished, this, [this](quint64 id, const rl::Session& s) {
    if (id != 0 && id == measuring_) {
      measuring_ = 0;
      emit measured(id, s);
      return;
    }
    if (id != current_ || !running_) return;
    running_ = false;
    emit finished(s);
  });
  connect(worker_, &RunWorker::checkpoint_failed, this, [this](quint64 id, const QString& m) {
    if (id == current_ && running_) emit checkpoint_failed(m);
  });
  connect(worker_, &RunWorker::notice, this, [this](quint64 id, const QString& m) {
    if (id == current_ && running_) emit notice(m);
  });
  connect(worker_, &RunWorker::run_failed, this, [this](quint64 id, const QString& message) {
    if (id != 0 && id == measuring_) {
      measuring_ = 0;
      emit measure_failed(id, message);
      return;
    }
    if (id != current_ || !running_) return;
    running_ = false;
    emit failed(message);
  });
  connect_multi();
  thread_.start();
}

RunController::~RunController() {
  if (cancel_) cancel_->store(true);
  if (multi_cancel_) multi_cancel_->store(true);
  if (measure_cancel_) measure_cancel_->store(true);
  thread_.quit();
  thread_.wait();
}

void RunController::discover() {
  QMetaObject::invokeMethod(
      worker_, [w = worker_] { w->discover(); }, Qt::QueuedConnection);
}

quint64 RunController::record_traces(const rl::TraceRequest& first,
                                     std::optional<rl::TraceRequest> second, int device) {
  recording_ = ++next_;
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, id = recording_, first, second, device] {
        w->record(id, first, second, device);
      },
      Qt::QueuedConnection);
  return recording_;
}

void RunController::use_discovery(const rl::Discovery& discovery) {
  QMetaObject::invokeMethod(
      worker_, [w = worker_, discovery] { w->use_discovery(discovery); }, Qt::QueuedConnection);
}

quint64 RunController::start(const rl::ExperimentSpec& spec, int device,
                             std::optional<rl::Session> resume, RunProfiling profiling) {
  if (cancel_) cancel_->store(true);    // the previous run, if any, stops and is ignored
  if (discard_) discard_->store(true);  // and leaves the checkpoint to this one
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  discard_ = std::make_shared<std::atomic<bool>>(false);
  current_ = ++next_;
  running_ = true;
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, id = current_, spec, device, flag = cancel_, path = checkpoint_,
       discard = discard_, resume = std::move(resume),
       profiling] { w->run(id, spec, device, flag, path, discard, resume, profiling); },
      Qt::QueuedConnection);
  return current_;
}

quint64 RunController::measure(const rl::ExperimentSpec& spec, int device) {
  if (measure_cancel_) measure_cancel_->store(true);  // an older one still queued: not wanted
  measure_cancel_ = std::make_shared<std::atomic<bool>>(false);
  measuring_ = ++next_;
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, id = measuring_, spec, device, flag = measure_cancel_] {
        w->run(id, spec, device, flag);
      },
      Qt::QueuedConnection);
  return measuring_;
}

void RunController::cancel(bool keep_checkpoint) {
  if (!running_ || !cancel_) return;
  if (discard_ && !keep_checkpoint) discard_->store(true);
  cancel_->store(true);
}

}  // namespace rl::gui
