#include "local_run.h"

namespace rl::gui {

LocalRun::LocalRun(QObject* parent) : QObject(parent) {
  connect(&queue_, &RunController::started, this, &LocalRun::started);
  connect(&queue_, &RunController::progress, this, &LocalRun::progress);
  connect(&queue_, &RunController::point_finished, this, &LocalRun::point_finished);
  connect(&queue_, &RunController::notice, this, &LocalRun::notice);
  connect(&queue_, &RunController::finished, this,
          [this](const Session& s) { emit finished(s, QString()); });
  connect(&queue_, &RunController::failed, this, &LocalRun::failed);
}

void LocalRun::start(const ExperimentSpec& spec, int device, const RunProfiling& profiling) {
  queue_.start(spec, device, std::nullopt, profiling);
}

void LocalRun::cancel() {
  queue_.cancel();
}

}  // namespace rl::gui
