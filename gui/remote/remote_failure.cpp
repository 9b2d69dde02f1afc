#include "remote/remote_failure.h"

namespace rl::gui {

namespace {

QString said(const QString& tail) {
  return tail.isEmpty() ? QString() : QString(": %1").arg(tail);
}

bool is_ssh(const RemoteHost& host) {
  const QString first = host.launcher.trimmed().section(' ', 0, 0);
  return first == "ssh" || first.endsWith("/ssh");
}

}  // namespace

QString stderr_tail(const QByteArray& err, int limit) {
  QString text = QString::fromUtf8(err.right(limit * 2)).simplified();
  if (text.size() > limit) text = "..." + text.right(limit);
  return text;
}

QString launch_failure(const RemoteHost& host, const QString& asked, int exit_code,
                       QProcess::ExitStatus status, const QString& tail) {
  const QString where = host.name;
  if (status == QProcess::CrashExit)
    return QString("%1: the launcher '%2' was killed before it answered%3")
        .arg(where, host.launcher, said(tail));
  // CLI11's words for a flag or subcommand this build lacks: an older reductionlab-cli.
  if (tail.contains("not expected") || tail.contains("unknown subcommand") ||
      tail.contains("was not expected"))
    return QString(
               "%1: the reductionlab-cli there (%2) is older than this app: it does not know "
               "`%3`. Install this version there (docs/remote.md)%4")
        .arg(where, host.cli, asked, said(tail));
  if (exit_code == 127 || tail.contains("command not found") ||
      (tail.contains("No such file or directory") && tail.contains(host.cli)))
    return QString(
               "%1: reductionlab-cli was not found there at '%2' (exit code %3%4). Set the "
               "path of reductionlab-cli on that machine")
        .arg(where, host.cli)
        .arg(exit_code)
        .arg(said(tail).isEmpty() ? QString() : ";" + said(tail).mid(1));
  if (exit_code == 255 && is_ssh(host))
    return QString("%1: could not connect with '%2' (ssh exited with code 255%3)")
        .arg(where, host.launcher, tail.isEmpty() ? QString() : ": " + tail);
  return QString("%1: '%2' ended with exit code %3 before answering `%4`%5")
      .arg(where, host.launcher.isEmpty() ? host.cli : host.launcher)
      .arg(exit_code)
      .arg(asked, said(tail));
}

QString launcher_not_started(const RemoteHost& host, const LaunchCommand& command,
                             const QString& error) {
  return QString("%1: the launcher '%2' could not be started (%3)")
      .arg(host.name, command.program, error);
}

}  // namespace rl::gui
