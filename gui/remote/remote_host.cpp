#include "remote/remote_host.h"

#include <QProcess>
#include <QSettings>

namespace rl::gui {

namespace {

// QProcess::splitCommand takes an unclosed quote as running to the end; refuse it instead, as a
// shell would, so a typo is named rather than run.
bool quotes_closed(const QString& text) {
  bool in_quote = false;
  for (const QChar c : text)
    if (c == '"') in_quote = !in_quote;
  return !in_quote;
}

}  // namespace

QString LaunchCommand::shown() const {
  return (QStringList{program} + arguments).join(' ');
}

std::optional<LaunchCommand> launch_command(const RemoteHost& host, const QStringList& args,
                                            QString* error) {
  if (!quotes_closed(host.launcher)) {
    if (error) *error = "the launcher '" + host.launcher + "' has an unclosed quote";
    return std::nullopt;
  }
  if (host.cli.trimmed().isEmpty()) {
    if (error) *error = "no path of reductionlab-cli is set for " + host.name;
    return std::nullopt;
  }
  QStringList words = QProcess::splitCommand(host.launcher);
  words << host.cli.trimmed() << args;
  LaunchCommand c;
  c.program = words.takeFirst();
  c.arguments = words;
  return c;
}

QString remote_host_problem(const RemoteHost& host, const QList<RemoteHost>& others) {
  if (host.name.trimmed().isEmpty()) return "Give the machine a name (it labels its devices).";
  if (host.name.contains('/')) return "A name cannot hold '/'.";
  for (const RemoteHost& o : others)
    if (o.name == host.name) return "A machine named '" + host.name + "' is already listed.";
  if (!quotes_closed(host.launcher)) return "The launcher has an unclosed quote.";
  if (host.cli.trimmed().isEmpty())
    return "Give the path of reductionlab-cli on that machine (reductionlab-cli when it is on "
           "its PATH).";
  return {};
}

QList<RemoteHost> load_remote_hosts(QSettings& settings) {
  QList<RemoteHost> out;
  const int n = settings.beginReadArray("remote/hosts");
  for (int i = 0; i < n; ++i) {
    settings.setArrayIndex(i);
    RemoteHost h;
    h.name = settings.value("name").toString();
    h.launcher = settings.value("launcher").toString();
    h.cli = settings.value("cli", h.cli).toString();
    if (remote_host_problem(h, out).isEmpty()) out << h;  // a damaged entry is left out
  }
  settings.endArray();
  return out;
}

void save_remote_hosts(QSettings& settings, const QList<RemoteHost>& hosts) {
  settings.remove("remote/hosts");
  settings.beginWriteArray("remote/hosts", int(hosts.size()));
  for (int i = 0; i < int(hosts.size()); ++i) {
    settings.setArrayIndex(i);
    settings.setValue("name", hosts[i].name);
    settings.setValue("launcher", hosts[i].launcher);
    settings.setValue("cli", hosts[i].cli);
  }
  settings.endArray();
}

}  // namespace rl::gui
