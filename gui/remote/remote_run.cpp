#include "remote/remote_run.h"

#include <QTimer>

#include "engine/io/export.h"
#include "remote/remote_failure.h"

namespace rl::gui {

namespace {

constexpr int kMaxLineBytes = 64 << 20;  // a point's samples fit many times over
constexpr int kKeptStderr = 8192;

QString device_arg(int device) {
  return device < 0 ? QString("cpu") : QString("cuda:%1").arg(device);
}

}  // namespace

RemoteRun::RemoteRun(RemoteHost host, QObject* parent) : QObject(parent), host_(std::move(host)) {
  register_metatypes();
}

RemoteRun::~RemoteRun() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(1000);  // after SIGKILL: at once
  }
}

void RemoteRun::start(const ExperimentSpec& spec, int device, const RunProfiling& profiling) {
  QString error;
  QStringList args{"run", "--stream", "jsonl", "--spec", "-", "--device", device_arg(device)};
  if (profiling.counters)
    args << "--counters"
         << "default";
  if (profiling.line_samples) args << "--line-samples";
  if (profiling.line_counts) args << "--line-counts";
  const auto command = launch_command(host_, args, &error);
  if (!command) {
    done_ = true;
    QTimer::singleShot(0, this, [this, error] { emit failed(host_.name + ": " + error); });
    return;
  }
  command_ = *command;
  process_ = new QProcess(this);
  connect(process_, &QProcess::readyReadStandardOutput, this, &RemoteRun::read_output);
  connect(process_, &QProcess::readyReadStandardError, this, [this] {
    err_ += process_->readAllStandardError();
    if (err_.size() > 2 * kKeptStderr) err_ = err_.right(kKeptStderr);
  });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e != QProcess::FailedToStart || done_) return;
    done_ = true;
    emit failed(launcher_not_started(host_, command_, process_->errorString()));
  });
  connect(process_, &QProcess::finished, this, &RemoteRun::on_exit);
  process_->start(command_.program, command_.arguments);
  process_->write(QByteArray::fromStdString(spec_to_json(spec, -1)));
  process_->closeWriteChannel();  // the spec ends here: `--spec -` reads to the end
}

void RemoteRun::cancel(int kill_after_ms) {
  if (!running()) return;
  cancel_requested_ = true;
  process_->terminate();
  QTimer::singleShot(kill_after_ms, this, [this] {
    if (running()) process_->kill();
  });
}

void RemoteRun::read_output() {
  out_ += process_->readAllStandardOutput();
  qsizetype start = 0;
  for (qsizetype nl; !done_ && (nl = out_.indexOf('\n', start)) >= 0; start = nl + 1) {
    on_line(out_.mid(start, nl - start));
    if (!problem_.isEmpty()) break;
  }
  out_.remove(0, start);
  if (out_.size() > kMaxLineBytes && problem_.isEmpty())
    stop_with(host_.name + ": a line longer than 64 MiB: not the stream");
}

void RemoteRun::on_line(const QByteArray& line) {
  if (!problem_.isEmpty()) return;
  std::optional<StreamEvent> event;
  try {
    event = reader_.feed(std::string_view(line.constData(), std::size_t(line.size())));
  } catch (const StreamError& e) {
    stop_with(host_.name + ": " + QString::fromStdString(e.what()));
    return;
  }
  if (!event) return;
  switch (*event) {
    case StreamEvent::Start:
      emit started(reader_.session().device);
      break;
    case StreamEvent::Progress:
      emit progress(reader_.progress());
      break;
    case StreamEvent::Point:
      emit point_finished(reader_.session().results.back());
      break;
    case StreamEvent::Notice:
      emit notice(host_.name + ": " + QString::fromStdString(reader_.message()));
      break;
    case StreamEvent::Error:
      error_ = QString::fromStdString(reader_.message());
      break;
    case StreamEvent::End:
    case StreamEvent::Devices:
      break;
  }
}

// What cannot be read ends the reading: the launcher is stopped, what arrived is kept.
void RemoteRun::stop_with(const QString& problem) {
  problem_ = problem;
  if (process_ && process_->state() != QProcess::NotRunning) process_->kill();
}

QString RemoteRun::lost_message(int exit_code, QProcess::ExitStatus status) const {
  const QString tail = stderr_tail(err_);
  const QString how = status == QProcess::CrashExit
                          ? QString("the launcher was killed")
                          : QString("'%1' exited with code %2")
                                .arg(host_.launcher.isEmpty() ? host_.cli : host_.launcher)
                                .arg(exit_code);
  return QString("%1: the connection was lost after %2 of %3 point(s) (%4%5)")
      .arg(host_.name)
      .arg(reader_.session().results.size())
      .arg(reader_.total_points())
      .arg(how, tail.isEmpty() ? QString() : ": " + tail);
}

void RemoteRun::on_exit(int exit_code, QProcess::ExitStatus status) {
  if (done_) return;
  read_output();
  if (!out_.trimmed().isEmpty()) on_line(out_);  // a last line without its newline
  out_.clear();
  done_ = true;
  Session session = reader_.session();
  const bool started = reader_.started();
  const QString kept = QString("; the %1 finished point(s) are kept").arg(session.results.size());
  if (!problem_.isEmpty()) {
    if (!started) return emit failed(problem_);
    session.cancelled = true;
    return emit finished(session, problem_ + kept);
  }
  if (reader_.ended()) return emit finished(session, QString());
  if (!started) {
    if (!error_.isEmpty()) return emit failed(host_.name + ": " + error_);
    if (cancel_requested_) return emit failed(host_.name + ": cancelled before the run started");
    return emit failed(
        launch_failure(host_, "run --stream jsonl", exit_code, status, stderr_tail(err_)));
  }
  session.cancelled = true;
  if (cancel_requested_) return emit finished(session, QString());
  if (!error_.isEmpty()) return emit finished(session, host_.name + ": " + error_ + kept);
  emit finished(session, lost_message(exit_code, status) + kept);
}

}  // namespace rl::gui
