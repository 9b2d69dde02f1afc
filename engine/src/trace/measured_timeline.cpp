// Measured warp timelines recorded on a GPU (engine/trace/measured_timeline.h): the request
// checked, the twin run by the kernels library, and its raw warp records read into marks.
#include "engine/trace/measured_timeline.h"

#include <algorithm>
#include <map>

#include "backend/launch_args.h"
#include "backend/user_module.h"
#include "core/cuda_raii.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/core/utc_time.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model_ladder.h"
#include "engine/user/user_kernel.h"
#include "kernels/timeline.h"
#include "kernels/timeline_marks.cuh"
#include "trace/timeline_marks_read.h"
#include "trace/trace_internal.h"

namespace rl {

namespace {

using Resolved = ResolvedVariant;

Resolved resolve(const TimelineRequest& r) {
  const Resolved out = resolve_variant_unroll(r.variant, r.unroll);
  if (!has_measured_timeline(*out.variant))
    throw Error("no measured timeline for " + out.variant->id +
                ": measured timelines cover the classic ladder's nine rungs, warp_shuffle, "
                "reduce_add_sync, vectorized, single_pass, cluster_single_pass and your own "
                "kernels");
  return out;
}

// One block per tile of B x U elements: the classic ladder's grid, and a user kernel's unless it
// declares a grid-stride grid (then the blocks the SMs hold, at most one per tile: checked again
// on the GPU, where the SM count is known).
std::uint64_t grid_of(const Resolved& v, const TimelineRequest& r) {
  // Past the ladder the grid comes from the GPU (its SMs, the kernel's occupancy): the kernels
  // library checks the listed blocks against it.
  if (v.variant->family == VariantFamily::Modern) return 0;
  if (v.variant->family == VariantFamily::User) {
    const std::uint64_t tile = std::uint64_t(r.block_size) * v.unroll;
    return (r.size + tile - 1) / tile;
  }
  const ladder::BlockPlan plan = ladder::make_plan(*v.variant, r.workspace, r.block_size, v.unroll);
  return ladder::grid_for(plan, r.size);
}

// The point a run would launch for r: its launch arguments come from the backend's own rules
// (launch_args_for, attach_user_kernel), so the real kernel timed beside the twin is the one a
// run times.
PointSpec point_of(const TimelineRequest& r, const Resolved& v) {
  PointSpec p;
  p.variant = v.variant->id;
  p.block_size = r.block_size;
  p.unroll = v.unroll;
  p.type = r.type;
  p.workspace = r.workspace;
  p.size = r.size;
  return p;
}

}  // namespace

bool has_measured_timeline(const VariantInfo& v) {
  return v.family == VariantFamily::User || kernels::has_timeline_twin(v.kernel);
}

void check_timeline_request(const TimelineRequest& r) {
  const Resolved v = resolve(r);
  const std::string& id = v.variant->id;
  if (!v.variant->takes_block_size(r.block_size))
    throw Error("block size " + std::to_string(r.block_size) + ": " + id + " takes " +
                (is_block_size(r.block_size) ? "64 to 1024 threads" : kBlockSizeRule));
  if (!v.variant->takes_unroll(v.unroll))
    throw Error("unroll " + std::to_string(v.unroll) + ": not taken by " + id);
  if (!v.variant->takes_workspace(r.workspace))
    throw Error("workspace " + std::string(to_string(r.workspace)) + ": " + id +
                (v.variant->takes_workspace(Workspace::Registers)
                     ? " reduces in registers"
                     : " reduces in global or shared memory"));
  if (r.size == 0) throw Error("size must be at least 1 element");
  // The input is made on the host first (4 bytes an element): 2^28 elements is 1 GiB, as for a
  // trace's input.
  if (r.size > (std::uint64_t(1) << 28))
    throw Error("size " + std::to_string(r.size) +
                ": a timeline records at most 2^28 elements (1 GiB of input)");
  if (r.blocks.size() > kTimelineMaxBlocks)
    throw Error("blocks: at most " + std::to_string(kTimelineMaxBlocks) + " blocks, not " +
                std::to_string(r.blocks.size()));
  if (r.blocks.empty() && (r.max_blocks < 1 || r.max_blocks > kTimelineMaxBlocks))
    throw Error("max blocks " + std::to_string(r.max_blocks) + ": must be 1 to " +
                std::to_string(kTimelineMaxBlocks));
  const std::uint64_t grid = grid_of(v, r);
  for (unsigned b : r.blocks)
    if (grid != 0 && b >= grid)
      throw Error("block " + std::to_string(b) + " is past the grid: " + std::to_string(r.size) +
                  " elements launch " + std::to_string(grid) + " blocks of " + id);
  std::vector<unsigned> sorted = r.blocks;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw Error("blocks: a block is listed twice");
  if (r.cost_runs < 0 || r.cost_runs > 1000)
    throw Error("cost runs " + std::to_string(r.cost_runs) + ": must be 0 to 1000");
}

MeasuredTimeline record_measured_timeline(const TimelineRequest& r, int device) {
  check_timeline_request(r);
  const Resolved v = resolve(r);
  const std::string context = "measured timeline of " + v.variant->seed_label(v.unroll) +
                              " B=" + std::to_string(r.block_size) +
                              " on cuda:" + std::to_string(device);
  RL_CUDA_CHECK(cudaSetDevice(device), context);
  cudaDeviceProp prop{};
  RL_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), context);
  if (r.blocks.empty() && r.sm >= unsigned(prop.multiProcessorCount))
    throw Error("SM " + std::to_string(r.sm) + ": " + prop.name + " has SMs 0 to " +
                std::to_string(prop.multiProcessorCount - 1));

  const InputData input = make_input(r.size, r.type);
  const PointSpec point = point_of(r, v);
  kernels::TimelineLaunchRequest req;
  req.launch = launch_args_for(point);
  attach_user_kernel(req.launch, point, device);
  req.host_input = input.data();
  req.blocks = r.blocks;
  req.sm = r.sm;
  req.max_blocks = r.max_blocks;
  req.cost_runs = r.cost_runs;
  const bool user = v.variant->family == VariantFamily::User;
  if (user) {
    const LoadedUserKernel twin = load_user_kernel(point, prop.major, prop.minor, true);
    req.user_twin = twin.kernel;
    req.user_twin_sink = twin.timeline_sink;
  }
  kernels::TimelineLaunchResult res;
  std::string where;
  if (const cudaError_t e = kernels::record_kernel_timeline(req, &res, &where); e != cudaSuccess)
    throw CudaError(where, e, context);

  MeasuredTimeline t;
  t.variant = v.variant->id;
  t.label = v.variant->seed_label(v.unroll);
  t.block_size = r.block_size;
  t.unroll = v.unroll;
  t.workspace = r.workspace;
  t.type = r.type;
  t.size = r.size;
  t.grid = res.grid;
  t.selection = r.blocks.empty() ? "sm" : "blocks";
  t.sm = r.sm;
  t.blocks = blocks_from_records(res.warps, unsigned(r.block_size / 32),
                                 user ? user_phase_names(user_variant_source(v.variant->id)->source)
                                      : std::map<unsigned, std::string>{});
  t.device = prop.name;
  t.recorded_utc = utc_now();
  t.twin_median_ms = res.twin_median_ms;
  t.real_median_ms = res.real_median_ms;
  t.cost_runs = res.cost_runs;
  t.sm_count = res.sm_count;
  t.resident_blocks_per_sm = res.resident_blocks_per_sm;
  return t;
}

MeasuredTimeline record_spin_barrier_timeline(int block_size, unsigned spin_warp,
                                              unsigned long long spin_cycles, int device) {
  const std::string context = "spin-barrier timeline on cuda:" + std::to_string(device);
  RL_CUDA_CHECK(cudaSetDevice(device), context);
  cudaDeviceProp prop{};
  RL_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), context);
  kernels::TimelineLaunchResult res;
  std::string where;
  if (const cudaError_t e =
          kernels::record_spin_barrier_timeline(block_size, spin_warp, spin_cycles, &res, &where);
      e != cudaSuccess)
    throw CudaError(where, e, context);
  MeasuredTimeline t;
  t.variant = "spin_barrier";
  t.label = "spin barrier";
  t.block_size = block_size;
  t.size = 0;
  t.grid = 1;
  t.selection = "blocks";
  t.blocks = blocks_from_records(res.warps, unsigned(block_size / 32), {});
  t.device = prop.name;
  t.recorded_utc = utc_now();
  return t;
}

}  // namespace rl
