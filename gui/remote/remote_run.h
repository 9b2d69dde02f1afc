// One experiment on a machine reached through a launcher (remote/remote_host.h): `LAUNCHER CLI
// run --stream jsonl --spec - --device D` in a QProcess, the spec written to its stdin, the
// stream read with the engine's reader (engine/process/stream.h) as lines arrive, on the GUI thread
// (reading a line is cheap; nothing here waits). Its signals have the shapes of a local run's, so
// the same charts grow point by point.
// However it ends, the finished points are kept: cancelled (SIGTERM to the launcher: a local CLI
// cancels and says so; ssh drops the connection and the remote CLI stops at its next line),
// the connection dropped, a line that is not the stream; each says what happened.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>

#include <optional>

#include "engine/experiment/spec.h"
#include "engine/process/stream.h"
#include "metatypes.h"
#include "remote/remote_host.h"
#include "run_worker.h"

namespace rl::gui {

class RemoteRun : public QObject {
  Q_OBJECT
 public:
  explicit RemoteRun(RemoteHost host, QObject* parent = nullptr);
  ~RemoteRun() override;

  // device: a CUDA ordinal there, or kHostDevice (-1) for its host backend. profiling: the
  // CLI's `--counters default`, `--line-samples` or `--line-counts`.
  void start(const ExperimentSpec& spec, int device, const RunProfiling& profiling = {});
  // SIGTERM to the launcher, then SIGKILL if it has not ended within kill_after_ms.
  void cancel(int kill_after_ms = 3000);
  bool running() const { return process_ && !done_; }
  const RemoteHost& host() const { return host_; }
  const LaunchCommand& command() const { return command_; }

 signals:
  void started(const rl::DeviceInfo& device);
  void progress(const rl::Progress& progress);
  void point_finished(const rl::PointResult& result);
  void notice(const QString& message);
  // The run is over; session holds every finished point (cancelled: it did not run them all).
  // problem: what cut it short ("" when it ended as asked, a cancel included).
  void finished(const rl::Session& session, const QString& problem);
  // It never started: why, naming the machine.
  void failed(const QString& message);

 private:
  void read_output();
  void on_line(const QByteArray& line);
  void stop_with(const QString& problem);
  void on_exit(int exit_code, QProcess::ExitStatus status);
  QString lost_message(int exit_code, QProcess::ExitStatus status) const;

  RemoteHost host_;
  LaunchCommand command_;
  QProcess* process_ = nullptr;
  QByteArray out_, err_;
  StreamReader reader_;
  QString problem_, error_;  // what stopped the reading; an error event's message
  bool cancel_requested_ = false, done_ = false;
};

}  // namespace rl::gui
