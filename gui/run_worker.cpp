#include "run_worker.h"

#include "engine/multi/multi_run.h"

#include <QElapsedTimer>
#include <QFile>

#include <exception>

#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/io/export.h"
#include "engine/io/output_file.h"
#include "engine/run/run_target.h"

namespace rl::gui {

void register_metatypes() {
  qRegisterMetaType<rl::PointResult>();
  qRegisterMetaType<rl::Progress>();
  qRegisterMetaType<rl::Session>();
  qRegisterMetaType<rl::gui::UserKernelBuild>();
  qRegisterMetaType<rl::Discovery>();
  qRegisterMetaType<rl::DeviceInfo>();
  qRegisterMetaType<rl::gui::TraceRecording>();
  qRegisterMetaType<rl::gui::TimelineRecording>();
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

// What the form's boxes ask the engine to read.
rl::RunProfiling engine_profiling(const RunProfiling& p) {
  rl::RunProfiling out;
  if (p.counters) out.counters = rl::default_counters();
  out.line_samples = p.line_samples;
  out.line_counts = p.line_counts;
  return out;
}

rl::RunTarget& RunWorker::target_for(quint64 run_id, int device) {
  running_ = run_id;  // a target kept from an earlier run speaks for this one
  if (target_ && target_->device_index() == device) return *target_;
  target_.reset();  // an in-process runner's CUDA context is released before another is made
  if (!discovery_ && device != kHostDevice && !factory_) discovery_ = rl::discover_devices();
  rl::RunTargetOptions o;
  o.device = device;
  o.discovery = discovery_ ? &*discovery_ : nullptr;
  o.backend = factory_;
  // Once per target for what it decided (no worker executable: in this process), every time for
  // what happens to a worker; always as the run in progress.
  o.on_notice = [this](const std::string& what) {
    emit notice(running_, QString::fromStdString(what));
  };
  target_ = std::make_unique<rl::RunTarget>(std::move(o));
  return *target_;
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
    rl::RunTarget& target = target_for(run_id, device);
    emit run_started(run_id, target.device());
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
    Session session = target.run(spec, engine_profiling(profiling), callbacks, cancel.get(),
                                 resume ? &*resume : nullptr);
    // Finished, or cancelled on purpose: the user has the session. Kept when the app closes.
    if (!path.empty() && (!session.cancelled || (discard && discard->load())))
      QFile::remove(checkpoint);
    emit run_finished(run_id, session);
  } catch (const std::exception& e) {
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
    if (r.job != recording_) return;
    recording_ = 0;
    emit traces_recorded(r);
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
  connect_timelines();
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
  emit recording_queued(recording_);
  return recording_;
}

void RunController::cancel_recording() {
  if (recording_ == 0) return;
  TraceRecording dropped;
  dropped.job = recording_;
  dropped.error = "the recording was cancelled";
  dropped.cancelled = true;
  emit traces_recorded(dropped);
  recording_ = 0;
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

quint64 RunController::measure(const rl::ExperimentSpec& spec, int device, const QString& what) {
  if (measure_cancel_) measure_cancel_->store(true);  // an older one still queued: not wanted
  measure_cancel_ = std::make_shared<std::atomic<bool>>(false);
  measuring_ = ++next_;
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, id = measuring_, spec, device, flag = measure_cancel_] {
        w->run(id, spec, device, flag);
      },
      Qt::QueuedConnection);
  emit measure_queued(measuring_, what);
  return measuring_;
}

void RunController::cancel_measurement() {
  if (measuring_ != 0 && measure_cancel_) measure_cancel_->store(true);
}

void RunController::cancel(bool keep_checkpoint) {
  if (!running_ || !cancel_) return;
  if (discard_ && !keep_checkpoint) discard_->store(true);
  cancel_->store(true);
}

}  // namespace rl::gui
