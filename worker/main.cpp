// reductionlab-worker: the process a run's points are measured in on a GPU
// (engine/process/worker.h). The CLI and the app start it through engine/process/supervisor.h; it
// is not meant to be run by hand.
#include "engine/process/worker.h"

int main(int argc, char** argv) {
  return rl::worker_main(argc, argv, rl::make_worker_backend);
}
