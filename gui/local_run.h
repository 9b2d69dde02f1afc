// One experiment on a further device of this machine in a run on several (main_window_remote.cpp):
// a GPU job queue of its own (RunController: its own thread and the engine's RunTarget for that
// device), so a second local GPU runs exactly as the first does, in its own worker processes.
// Its signals have the shapes of a remote run's (remote/remote_run.h), so a lane does not care
// which it holds.
#pragma once

#include <QObject>
#include <QString>

#include "engine/experiment/spec.h"
#include "engine/session/results.h"
#include "metatypes.h"
#include "run_worker.h"

namespace rl::gui {

class LocalRun : public QObject {
  Q_OBJECT
 public:
  explicit LocalRun(QObject* parent = nullptr);

  // device: a CUDA ordinal here, or kHostDevice for the host backend.
  void start(const ExperimentSpec& spec, int device, const RunProfiling& profiling = {});
  // Stops between samples; finished() follows with the points so far.
  void cancel();
  bool running() const { return queue_.running(); }

 signals:
  void started(const rl::DeviceInfo& device);
  void progress(const rl::Progress& progress);
  void point_finished(const rl::PointResult& result);
  void notice(const QString& message);
  // The run is over (a cancel included); problem is always "": a fault is in the points.
  void finished(const rl::Session& session, const QString& problem);
  void failed(const QString& message);  // it never started: why

 private:
  RunController queue_;
};

}  // namespace rl::gui
