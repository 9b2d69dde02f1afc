// Planning and launch entry points of the lab kernels (lab_*.cu), for launch.cu's dispatch.
#pragma once

#include "kernels/launch.h"

namespace rl::kernels::labs {

// The divergence lab (lab_divergence.cu). The first step is the kernel that maps and sums,
// except for BranchPartitioned, whose first step is CUB's partition and whose second step (run
// before the finishing pass) maps the partitioned copy.
bool is_branch_lab(KernelId k);
cudaError_t plan_branch_lab(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_branch_lab_first(const LaunchArgs& a, const LaunchPlan& p);
cudaError_t launch_branch_lab_second(const LaunchArgs& a, const LaunchPlan& p);

// Block-wide predicates (lab_predicates.cu) and the #pragma unroll lab (lab_unroll.cu).
bool is_predicate_lab(KernelId k);
cudaError_t plan_predicate_lab(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_predicate_lab(const LaunchArgs& a, const LaunchPlan& p);
bool is_unroll_lab(KernelId k);
cudaError_t plan_unroll_lab(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_unroll_lab(const LaunchArgs& a, const LaunchPlan& p);

}  // namespace rl::kernels::labs
