// Machines reached through a launcher (docs/remote.md): saved in the settings, their devices
// listed with `LAUNCHER reductionlab-cli devices --json` (remote/remote_devices.h) into the
// Device box, Also run on and the Device tab; the Remote machines dialog; the remote Device and
// the Also run on ticks kept in the settings. The runs themselves: main_window_remote.cpp.
#include <QSettings>
#include <QStatusBar>

#include <optional>

#include "device_panel.h"
#include "experiment_panel.h"
#include "main_window.h"
#include "remote/remote_devices.h"
#include "remote/remote_hosts_dialog.h"
#include "run_worker.h"

namespace rl::gui {

namespace {

// "gpu-box|0", "|-1": a target in the settings.
QString target_key(const DeviceTarget& t) {
  return t.host + "|" + QString::number(t.index);
}

std::optional<DeviceTarget> target_from_key(const QString& key) {
  const qsizetype bar = key.lastIndexOf('|');
  bool ok = false;
  const int index = bar < 0 ? 0 : key.mid(bar + 1).toInt(&ok);
  if (!ok) return std::nullopt;
  return DeviceTarget{key.left(bar), index};
}

}  // namespace

void MainWindow::restore_remote_hosts() {
  QSettings settings;
  remote_hosts_ = load_remote_hosts(settings);
  if (options_.discover)
    for (const RemoteHost& h : remote_hosts_) list_remote_devices(h);
}

void MainWindow::add_remote_host(const RemoteHost& host) {
  remove_remote_host(host.name);
  remote_hosts_ << host;
  if (options_.settings) {
    QSettings settings;
    save_remote_hosts(settings, remote_hosts_);
  }
  list_remote_devices(host);
}

void MainWindow::remove_remote_host(const QString& name) {
  for (int i = 0; i < remote_hosts_.size(); ++i)
    if (remote_hosts_[i].name == name) remote_hosts_.removeAt(i--);
  remote_status_.remove(name);
  experiment_->remove_remote(name);
  device_panel_->remove_remote(name);
  if (options_.settings) {
    QSettings settings;
    save_remote_hosts(settings, remote_hosts_);
  }
}

void MainWindow::list_remote_devices(const RemoteHost& host) {
  remote_status_[host.name] = QString();
  device_panel_->set_remote(host.name, host.launcher, nullptr, QString());
  auto* list = new RemoteDeviceList(host, this);
  connect(list, &RemoteDeviceList::listed, this,
          [this, list](const QString& name, const Discovery& d) {
            list->deleteLater();
            if (!remote_status_.contains(name)) return;  // removed meanwhile
            experiment_->set_remote_devices(name, d);
            apply_wanted_devices();
            device_panel_->set_remote(name, list->host().launcher, &d, QString());
            const QString what = d.gpus.empty()
                                     ? "no GPU (" + QString::fromStdString(d.no_gpu_reason) + ")"
                                     : QString("%1 GPU(s)").arg(d.gpus.size());
            remote_status_[name] = name + ": " + what;
            statusBar()->showMessage("Listed " + remote_status_[name], 10000);
            emit remote_devices_changed(name);
          });
  connect(list, &RemoteDeviceList::failed, this,
          [this, list](const QString& name, const QString& message) {
            list->deleteLater();
            if (!remote_status_.contains(name)) return;
            remote_status_[name] = message;
            experiment_->remove_remote(name);
            statusBar()->showMessage(message, 15000);
            last_error_ = message;
            emit remote_devices_changed(name);
          });
  list->start();
}

void MainWindow::show_remote_hosts_dialog() {
  auto* dialog = new RemoteHostsDialog(remote_hosts_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  for (const RemoteHost& h : remote_hosts_) dialog->set_status(h.name, remote_status(h.name));
  connect(dialog, &RemoteHostsDialog::host_added, this, &MainWindow::add_remote_host);
  connect(dialog, &RemoteHostsDialog::host_removed, this, &MainWindow::remove_remote_host);
  connect(this, &MainWindow::remote_devices_changed, dialog,
          [this, dialog](const QString& name) { dialog->set_status(name, remote_status(name)); });
  dialog->open();
}

void MainWindow::save_wanted_devices(QSettings& settings) const {
  settings.setValue("experiment/target", target_key(experiment_->target()));
  QStringList also;
  for (const DeviceTarget& t : experiment_->also_targets()) also << target_key(t);
  settings.setValue("experiment/also", also);
}

void MainWindow::restore_wanted_devices(QSettings& settings) {
  if (auto t = target_from_key(settings.value("experiment/target").toString()); t && t->remote())
    wanted_target_ = t;
  wanted_also_.clear();
  for (const QString& key : settings.value("experiment/also").toStringList())
    if (auto t = target_from_key(key)) wanted_also_ << *t;
}

// Applied as devices appear (this machine's discovery, a machine's listing); a choice is kept
// until its device is there.
void MainWindow::apply_wanted_devices() {
  if (wanted_target_ && experiment_->target_info(*wanted_target_) != nullptr) {
    experiment_->set_target(*wanted_target_);
    wanted_target_.reset();
  } else if (wanted_target_ && wanted_target_->index == kHostDevice) {
    experiment_->set_target(*wanted_target_);
    if (experiment_->target() == *wanted_target_) wanted_target_.reset();
  }
  if (!wanted_also_.isEmpty()) experiment_->set_also(wanted_also_);
}

}  // namespace rl::gui
