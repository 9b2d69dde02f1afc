// reductionlab-worker: the process a run's points are measured in on a GPU (engine/run/worker.h).
// The CLI and the app start it through engine/run/supervisor.h; it is not meant to be run by
// hand.
#include "engine/run/worker.h"

int main(int argc, char** argv) {
  return rl::worker_main(argc, argv, rl::make_worker_backend);
}
