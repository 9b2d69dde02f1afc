// The Several GPUs tab's runs: its form asks, the one GPU worker (run_worker.h) runs them in a
// worker process, and the tab shows each point as it comes; Save session writes the result.
#include <QStatusBar>

#include "engine/io/export.h"
#include "main_window.h"
#include "multi_gpu_run_form.h"
#include "multi_gpu_view.h"
#include "run_worker.h"
#include "session_files.h"

namespace rl::gui {

void MainWindow::connect_multi_run() {
  MultiRunForm* form = multi_view_->run_form();
  connect(controller_, &RunController::discovered, this, [form](const Discovery& d) {
    form->set_gpus(d.gpus, QString::fromStdString(d.no_gpu_reason));
  });
  connect(form, &MultiRunForm::run_requested, this, [this, form](const MultiSpec& spec) {
    form->set_running(true);
    form->set_can_save(false);
    form->set_status("Starting: read floors and peer copies are measured first.");
    controller_->start_multi(spec);
  });
  connect(form, &MultiRunForm::cancel_requested, this, [this, form] {
    controller_->cancel_multi();
    form->set_cancelling();
    form->set_status("Cancelling after the current sample...");
  });
  connect(form, &MultiRunForm::save_requested, this, [this] {
    const QString path =
        ask_save_path("Save the multi-GPU session", "JSON (*.json)", "multi-gpu.json");
    if (!path.isEmpty()) save_multi_session(path);
  });
  connect(controller_, &RunController::multi_progress, multi_view_,
          &MultiGpuView::show_run_progress);
  connect(controller_, &RunController::multi_finished, multi_view_,
          &MultiGpuView::show_run_finished);
  connect(controller_, &RunController::multi_failed, multi_view_, &MultiGpuView::show_run_failed);
  connect(controller_, &RunController::multi_notice, multi_view_, &MultiGpuView::show_run_notice);
}

bool MainWindow::save_multi_session(const QString& path) {
  if (!multi_view_->has_session()) return false;
  QString error;
  if (!write_text_file(path, multi_session_to_json(multi_view_->session()), &error)) {
    report_error("Save the multi-GPU session", error);
    return false;
  }
  statusBar()->showMessage(QString("Saved %1").arg(path), 6000);
  return true;
}

}  // namespace rl::gui
