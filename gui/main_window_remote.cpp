// Runs on GPUs the app reaches through a launcher, and on several devices at once
// (docs/remote.md). Each device is a lane: lane 0 is the primary session, the others are live
// overlays, so the Ladder page draws them side by side as points arrive and then compares them
// (faster / slower / same). This machine's first device runs in the window's job queue
// (RunController), a further device of it in a queue of its own (local_run.h), and a device
// reached through a launcher as `LAUNCHER reductionlab-cli run --stream jsonl`
// (remote/remote_run.h). The GUI thread never waits on any of them.
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTimer>

#include "experiment_panel.h"
#include "format.h"
#include "local_run.h"
#include "main_window.h"
#include "remote/remote_run.h"
#include "run_worker.h"
#include "session_store.h"

namespace rl::gui {

bool MainWindow::running() const {
  if (controller_->running()) return true;
  for (const Lane& l : lanes_)
    if (!l.done) return true;
  return false;
}

std::optional<RemoteHost> MainWindow::host_of(const DeviceTarget& target) const {
  for (const RemoteHost& h : remote_hosts_)
    if (h.name == target.host) return h;
  return std::nullopt;
}

DeviceInfo MainWindow::info_of(const DeviceTarget& target) const {
  if (const DeviceInfo* gpu = experiment_->target_info(target)) return *gpu;
  DeviceInfo host = discovery_ && !target.remote() ? discovery_->host : DeviceInfo{};
  if (target.remote()) host.name = target.host.toStdString() + " host";
  return host;
}

void MainWindow::start_lanes(const ExperimentSpec& spec, const QList<DeviceTarget>& targets) {
  resume_bar_->hide();
  checkpoint_.reset();
  lanes_.clear();
  local_lane_ = -1;
  run_clock_.start();
  run_notices_.clear();
  experiment_->set_running(true);
  cancel_action_->setEnabled(true);
  QStringList names;
  for (int i = 0; i < int(targets.size()); ++i) {
    Lane lane;
    lane.target = targets[i];
    lane.label = experiment_->target_label(targets[i]);
    names << lane.label;
    const DeviceInfo info = info_of(targets[i]);
    if (i == 0)
      store_->begin_live(spec, info);
    else
      lane.overlay = store_->begin_live_overlay(spec, info);
    store_->set_machine(lane.overlay, targets[i].host);
    lanes_.push_back(lane);
  }
  for (int i = 0; i < int(lanes_.size()); ++i) {
    Lane& lane = lanes_[size_t(i)];
    if (!lane.target.remote() && local_lane_ < 0) {
      local_lane_ = i;
      controller_->start(spec, lane.target.index, std::nullopt, experiment_->profiling());
      continue;
    }
    if (!lane.target.remote()) {  // a further device here: a job queue of its own
      lane.local = new LocalRun(this);
      connect_lane_run(i, lane.local);
      lane.local->start(spec, lane.target.index, experiment_->profiling());
      continue;
    }
    const std::optional<RemoteHost> host = host_of(lane.target);
    if (!host) {  // removed from Remote machines since the form named it: said once the run is up
      const QString why =
          "no remote machine is named " + lane.target.host + " any more (Run > Remote machines...)";
      QTimer::singleShot(0, this, [this, i, why] { lane_failed(i, why); });
      continue;
    }
    lane.remote = new RemoteRun(*host, this);
    connect_lane_run(i, lane.remote);
    lane.remote->start(spec, lane.target.index, experiment_->profiling());
  }
  start_run_job(spec, names.join(" and "), true);
  statusBar()->showMessage("Running on " + names.join(" and ") + "; Esc cancels.");
  update_banner();
  if (options_.settings) save_settings();
}

template <class LaneRun>
void MainWindow::connect_lane_run(int lane, LaneRun* run) {
  connect(run, &LaneRun::started, this,
          [this, lane](const DeviceInfo& d) { lane_started(lane, d); });
  connect(run, &LaneRun::progress, this,
          [this, lane](const Progress& p) { lane_progress(lane, p); });
  connect(run, &LaneRun::point_finished, this,
          [this, lane](const PointResult& r) { lane_point(lane, r); });
  connect(run, &LaneRun::notice, this, [this](const QString& m) {
    run_notices_ << m;
    statusBar()->showMessage(m, 15000);
  });
  connect(run, &LaneRun::finished, this, [this, lane](const Session& s, const QString& problem) {
    lane_finished(lane, s, problem);
  });
  connect(run, &LaneRun::failed, this, [this, lane](const QString& m) { lane_failed(lane, m); });
}

void MainWindow::lane_started(int lane, const DeviceInfo& device) {
  const Lane& l = lanes_[size_t(lane)];
  if (l.overlay < 0) {
    Session s = store_->primary();
    s.device = device;
    store_->finish_live(s);
  } else {
    Session s = store_->overlays()[size_t(l.overlay)];
    s.device = device;
    store_->finish_live_overlay(l.overlay, s);
  }
  update_banner();
}

void MainWindow::lane_point(int lane, const PointResult& result) {
  Lane& l = lanes_[size_t(lane)];
  ++l.points;
  if (l.overlay < 0)
    store_->append_live(result);
  else
    store_->append_live_overlay(l.overlay, result);
}

// One bar for all devices: the points done over the points of every device that has started.
void MainWindow::lane_progress(int lane, const Progress& progress) {
  lanes_[size_t(lane)].progress = progress;
  Progress all = progress;
  all.done = all.total = 0;
  for (const Lane& l : lanes_) {
    all.done += l.done ? l.progress.total : l.progress.done;
    all.total += l.progress.total;
  }
  all.eta_s = -1;
  experiment_->show_progress(all);
  if (run_job_) run_job_->set_progress(qint64(all.done), qint64(all.total));
}

void MainWindow::lane_finished(int lane, const Session& session, const QString& problem) {
  Lane& l = lanes_[size_t(lane)];
  if (l.done) return;
  l.done = true;
  l.points = session.results.size();
  l.progress.done = l.progress.total;
  if (l.overlay < 0)
    store_->finish_live(session);
  else
    store_->finish_live_overlay(l.overlay, session);
  if (!problem.isEmpty()) {
    l.problem = problem;
    run_notices_ << problem;
    statusBar()->showMessage(problem, 15000);
  }
  if (!running()) finish_lanes();
}

void MainWindow::lane_failed(int lane, const QString& message) {
  Lane& l = lanes_[size_t(lane)];
  if (l.done) return;
  l.done = true;
  l.problem = message;
  run_notices_ << message;
  statusBar()->showMessage(message, 15000);
  if (!running()) finish_lanes();
}

void MainWindow::finish_lanes() {
  experiment_->set_running(false);
  cancel_action_->setEnabled(false);
  const QString took = format_duration_s(run_clock_.elapsed() / 1000.0);
  QStringList each, failures;
  bool cancelled = false;
  for (const Lane& l : lanes_) {
    each << QString("%1: %2 point(s)").arg(l.label).arg(l.points);
    const Session& s = l.overlay < 0 ? store_->primary() : store_->overlays()[size_t(l.overlay)];
    cancelled = cancelled || (s.cancelled && l.problem.isEmpty());
    if (!l.problem.isEmpty()) failures << l.problem;
  }
  QString text = QString("%1 in %2 (%3).")
                     .arg(cancelled ? "Cancelled; the finished points are kept" : "Done", took,
                          each.join("; "));
  if (!run_notices_.isEmpty()) text += " " + run_notices_.join(". ") + ".";
  experiment_->show_status(text);
  statusBar()->showMessage(text, 15000);
  for (Lane& l : lanes_) {
    if (l.remote) l.remote->deleteLater(), l.remote = nullptr;
    if (l.local) l.local->deleteLater(), l.local = nullptr;
  }
  local_lane_ = -1;
  update_banner();
  end_run_job(!failures.isEmpty() && failures.size() == int(lanes_.size()), cancelled, text);
  if (!failures.isEmpty()) report_error("Run", failures.join("\n"));
  emit run_ended();
}

}  // namespace rl::gui
