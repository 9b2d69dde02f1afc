// Shared helpers of the GUI tests: a window without dialogs, settings, GPU discovery or the
// bundled session; a tiny host-backend experiment; waiting for a run while the event loop runs.
#pragma once

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "experiment_panel.h"
#include "main_window.h"
#include "run_worker.h"

namespace rl::gui::test {

// This build's reductionlab-cli: $REDUCTIONLAB_CLI, else where the build put it, else beside the
// test binary (the GPU machine runs copies of the binaries from one directory).
inline QString cli_path() {
  if (const QString env = qEnvironmentVariable("REDUCTIONLAB_CLI"); !env.isEmpty()) return env;
  if (QFileInfo(RL_CLI_PATH).isExecutable()) return RL_CLI_PATH;
  return QDir(QCoreApplication::applicationDirPath()).filePath("reductionlab-cli");
}

#ifdef RL_FAKE_WORKER_PATH
// The fake GPU worker (tests/engine/fake_worker.cpp): where the build put it, else beside the test
// binary, as cli_path().
inline QByteArray fake_worker_path() {
  if (QFileInfo(RL_FAKE_WORKER_PATH).isExecutable()) return RL_FAKE_WORKER_PATH;
  return QDir(QCoreApplication::applicationDirPath()).filePath("rl_fake_worker").toLocal8Bit();
}
#endif

// A session saved as dir/name, as the app would save it; the path, or an empty string (and a
// failed expectation) when it could not be written.
inline QString write_session_file(const QTemporaryDir& dir, const QString& name, const Session& s) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) {
    ADD_FAILURE() << "cannot write " << path.toStdString();
    return {};
  }
  f.write(QByteArray::fromStdString(session_to_json(s)));
  return path;
}

inline MainWindow::Options quiet_options() {
  MainWindow::Options o;
  o.dialogs = false;
  o.settings = false;
  o.discover = false;
  o.open_bundled = false;
  return o;
}

// Two variants, sizes 1000 and 4096, a 5 ms budget: a few host-backend points in well under a
// second.
inline ExperimentSpec tiny_spec() {
  ExperimentSpec s;
  s.variants = {"neighbored", "interleaved"};
  s.workspaces = {Workspace::Global};
  s.block_sizes = {256};
  s.sizes = {1000, 4096};
  s.types = {DType::Int32};
  s.timing.budget_ms = 5;
  s.timing.min_samples = 3;
  return s;
}

// Processes events until pred() holds or timeout_ms passes; returns pred().
template <typename Pred>
bool wait_until(Pred pred, int timeout_ms) {
  QElapsedTimer clock;
  clock.start();
  while (!pred() && clock.elapsed() < timeout_ms)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  return pred();
}

inline bool run_and_wait(MainWindow& w, const ExperimentSpec& spec, int timeout_ms = 60000) {
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(spec);
  w.run();
  if (!w.controller()->running()) return false;
  return wait_until([&] { return !w.controller()->running(); }, timeout_ms);
}

}  // namespace rl::gui::test
