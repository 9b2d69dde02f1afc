// Scaffolding until the modern kernels land: no kernels past the seed yet.
#include "ladder_launchers.h"

namespace rl::kernels {
cudaError_t plan_modern(const LaunchArgs&, LaunchPlan*) { return cudaErrorInvalidValue; }
cudaError_t launch_modern(const LaunchArgs&, const LaunchPlan&) { return cudaErrorInvalidValue; }
}  // namespace rl::kernels
