// The experiment panel's devices: this machine's GPUs and host, then those of machines reached
// through a launcher (remote/remote_host.h), in the Device box and in "Also run on" (the same
// experiment on several devices at once, drawn side by side).
#include <QComboBox>
#include <QListWidget>

#include "experiment_panel.h"
#include "run_worker.h"

namespace rl::gui {

namespace {

constexpr int kIndexRole = Qt::UserRole;
constexpr int kHostRole = Qt::UserRole + 1;

DeviceTarget target_of(const QVariant& index, const QVariant& host) {
  return {host.toString(), index.isValid() ? index.toInt() : kHostDevice};
}

QString local_label(const Discovery& d, int index) {
  return index == kHostDevice ? QString("CPU: host emulation (CPU times)")
                              : QString::fromStdString(d.gpus[size_t(index)].label());
}

}  // namespace

QString ExperimentPanel::target_label(const DeviceTarget& t) const {
  if (!t.remote()) {
    if (t.index >= int(discovery_.gpus.size())) return QString("cuda:%1").arg(t.index);
    return local_label(discovery_, t.index);
  }
  auto it = remote_.find(t.host);
  const QString device =
      it != remote_.end() && t.index >= 0 && t.index < int(it->second.gpus.size())
          ? QString::fromStdString(it->second.gpus[size_t(t.index)].label())
      : t.index == kHostDevice ? QString("CPU: host emulation")
                               : QString("cuda:%1").arg(t.index);
  return t.host + " · " + device;
}

const DeviceInfo* ExperimentPanel::target_info(const DeviceTarget& t) const {
  const Discovery* d = &discovery_;
  if (t.remote()) {
    auto it = remote_.find(t.host);
    if (it == remote_.end()) return nullptr;
    d = &it->second;
  }
  return t.index >= 0 && t.index < int(d->gpus.size()) ? &d->gpus[size_t(t.index)] : nullptr;
}

void ExperimentPanel::rebuild_devices() {
  const DeviceTarget keep = target();
  const QList<DeviceTarget> also = also_targets();
  std::vector<DeviceTarget> all;
  for (int i = 0; i < int(discovery_.gpus.size()); ++i) all.push_back({QString(), i});
  all.push_back({QString(), kHostDevice});
  for (const auto& [host, d] : remote_) {
    for (int i = 0; i < int(d.gpus.size()); ++i) all.push_back({host, i});
    all.push_back({host, kHostDevice});
  }
  loading_ = true;
  device_->clear();
  also_->clear();
  for (const DeviceTarget& t : all) {
    device_->addItem(target_label(t));
    device_->setItemData(device_->count() - 1, t.index, kIndexRole);
    device_->setItemData(device_->count() - 1, t.host, kHostRole);
    auto* item = new QListWidgetItem(target_label(t), also_);
    item->setData(kIndexRole, t.index);
    item->setData(kHostRole, t.host);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    item->setCheckState(also.contains(t) ? Qt::Checked : Qt::Unchecked);
  }
  loading_ = false;
  set_target(keep);
  update_profiling();  // the index may stay while the device behind it changes
}

void ExperimentPanel::set_remote_devices(const QString& host, const Discovery& discovery) {
  remote_[host] = discovery;
  rebuild_devices();
  schedule_validation();
}

void ExperimentPanel::remove_remote(const QString& host) {
  if (!remote_.erase(host)) return;
  rebuild_devices();
  schedule_validation();
}

DeviceTarget ExperimentPanel::target() const {
  if (device_->currentIndex() < 0) return {};
  return target_of(device_->currentData(kIndexRole), device_->currentData(kHostRole));
}

void ExperimentPanel::set_target(const DeviceTarget& t) {
  int host_row = -1;
  for (int i = 0; i < device_->count(); ++i) {
    const DeviceTarget here =
        target_of(device_->itemData(i, kIndexRole), device_->itemData(i, kHostRole));
    if (here == t) return device_->setCurrentIndex(i);
    if (here == DeviceTarget{}) host_row = i;
  }
  device_->setCurrentIndex(host_row);
}

QList<DeviceTarget> ExperimentPanel::also_targets() const {
  QList<DeviceTarget> out;
  if (!also_) return out;
  const DeviceTarget main = device_ && device_->currentIndex() >= 0 ? target() : DeviceTarget{};
  for (int i = 0; i < also_->count(); ++i) {
    const QListWidgetItem* item = also_->item(i);
    const DeviceTarget t = target_of(item->data(kIndexRole), item->data(kHostRole));
    if (item->checkState() == Qt::Checked && !(t == main)) out << t;
  }
  return out;
}

void ExperimentPanel::set_also(const QList<DeviceTarget>& targets) {
  for (int i = 0; i < also_->count(); ++i) {
    QListWidgetItem* item = also_->item(i);
    const DeviceTarget t = target_of(item->data(kIndexRole), item->data(kHostRole));
    item->setCheckState(targets.contains(t) ? Qt::Checked : Qt::Unchecked);
  }
}

}  // namespace rl::gui
