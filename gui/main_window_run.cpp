// Running from the form: the request it builds, the run controller's signals shown in the window,
// cancelling. Several targets or a remote one go to lanes (main_window_multi.cpp).
#include <QAction>
#include <QStatusBar>

#include "device_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/experiment/presets.h"
#include "experiment_panel.h"
#include "format.h"
#include "jobs/job_tracker.h"
#include "local_run.h"
#include "main_window.h"
#include "remote/remote_run.h"
#include "run_worker.h"
#include "session_store.h"

namespace rl::gui {

namespace {

// The chosen baseline where the run has it; else the engine's default for the spec (a run of
// matrices only compares with cub_segmented_rows, never with a whole-array variant it lacks).
std::string baseline_for(const ExperimentSpec& spec, const std::string& chosen) {
  auto runs = [&](const std::string& id) {
    for (const std::string& name : spec.variants) {
      const auto ref = resolve_variant(name);
      if (ref && ref->variant->id == id) return true;
    }
    return false;
  };
  const std::string fallback = default_baseline(spec);
  return runs(chosen) || !runs(fallback) ? chosen : fallback;
}

}  // namespace

void MainWindow::connect_run() {
  connect(experiment_, &ExperimentPanel::run_requested, this, &MainWindow::run);
  connect(experiment_, &ExperimentPanel::cancel_requested, this, &MainWindow::cancel);
  connect(controller_, &RunController::discovered, this, [this](const Discovery& d) {
    discovery_ = d;
    experiment_->set_discovery(d);
    device_panel_->set_discovery(d);
    if (wanted_device_) experiment_->set_device(*wanted_device_);
    apply_wanted_devices();
  });
  connect(controller_, &RunController::started, this, [this](const DeviceInfo& device) {
    device_panel_->update_device(device);
    if (local_lane_ >= 0) return lane_started(local_lane_, device);
    Session s = store_->primary();
    s.device = device;  // the backend's view, with the measured copy bandwidth
    store_->finish_live(s);
  });
  connect(controller_, &RunController::progress, this, [this](const Progress& p) {
    if (local_lane_ >= 0) return lane_progress(local_lane_, p);
    experiment_->show_progress(p);
    if (run_job_) run_job_->set_progress(qint64(p.done), qint64(p.total));
  });
  connect(controller_, &RunController::point_finished, this, [this](const PointResult& r) {
    if (local_lane_ >= 0) return lane_point(local_lane_, r);
    store_->append_live(r);
  });
  connect(controller_, &RunController::finished, this, [this](const Session& session) {
    if (session.device.measured_copy_gbps > 0) device_panel_->update_device(session.device);
    if (local_lane_ >= 0) return lane_finished(local_lane_, session, QString());
    // A run in worker processes: the device as the worker measured it (copy, read floor),
    // given to the device panel above.
    store_->finish_live(session);
    experiment_->set_running(false);
    cancel_action_->setEnabled(false);
    const QString took = format_duration_s(run_clock_.elapsed() / 1000.0);
    QString text = session.cancelled
                       ? QString("Cancelled after %1 point(s) in %2; the finished points are kept.")
                             .arg(session.results.size())
                             .arg(took)
                       : QString("Done: %1 point(s) in %2.").arg(session.results.size()).arg(took);
    // A GPU fault survived: the app says what became of the run (the points say why they failed).
    const QString notices =
        run_notices_.isEmpty() ? QString() : " " + run_notices_.join(". ") + ".";
    text += notices;
    experiment_->show_status(text);
    statusBar()->showMessage(text, 10000);
    end_run_job(false, session.cancelled, text);
    emit run_ended();
  });
  connect(controller_, &RunController::notice, this, [this](const QString& message) {
    QString m = message;
    if (!m.isEmpty()) m[0] = m[0].toUpper();
    run_notices_ << m;
    experiment_->show_status(m);
    statusBar()->showMessage(m, 15000);
  });
  connect(controller_, &RunController::failed, this, [this](const QString& message) {
    if (local_lane_ >= 0) return lane_failed(local_lane_, message);
    experiment_->set_running(false);
    cancel_action_->setEnabled(false);
    experiment_->show_status("The run stopped: " + message);
    end_run_job(true, false, message);
    report_error("Run failed", message);
    emit run_ended();
  });
}

void MainWindow::run() {
  if (running()) return;
  run_experiment([](ExperimentSpec&) {});
}

void MainWindow::run_experiment(const std::function<void(ExperimentSpec&)>& add) {
  experiment_->validate_now();  // the form may have changed within the last few milliseconds
  const QStringList problems = experiment_->problems();
  auto spec = experiment_->spec();
  if (!spec || !problems.isEmpty()) {
    statusBar()->showMessage("Cannot run: " + problems.join("; "), 10000);
    return;
  }
  add(*spec);
  spec->baseline = baseline_for(*spec, store_->baseline());
  const QList<DeviceTarget> targets =
      QList<DeviceTarget>{experiment_->target()} + experiment_->also_targets();
  if (targets.size() > 1 || targets.front().remote()) return start_lanes(*spec, targets);
  DeviceInfo info = discovery_ ? discovery_->host : DeviceInfo{};
  if (const DeviceInfo* gpu = experiment_->device_info()) info = *gpu;
  start_run(*spec, experiment_->device(), info, std::nullopt);
}

void MainWindow::start_run(const ExperimentSpec& spec, int device, const DeviceInfo& info,
                           std::optional<Session> resume) {
  resume_bar_->hide();  // a new run's checkpoint takes the place of an offered one
  checkpoint_.reset();
  lanes_.clear();
  local_lane_ = -1;
  store_->begin_live(spec, info);  // overlays stay: e.g. a saved H200 session beside this GPU
  experiment_->set_running(true);
  cancel_action_->setEnabled(true);
  run_clock_.start();
  run_notices_.clear();
  controller_->start(spec, device, std::move(resume), experiment_->profiling());
  start_run_job(spec, QString::fromStdString(info.label()), false);
  // A run of matrices only draws on their page, as such a session opens there.
  if (matrices_only(spec)) show_charts_page(kMatrixPage);
  // Replaces a start-up hint such as "Showing the bundled session..." that no longer holds.
  statusBar()->showMessage(
      QString("Running on %1; Esc cancels.").arg(QString::fromStdString(info.label())));
  update_banner();
  if (options_.settings) save_settings();
}

void MainWindow::cancel() {
  if (!running()) return;
  if (run_job_ && !run_job_->cancelling()) return run_job_->cancel();  // calls cancel_run_work
  cancel_run_work();
}

void MainWindow::cancel_run_work() {
  controller_->cancel();
  for (Lane& l : lanes_) {
    if (l.remote) l.remote->cancel();
    if (l.local) l.local->cancel();
  }
  experiment_->show_status("Cancelling: the current sample finishes first...");
}

}  // namespace rl::gui
