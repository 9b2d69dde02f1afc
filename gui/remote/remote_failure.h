// What to tell the user when a launcher's command ended without its answer: the launcher could
// not start, the host could not be reached, reductionlab-cli is not there, or it is a version
// that does not know the flag. One sentence naming the machine and what happened.
#pragma once

#include <QProcess>
#include <QString>

#include "remote/remote_host.h"

namespace rl::gui {

// The last `limit` characters of what the launcher wrote on stderr, on one line.
QString stderr_tail(const QByteArray& err, int limit = 400);

// `asked`: what was asked ("run --stream jsonl", "devices --json").
QString launch_failure(const RemoteHost& host, const QString& asked, int exit_code,
                       QProcess::ExitStatus status, const QString& tail);

// The launcher did not start at all (QProcess::FailedToStart): its program is missing or not
// executable.
QString launcher_not_started(const RemoteHost& host, const LaunchCommand& command,
                             const QString& error);

}  // namespace rl::gui
