// The GPU job queue's own jobs in the tracker: a story's measurement and a block recording, which
// the story and the block animation ask the queue for directly (RunController::measure,
// record_traces). Each shows as a Job from the moment it is queued until its result (or a newer
// request) arrives; Cancel stops the measurement between samples, or drops the recording. Runs
// and multi-GPU runs are the window's (main_window_run.cpp, main_window_multi.cpp).
#pragma once

#include <QObject>
#include <QPointer>

namespace rl::gui {

class Job;
class JobTracker;
class RunController;

class GpuQueueJobs : public QObject {
  Q_OBJECT
 public:
  GpuQueueJobs(RunController* controller, JobTracker* tracker, QObject* parent = nullptr);

 private:
  void replace(QPointer<Job>& slot, Job* job);
  RunController* controller_;
  JobTracker* tracker_;
  QPointer<Job> measuring_, recording_;
  quint64 measure_id_ = 0, recording_id_ = 0;
};

}  // namespace rl::gui
