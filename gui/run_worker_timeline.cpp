// The measured warp timeline job of the app's GPU worker (run_worker.h): recorded on the same
// thread as every other GPU job, so it never runs while a run is being timed; the GUI thread
// gets the timelines by value in a queued signal and never waits on the GPU.
#include <memory>

#include "engine/trace/measured_timeline.h"
#include "run_worker.h"

namespace rl::gui {

void RunWorker::record_timelines(quint64 job, const rl::TimelineRequest& first,
                                 std::optional<rl::TimelineRequest> second, int device) {
  TimelineRecording out;
  out.job = job;
  try {
    out.first = std::make_shared<const MeasuredTimeline>(record_measured_timeline(first, device));
    if (second)
      out.second =
          std::make_shared<const MeasuredTimeline>(record_measured_timeline(*second, device));
  } catch (const std::exception& e) {  // rl::Error for a bad request, rl::CudaError
    out.first.reset();
    out.second.reset();
    out.error = QString::fromStdString(e.what());
  }
  emit timelines_recorded(out);
}

void RunController::connect_timelines() {
  connect(worker_, &RunWorker::timelines_recorded, this, [this](const TimelineRecording& r) {
    if (r.job != timeline_recording_) return;  // replaced or cancelled
    timeline_recording_ = 0;
    emit timelines_recorded(r);
  });
}

quint64 RunController::record_timelines(const rl::TimelineRequest& first,
                                        std::optional<rl::TimelineRequest> second, int device) {
  timeline_recording_ = ++next_;
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, id = timeline_recording_, first, second, device] {
        w->record_timelines(id, first, second, device);
      },
      Qt::QueuedConnection);
  return timeline_recording_;
}

void RunController::cancel_timeline_recording() {
  if (timeline_recording_ == 0) return;
  TimelineRecording dropped;
  dropped.job = timeline_recording_;
  dropped.error = "the recording was cancelled";
  dropped.cancelled = true;
  timeline_recording_ = 0;
  emit timelines_recorded(dropped);
}

}  // namespace rl::gui
