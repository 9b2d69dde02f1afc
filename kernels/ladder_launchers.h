// Internal: per-family launchers called by launch.cu. Each returns cudaErrorInvalidValue for a
// combination it is not built for.
#pragma once

#include "kernels/launch.h"

namespace rl::kernels {
cudaError_t launch_seed_tree(const LaunchArgs& a, const LaunchPlan& p);    // seed_ladder.cu
cudaError_t launch_seed_warp(const LaunchArgs& a, const LaunchPlan& p);    // seed_warp.cu
cudaError_t launch_finish_pass(const LaunchArgs& a, const LaunchPlan& p);  // finish.cu
}  // namespace rl::kernels

namespace rl::kernels {
// Kernels past the classic ladder (modern_*.cu, cub_reference.cu): planning and launching.
cudaError_t plan_modern(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_modern(const LaunchArgs& a, const LaunchPlan& p);
}  // namespace rl::kernels
