// The plan and launch of a kernel the user wrote (KernelId::User): compiled at run time by the
// engine, so here only its grid, buffers and one cudaLaunchKernel with the contract's arguments.
#pragma once

#include "kernels/launch.h"

namespace rl::kernels {

cudaError_t plan_user(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_user(const LaunchArgs& a, const LaunchPlan& plan);

}  // namespace rl::kernels
