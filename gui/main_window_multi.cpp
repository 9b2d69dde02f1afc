// The Several GPUs tab's runs: its form asks, the one GPU worker (run_worker.h) runs them in a
// worker process, and the tab shows each point as it comes; Save session writes the result.
#include <QStatusBar>

#include "jobs/job_tracker.h"
#include "main_window.h"
#include "multi_gpu_run_form.h"
#include "multi_gpu_view.h"
#include "run_worker.h"

namespace rl::gui {

void MainWindow::connect_multi_run() {
  MultiRunForm* form = multi_view_->run_form();
  connect(controller_, &RunController::discovered, this, [form](const Discovery& d) {
    form->set_gpus(d.gpus, QString::fromStdString(d.no_gpu_reason));
  });
  // The run is a job of the tracker's (its bar in the status bar, Cancel there or in the form).
  auto job = std::make_shared<QPointer<Job>>();
  auto cancel_multi = [this, form] {
    controller_->cancel_multi();
    form->set_cancelling();
    form->set_status("Cancelling after the current sample...");
  };
  connect(form, &MultiRunForm::run_requested, this,
          [this, form, job, cancel_multi](const MultiSpec& spec) {
            form->set_running(true);
            form->set_can_save(false);
            form->set_status("Starting: read floors and peer copies are measured first.");
            if (*job) job->data()->finish(JobOutcome::Cancelled);
            const std::size_t points = expand(spec).size();
            *job = jobs_->start(JobKind::MultiGpuRun,
                                QString("Running %1 point%2 on %3 GPUs")
                                    .arg(points)
                                    .arg(points == 1 ? "" : "s")
                                    .arg(spec.devices.size()),
                                cancel_multi);
            job->data()->set_progress(0, qint64(points));
            controller_->start_multi(spec);
          });
  connect(form, &MultiRunForm::cancel_requested, this, [job, cancel_multi] {
    if (*job)
      job->data()->cancel();
    else
      cancel_multi();
  });
  connect(controller_, &RunController::multi_progress, this, [job](const MultiSession& s) {
    if (*job) job->data()->set_progress(qint64(s.points.size()), qint64(expand(s.spec).size()));
  });
  connect(controller_, &RunController::multi_finished, this, [job](const MultiSession& s) {
    if (*job) job->data()->finish(s.cancelled ? JobOutcome::Cancelled : JobOutcome::Done);
  });
  connect(controller_, &RunController::multi_failed, this, [job](const QString& message) {
    if (*job) job->data()->finish(JobOutcome::Failed, message);
  });
  connect(form, &MultiRunForm::save_requested, this, [this] {
    const QString path =
        ask_save_path("Save the multi-GPU session", "JSON (*.json)", "multi-gpu.json");
    if (!path.isEmpty()) start_save_multi_session(path);
  });
  connect(controller_, &RunController::multi_progress, multi_view_,
          &MultiGpuView::show_run_progress);
  connect(controller_, &RunController::multi_finished, multi_view_,
          &MultiGpuView::show_run_finished);
  connect(controller_, &RunController::multi_failed, multi_view_, &MultiGpuView::show_run_failed);
  connect(controller_, &RunController::multi_notice, multi_view_, &MultiGpuView::show_run_notice);
}

}  // namespace rl::gui
