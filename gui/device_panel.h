// What hardware there is: each GPU's name, compute capability, SMs, L2, memory, theoretical and
// measured bandwidth; the links between GPUs (NVLink as the driver's NVML says, P2P access as the
// runtime says) and the NCCL a multi-GPU run would use; with no GPU, the reason and what still
// works. Also the device of the session on screen, which may be another machine's (the bundled H200
// session).
#pragma once

#include <QWidget>

#include <map>
#include <optional>

#include "engine/device/device.h"

class QTextBrowser;

namespace rl::gui {

class DevicePanel : public QWidget {
  Q_OBJECT
 public:
  explicit DevicePanel(QWidget* parent = nullptr);
  // Shows discovery.links as given (discover_devices_with_links fills them off the GUI thread).
  void set_discovery(const Discovery& discovery);
  // A backend finished setting up (copy bandwidth measured): update that device's row.
  void update_device(const DeviceInfo& device);
  void set_session_device(const DeviceInfo* device, const QString& origin);
  // A machine reached through a launcher (docs/remote.md): its devices when it answered, else
  // what it said; removed with remove_remote.
  void set_remote(const QString& name, const QString& launcher, const Discovery* discovery,
                  const QString& status);
  void remove_remote(const QString& name);
  QString text() const;  // plain text of what is shown, for tests

 private:
  void render();
  std::optional<Discovery> discovery_;  // with the links between its GPUs, when discovered so
  QString nccl_;                        // which NCCL a multi-GPU run would use
  std::optional<DeviceInfo> session_device_;
  struct Remote {
    QString launcher, status;
    std::optional<Discovery> discovery;
  };
  std::map<QString, Remote> remotes_;
  QString session_origin_;
  QTextBrowser* view_;
};

// HTML table rows describing a device (shared with the session banner's tooltip).
QString device_html(const DeviceInfo& d);

}  // namespace rl::gui
