#include "jobs/gpu_queue_jobs.h"

#include "jobs/job_tracker.h"
#include "run_worker.h"

namespace rl::gui {

GpuQueueJobs::GpuQueueJobs(RunController* controller, JobTracker* tracker, QObject* parent)
    : QObject(parent), controller_(controller), tracker_(tracker) {
  connect(
      controller, &RunController::measure_queued, this, [this](quint64 id, const QString& what) {
        measure_id_ = id;
        replace(measuring_, tracker_->start(JobKind::StoryStep,
                                            what.isEmpty() ? QString("Measuring a point") : what,
                                            [this] { controller_->cancel_measurement(); }));
      });
  connect(controller, &RunController::measured, this, [this](quint64 id, const Session& s) {
    if (id == measure_id_ && measuring_)
      measuring_->finish(s.cancelled ? JobOutcome::Cancelled : JobOutcome::Done);
  });
  connect(controller, &RunController::measure_failed, this,
          [this](quint64 id, const QString& message) {
            if (id == measure_id_ && measuring_) measuring_->finish(JobOutcome::Failed, message);
          });
  connect(controller, &RunController::recording_queued, this, [this](quint64 id) {
    recording_id_ = id;
    replace(recording_, tracker_->start(JobKind::Recording, "Recording the block on the GPU",
                                        [this] { controller_->cancel_recording(); }));
  });
  connect(controller, &RunController::traces_recorded, this, [this](const TraceRecording& r) {
    if (r.job != recording_id_ || !recording_) return;
    if (r.cancelled)
      recording_->finish(JobOutcome::Cancelled);
    else
      recording_->finish(r.error.isEmpty() ? JobOutcome::Done : JobOutcome::Failed, r.error);
  });
}

// A newer request makes the older one's result stale (the queue drops it): its job ends.
void GpuQueueJobs::replace(QPointer<Job>& slot, Job* job) {
  if (slot) slot->finish(JobOutcome::Cancelled, "replaced by a newer request");
  slot = job;
}

}  // namespace rl::gui
