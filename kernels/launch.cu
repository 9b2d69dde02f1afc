// Plans and dispatches launches by kernel family.
#include "dispatch.cuh"
#include "kernels/accepts.h"
#include "lab_launchers.cuh"
#include "ladder_launchers.h"
#include "segmented_shape.h"
#include "user_launch.h"

namespace rl::kernels {

namespace {
bool is_seed_tree(KernelId k) {
  return k == KernelId::Neighbored || k == KernelId::NeighboredLess || k == KernelId::Interleaved ||
         k == KernelId::Unroll;
}
bool is_seed_warp(KernelId k) {
  const int v = static_cast<int>(k);
  return v >= static_cast<int>(KernelId::UnrollWarpVolatile) &&
         v <= static_cast<int>(KernelId::CompleteUnrollSync);
}
}  // namespace

cudaError_t plan_launch(const LaunchArgs& a, LaunchPlan* plan) {
  if (plan == nullptr || a.n == 0) return cudaErrorInvalidValue;
  // Block sizes, unroll factors, types and workspaces: the table in kernels/accepts.h.
  if (!accepts_launch(a.kernel, a.block_size, a.unroll, a.type, a.workspace))
    return cudaErrorInvalidValue;
  if (a.kernel == KernelId::User) return plan_user(a, plan);
  // Rows and columns of a matrix: a sum per row (column), no finishing pass.
  if (is_segmented_kernel(a.kernel)) return segmented::plan_segmented(a, plan);
  if (is_seed_tree(a.kernel) || is_seed_warp(a.kernel)) {
    const std::size_t tile = static_cast<std::size_t>(a.block_size) * a.unroll;
    const std::size_t grid = (a.n + tile - 1) / tile;
    if (grid > 0x7fffffffu) return cudaErrorInvalidValue;
    *plan = LaunchPlan{};
    plan->grid = static_cast<unsigned>(grid);
    plan->partial_count = grid;
    plan->input_capacity = grid * tile;
    return cudaSuccess;
  }
  if (labs::is_branch_lab(a.kernel)) return labs::plan_branch_lab(a, plan);
  if (labs::is_predicate_lab(a.kernel)) return labs::plan_predicate_lab(a, plan);
  if (labs::is_unroll_lab(a.kernel)) return labs::plan_unroll_lab(a, plan);
  return plan_modern(a, plan);
}

cudaError_t launch_first(const LaunchArgs& a, const LaunchPlan& p) {
  if (a.kernel == KernelId::User) return launch_user(a, p);
  if (is_segmented_kernel(a.kernel)) return segmented::launch_segmented(a, p);
  if (is_seed_tree(a.kernel)) return launch_seed_tree(a, p);
  if (is_seed_warp(a.kernel)) return launch_seed_warp(a, p);
  if (labs::is_branch_lab(a.kernel)) return labs::launch_branch_lab_first(a, p);
  if (labs::is_predicate_lab(a.kernel)) return labs::launch_predicate_lab(a, p);
  if (labs::is_unroll_lab(a.kernel)) return labs::launch_unroll_lab(a, p);
  return launch_modern(a, p);
}

cudaError_t launch_finish(const LaunchArgs& a, const LaunchPlan& p) {
  if (!p.needs_finish) return cudaSuccess;
  // The partitioned branch lab maps its partitioned copy here, after the timed partition.
  if (labs::is_branch_lab(a.kernel))
    if (const cudaError_t e = labs::launch_branch_lab_second(a, p); e != cudaSuccess) return e;
  return launch_finish_pass(a, p);
}

}  // namespace rl::kernels
