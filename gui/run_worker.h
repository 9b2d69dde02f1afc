// The app's one GPU job queue. RunWorker lives on one QThread; every job that touches the GPU
// runs there, one after another: device discovery, runs, and the animation's trace recordings,
// so nothing else uses the GPU while a run is being timed. Where a run happens is the engine's
// choice (engine/run/run_target.h): on a GPU in reductionlab-worker processes, so a GPU fault
// costs its point and the app holds no CUDA context for a run; on the host, or without the
// worker executable, on this thread (the backend made here, so cudaSetDevice applies here).
// RunController lives on the GUI thread: it queues jobs, cancels runs and re-emits only the
// signals of the current job, so a cancelled or replaced job's late results are dropped by id.
// Every signal carries whole value structs; the GUI thread never waits on the GPU.
#pragma once

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "engine/experiment/spec.h"
#include "engine/run/run_target.h"
#include "engine/trace/measured_timeline.h"
#include "engine/trace/trace.h"
#include "metatypes.h"

namespace rl {
class Backend;
class RunTarget;
struct RunCallbacks;
}  // namespace rl

namespace rl::gui {

// Which backend a run uses: a CUDA device ordinal, or the host emulation.
constexpr int kHostDevice = rl::kHostDevice;

// What a run reads besides its times (the experiment form's "Hardware counters (CUPTI)", "Line
// samples" and "Executed instructions per line" boxes): passed to the GPU worker as
// rl::SupervisorOptions (`--counters IDS`, `--line-samples`, `--line-counts`), or set on the
// in-process runner. Never two: CUPTI's profiler, its PC sampling and its SASS metrics cannot
// share a GPU context (rl::kCountersOrLineSamples); the form keeps them apart.
struct RunProfiling {
  bool counters = false;      // rl::default_counters(), after each point's samples
  bool line_samples = false;  // warp samples per instruction, after each point's samples
  bool line_counts = false;   // executed instructions per instruction, after each point's samples
  bool operator==(const RunProfiling&) const = default;
};

class RunWorker : public QObject {
  Q_OBJECT
 public:
  RunWorker();
  ~RunWorker() override;
  // Both run on the worker thread (the controller invokes them queued).
  void discover();
  // checkpoint: a file written (atomically, engine/io/output_file.h) with the session so far
  // after every point, and removed when the run finishes, or is cancelled with *discard set;
  // "" writes none. resume: a saved session whose finished points are kept (engine/io/resume.h).
  void run(quint64 run_id, const rl::ExperimentSpec& spec, int device,
           std::shared_ptr<std::atomic<bool>> cancel, const QString& checkpoint = {},
           std::shared_ptr<std::atomic<bool>> discard = {},
           std::optional<rl::Session> resume = std::nullopt, RunProfiling profiling = {});
  void record(quint64 job, const rl::TraceRequest& first, std::optional<rl::TraceRequest> second,
              int device);
  // Measured warp timelines (engine/trace/measured_timeline.h) of one or two requests.
  void record_timelines(quint64 job, const rl::TimelineRequest& first,
                        std::optional<rl::TimelineRequest> second, int device);
  // One reduction across GPUs (engine/process/multi_supervisor.h): in a worker process, or in
  // this one where the worker executable is missing (said once). The session so far after
  // each point, then the whole; or why it could not start.
  void run_multi(quint64 job, const rl::MultiSpec& spec, std::shared_ptr<std::atomic<bool>> cancel);
  // A kernel the user wrote, compiled with NVRTC and its SASS and line table read (no GPU).
  void compile(quint64 job, const rl::UserKernelSource& source, const rl::UserCompileShape& shape);
  // Tests only: what makes the backend for a device (default: the host or the CUDA backend).
  using BackendFactory = std::function<std::unique_ptr<rl::Backend>(int device)>;
  void set_backend_factory(BackendFactory factory) { factory_ = std::move(factory); }
  // A discovery made elsewhere stands for discover()'s (tests: a GPU that the fake worker,
  // $REDUCTIONLAB_WORKER, stands in for); emits discovered().
  void use_discovery(const rl::Discovery& discovery);

 signals:
  void discovered(const rl::Discovery& discovery);
  void run_started(quint64 run_id, const rl::DeviceInfo& device);
  void progress(quint64 run_id, const rl::Progress& progress);
  void point_finished(quint64 run_id, const rl::PointResult& result);
  void run_finished(quint64 run_id, const rl::Session& session);
  void run_failed(quint64 run_id, const QString& message);
  void checkpoint_failed(quint64 run_id, const QString& message);  // once a run; the run goes on
  // What happened to the GPU worker process (lost to a fault, restarted), or that runs happen in
  // the app's own process because the worker executable is missing (said once).
  void notice(quint64 run_id, const QString& message);
  void multi_progress(quint64 job, const rl::MultiSession& session);
  void multi_finished(quint64 job, const rl::MultiSession& session);
  void multi_failed(quint64 job, const QString& message);

 public:
  // Checkpoints written so far, all runs (read from any thread: tests).
  int checkpoints_written() const { return checkpoints_written_.load(); }

 signals:
  void recorded(const rl::gui::TraceRecording& recording);
  void timelines_recorded(const rl::gui::TimelineRecording& recording);
  void compiled(const rl::gui::UserKernelBuild& build);

 private:
  // Where runs on `device` happen (engine/run/run_target.h), kept between runs on one device:
  // an in-process runner keeps its CUDA context and measured bandwidth.
  rl::RunTarget& target_for(quint64 run_id, int device);
  std::unique_ptr<rl::RunTarget> target_;
  std::optional<rl::Discovery> discovery_;  // the last discover(): the devices' descriptions
  quint64 running_ = 0;                     // the run the target's notices belong to
  BackendFactory factory_;
  std::atomic<int> checkpoints_written_{0};
};

class RunController : public QObject {
  Q_OBJECT
 public:
  explicit RunController(QObject* parent = nullptr);
  // Cancels a run in progress and waits for the worker thread to end (a running kernel cannot
  // be aborted; the runner stops between samples).
  ~RunController() override;

  // Queues device discovery; discovered() follows (and discovery() keeps the last answer).
  void discover();
  const std::optional<rl::Discovery>& discovery() const { return discovery_; }
  // Queues a recording of one or two traces on the GPU (after any run in progress); returns the
  // job id that traces_recorded() carries. A newer recording makes an older one's result stale.
  quint64 record_traces(const rl::TraceRequest& first, std::optional<rl::TraceRequest> second,
                        int device);
  // Starts a run; a run in progress is cancelled and its remaining signals dropped. resume: a
  // saved session of the same spec and device; only its missing points run.
  // profiling: counters or line samples besides the times (RunProfiling).
  quint64 start(const rl::ExperimentSpec& spec, int device,
                std::optional<rl::Session> resume = std::nullopt, RunProfiling profiling = {});
  // RunWorker::use_discovery, queued behind any job; discovered() follows.
  void use_discovery(const rl::Discovery& discovery);
  // Asks the current run to stop between samples; finished() follows with the points so far.
  // The checkpoint is removed (the user has the session), unless keep_checkpoint (the app is
  // closing: the next start offers to resume).
  void cancel(bool keep_checkpoint = false);
  // Where runs write their checkpoint ("" : none); the worker thread writes it after each point.
  void set_checkpoint_path(const QString& path) { checkpoint_ = path; }
  const QString& checkpoint_path() const { return checkpoint_; }
  int checkpoints_written() const { return worker_->checkpoints_written(); }
  // Queues one measurement of its own behind any run (a story's "Run this step now"): it never
  // cancels or replaces the current run and writes no checkpoint; measured() or
  // measure_failed() follows with its job id. A newer measurement makes an older one stale.
  // what: its title for people ("Story step 3: reduceUnroll8"), in measure_queued().
  quint64 measure(const rl::ExperimentSpec& spec, int device, const QString& what = {});
  quint64 current_measurement() const { return measuring_; }
  // Asks the current measurement to stop between samples; measured() follows, cancelled.
  void cancel_measurement();
  // The current recording's result is not wanted: traces_recorded() follows at once with the
  // `cancelled` set (the GPU finishes what it began; its result is dropped).
  void cancel_recording();
  // Queues a recording of one or two measured warp timelines on the GPU (after any run in
  // progress); returns the job id that timelines_recorded() carries. A newer recording makes an
  // older one's result stale; cancel_timeline_recording() drops the current one's result
  // (timelines_recorded() follows at once, cancelled).
  quint64 record_timelines(const rl::TimelineRequest& first,
                           std::optional<rl::TimelineRequest> second, int device);
  void cancel_timeline_recording();
  bool running() const { return running_; }
  bool cancelling() const { return running_ && cancel_ && cancel_->load(); }
  quint64 current_run() const { return current_; }
  // A multi-GPU run, queued behind any job (one worker owns the GPUs); a multi-GPU run in
  // progress is cancelled and its remaining signals dropped. cancel_multi() asks it to stop
  // after the current sample; multi_finished() follows with the points so far.
  quint64 start_multi(const rl::MultiSpec& spec);
  // Queues the compilation of a user kernel (after any job before it); user_kernel_compiled()
  // follows with the job id. A newer compilation makes an older one's result stale.
  quint64 compile_user_kernel(const rl::UserKernelSource& source,
                              const rl::UserCompileShape& shape);
  void cancel_multi();
  bool multi_running() const { return multi_running_; }

 signals:
  void discovered(const rl::Discovery& discovery);
  void started(const rl::DeviceInfo& device);
  void progress(const rl::Progress& progress);
  void point_finished(const rl::PointResult& result);
  void finished(const rl::Session& session);  // session.cancelled after cancel()
  void failed(const QString& message);
  void checkpoint_failed(const QString& message);
  void notice(const QString& message);  // RunWorker::notice
  // The latest recording's result only.
  void traces_recorded(const rl::gui::TraceRecording& recording);
  // A job was put in the queue (the job tracker shows it: jobs/gpu_queue_jobs.h).
  void measure_queued(quint64 job, const QString& what);
  void recording_queued(quint64 job);
  void timelines_recorded(const rl::gui::TimelineRecording& recording);  // the latest only
  // The latest measurement's outcome only (measure()).
  void measured(quint64 job, const rl::Session& session);
  void measure_failed(quint64 job, const QString& message);
  // The current multi-GPU run's only (start_multi()).
  void multi_progress(const rl::MultiSession& session);
  void multi_finished(const rl::MultiSession& session);
  void multi_failed(const QString& message);
  void multi_notice(const QString& message);
  void user_kernel_compiled(const rl::gui::UserKernelBuild& build);  // the latest only

 private:
  void connect_multi();
  void connect_timelines();
  QThread thread_;
  RunWorker* worker_;
  quint64 current_ = 0, next_ = 0;
  bool running_ = false;
  std::shared_ptr<std::atomic<bool>> cancel_, discard_;
  QString checkpoint_;
  std::optional<rl::Discovery> discovery_;
  quint64 recording_ = 0;
  quint64 timeline_recording_ = 0;  // the timeline recording whose result is still wanted
  quint64 measuring_ = 0;           // the measurement whose outcome is still wanted (0: none)
  quint64 compiling_ = 0;           // the compilation whose result is still wanted
  std::shared_ptr<std::atomic<bool>> measure_cancel_;
  quint64 multi_current_ = 0;
  bool multi_running_ = false;
  std::shared_ptr<std::atomic<bool>> multi_cancel_;
};

}  // namespace rl::gui
