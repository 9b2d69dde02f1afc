// The GPUs of a machine reached through a launcher: `LAUNCHER CLI devices --json` in a
// QProcess, its one line read with the engine's stream reader (engine/process/stream.h). Never
// waits on the GUI thread; a machine that does not answer within the timeout is named as such.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>

#include "engine/device/device.h"
#include "metatypes.h"
#include "remote/remote_host.h"

class QTimer;

namespace rl::gui {

class RemoteDeviceList : public QObject {
  Q_OBJECT
 public:
  explicit RemoteDeviceList(RemoteHost host, QObject* parent = nullptr);
  ~RemoteDeviceList() override;
  void start(int timeout_ms = 60000);
  const RemoteHost& host() const { return host_; }

 signals:
  void listed(const QString& host, const rl::Discovery& discovery);
  void failed(const QString& host, const QString& message);

 private:
  void finish(int exit_code, QProcess::ExitStatus status);
  RemoteHost host_;
  QProcess* process_ = nullptr;
  QByteArray out_, err_;
  bool done_ = false, timed_out_ = false;
  int timeout_ms_ = 0;
};

}  // namespace rl::gui
