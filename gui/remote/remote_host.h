// A machine the app reaches only through a launcher: a command prefix the user types ("ssh
// gpu-box", "ssh -J bastion gpu-box", "srun -p gpu --gres=gpu:1", "docker exec lab") and the
// path of reductionlab-cli there. The app runs `LAUNCHER CLI devices --json` and `LAUNCHER CLI
// run --stream jsonl --spec -` (QProcess; docs/remote.md): no protocol of its own, no stored
// password; the user's ssh config and agent authenticate.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class QSettings;

namespace rl::gui {

struct RemoteHost {
  QString name;      // what the device list shows: "gpu-box"
  QString launcher;  // the command prefix; "" runs the CLI on this machine
  QString cli = "reductionlab-cli";
  bool operator==(const RemoteHost&) const = default;
};

// Where one run goes: a device of this machine (host "") or of a remote one; index is a CUDA
// ordinal or kHostDevice (-1).
struct DeviceTarget {
  QString host;
  int index = -1;
  bool remote() const { return !host.isEmpty(); }
  bool operator==(const DeviceTarget&) const = default;
};

// A program and its arguments, ready for QProcess.
struct LaunchCommand {
  QString program;
  QStringList arguments;
  QString shown() const;  // for messages: "ssh gpu-box reductionlab-cli devices --json"
};

// LAUNCHER's words, then CLI, then args. nullopt with *error when the launcher cannot be split
// (an unclosed quote) or the CLI path is empty.
std::optional<LaunchCommand> launch_command(const RemoteHost& host, const QStringList& args,
                                            QString* error);

// Why this entry cannot be saved ("" when it can): a name missing, taken, or with a '/', no CLI,
// an unclosed quote in the launcher.
QString remote_host_problem(const RemoteHost& host, const QList<RemoteHost>& others);

// Saved in QSettings under remote/hosts (an array of name, launcher, cli).
QList<RemoteHost> load_remote_hosts(QSettings& settings);
void save_remote_hosts(QSettings& settings, const QList<RemoteHost>& hosts);

}  // namespace rl::gui
