// "Run this step now": the current step's point measured on the app's GPU job queue
// (RunController::measure, behind any run in progress), its bar updated when the result
// arrives. The GUI thread never waits; a result for an older request is dropped.
#include <QLabel>
#include <QPushButton>

#include "engine/report/format.h"
#include "run_worker.h"
#include "story/story_bars.h"
#include "story/story_view.h"

namespace rl::gui {

void StoryView::set_run_device(std::optional<int> device, const QString& unavailable,
                               const QString& why) {
  device_ = device;
  unavailable_ = unavailable;
  unavailable_why_ = why;
  update_run_button();
}

void StoryView::update_run_button() {
  const bool can = jobs_ && device_.has_value();
  run_->setEnabled(can && !measuring());
  run_->setToolTip(can ? "Measure this step's point now and update its bar"
                       : "Run this step now: " + unavailable_ +
                             (unavailable_why_.isEmpty() ? QString() : "\n" + unavailable_why_));
  QString text = run_status_;
  if (!can) text = "Run this step now: " + unavailable_;
  status_->setText(text);
}

bool StoryView::run_step() {
  if (!jobs_ || !device_) {
    run_status_ = "Run this step now: " + unavailable_;
    update_run_button();
    return false;
  }
  const StoryStep& step = story_.steps.at(std::size_t(step_));
  pending_step_ = step_;
  pending_job_ = jobs_->measure(
      story_step_spec(step, session_.spec.timing), *device_,
      QString("Story step %1: %2").arg(step_ + 1).arg(QString::fromStdString(step.title)));
  run_status_ = QString("Measuring %1%2...")
                    .arg(QString::fromStdString(step.title))
                    .arg(jobs_->running() ? " after the run in progress" : "");
  update_run_button();
  return true;
}

void StoryView::on_measured(quint64 job, const Session& session) {
  if (job != pending_job_) return;  // an older request, or another view's
  const int step = pending_step_;
  pending_job_ = 0;
  pending_step_ = -1;
  const PointSpec& want = story_.steps.at(std::size_t(step)).point;
  const PointResult* result = nullptr;
  for (const PointResult& r : session.results)
    if (r.point == want) result = &r;
  if (!result) {
    run_status_ = session.cancelled ? "The measurement was cancelled"
                                    : "The measurement brought no point for this step";
    update_run_button();
    return;
  }
  std::erase_if(live_, [&](const LivePoint& l) { return l.result.point == want; });
  live_.push_back({*result, session.device});
  resolve();
  const ResolvedStep& r = resolved_.steps.at(std::size_t(step));
  run_status_ = r.time_ms
                    ? QString("Step %1 measured live on %2: %3")
                          .arg(step + 1)
                          .arg(QString::fromStdString(device_short_name(session.device)))
                          .arg(QString::fromStdString(format_time_ms(*r.time_ms)))
                    : QString("Step %1: %2").arg(step + 1).arg(QString::fromStdString(r.missing));
  // The bar of the step on screen arrives again; another step's waits until it is shown.
  if (step == step_) {
    fill_step();
  } else {
    update_run_button();
  }
}

void StoryView::on_measure_failed(quint64 job, const QString& message) {
  if (job != pending_job_) return;
  pending_job_ = 0;
  pending_step_ = -1;
  run_status_ = "The measurement failed: " + message;
  update_run_button();
}

}  // namespace rl::gui
