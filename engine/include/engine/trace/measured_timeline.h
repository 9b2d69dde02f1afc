// Recording measured warp timelines on a GPU (session/timeline.h has what is recorded): the
// instrumented twin of a variant runs over the whole launch of N elements and the chosen blocks
// keep their marks. The source of `reductionlab-cli trace --measured` and of the app's timeline
// view.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/types.h"
#include "engine/session/timeline.h"

namespace rl {

struct TimelineRequest {
  std::string variant;  // id or classic name ("reduceUnroll8" sets unroll 8)
  int block_size = 1024;
  std::optional<int> unroll;  // default: the variant's default
  Workspace workspace = Workspace::Global;
  DType type = DType::Int32;
  std::uint64_t size = std::uint64_t(1) << 24;
  // Non-empty: record these blocks (1 to kTimelineMaxBlocks ids inside the grid). Empty: record
  // the first max_blocks blocks that run on SM `sm`.
  std::vector<unsigned> blocks;
  unsigned sm = 0;
  unsigned max_blocks = 4;
  // Launches of the twin and of the real kernel timed for the instrumentation's cost; 0: none.
  int cost_runs = 20;
};

// Whether record_measured_timeline covers a variant.
bool has_measured_timeline(const VariantInfo& v);

// Throws rl::Error with a clear message naming the field for a bad request (unknown variant,
// one without a measured timeline, bad block size or unroll, no blocks or too many, a block
// past the grid, max_blocks outside 1..kTimelineMaxBlocks, cost_runs outside 0..1000). Needs
// no GPU; record_measured_timeline() starts with it.
void check_timeline_request(const TimelineRequest& r);

// Records r on CUDA device `device` (the SM must exist there: checked). Throws rl::Error for a
// bad request, rl::CudaError when the GPU fails.
MeasuredTimeline record_measured_timeline(const TimelineRequest& r, int device);

// The recording's own check: one block of block_size threads where warp spin_warp spins
// spin_cycles SM clock cycles before the block's only __syncthreads(), so every other warp waits
// there about that long. Phases "load" (the spin) and "write" (after the barrier).
MeasuredTimeline record_spin_barrier_timeline(int block_size, unsigned spin_warp,
                                              unsigned long long spin_cycles, int device);

}  // namespace rl
