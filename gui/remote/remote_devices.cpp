#include "remote/remote_devices.h"

#include <QTimer>

#include "engine/process/stream.h"
#include "remote/remote_failure.h"

namespace rl::gui {

RemoteDeviceList::RemoteDeviceList(RemoteHost host, QObject* parent)
    : QObject(parent), host_(std::move(host)) {
  register_metatypes();
}

RemoteDeviceList::~RemoteDeviceList() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(1000);
  }
}

void RemoteDeviceList::start(int timeout_ms) {
  timeout_ms_ = timeout_ms;
  QString error;
  const auto command = launch_command(host_, {"devices", "--json"}, &error);
  if (!command) {
    done_ = true;
    QTimer::singleShot(0, this, [this, error] { emit failed(host_.name, error); });
    return;
  }
  process_ = new QProcess(this);
  process_->setStandardInputFile(QProcess::nullDevice());  // nothing to ask: no prompt waits
  connect(process_, &QProcess::readyReadStandardOutput, this,
          [this] { out_ += process_->readAllStandardOutput(); });
  connect(process_, &QProcess::readyReadStandardError, this,
          [this] { err_ += process_->readAllStandardError(); });
  connect(process_, &QProcess::errorOccurred, this, [this, c = *command](QProcess::ProcessError e) {
    if (e != QProcess::FailedToStart || done_) return;
    done_ = true;
    emit failed(host_.name, launcher_not_started(host_, c, process_->errorString()));
  });
  connect(process_, &QProcess::finished, this, &RemoteDeviceList::finish);
  QTimer::singleShot(timeout_ms, this, [this] {
    if (done_ || !process_ || process_->state() == QProcess::NotRunning) return;
    timed_out_ = true;
    process_->kill();
  });
  process_->start(command->program, command->arguments);
}

void RemoteDeviceList::finish(int exit_code, QProcess::ExitStatus status) {
  if (done_) return;
  done_ = true;
  out_ += process_->readAllStandardOutput();
  err_ += process_->readAllStandardError();
  if (timed_out_)
    return emit failed(host_.name,
                       QString("%1: no answer within %2 s from '%3' (is a password or a "
                               "host key question waiting? docs/remote.md)")
                           .arg(host_.name)
                           .arg(timeout_ms_ / 1000.0)
                           .arg(host_.launcher));
  StreamReader reader;
  try {
    for (const QByteArray& line : out_.split('\n'))
      reader.feed(std::string_view(line.constData(), std::size_t(line.size())));
  } catch (const StreamError& e) {
    return emit failed(host_.name, host_.name + ": " + QString::fromStdString(e.what()));
  }
  if (reader.discovery()) return emit listed(host_.name, *reader.discovery());
  emit failed(host_.name,
              launch_failure(host_, "devices --json", exit_code, status, stderr_tail(err_)));
}

}  // namespace rl::gui
