// Measured warp timelines, host side of the kernels library: runs the instrumented twin of a
// kernel (a classic-ladder rung or one past the ladder that has a twin) over a whole launch and
// copies back the marks of the chosen blocks (kernels/include/kernels/timeline_marks.cuh says how
// they are stamped), and times the twin against the real kernel for the instrumentation's cost.
// Plain C++ with the CUDA runtime only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/launch.h"

namespace rl::kernels {

inline constexpr unsigned kTimelineMaxSlots = 16;

// The kernels with a timed twin: the classic ladder's rungs and, past it, the warp-level sums,
// the vectorized grid-stride kernel and the one-launch kernels (a user's kernel gets its twin
// from its own timeline-mode build).
constexpr bool has_timeline_twin(KernelId k) {
  return static_cast<int>(k) >= 0 &&
         (k <= KernelId::CompleteUnrollSync || k == KernelId::WarpShuffle ||
          k == KernelId::ReduceAddSync || k == KernelId::VectorizedGridStride ||
          k == KernelId::SinglePass || k == KernelId::ClusterSinglePass);
}

struct TimelineLaunchRequest {
  // The real kernel's launch as a run makes it (buffers and stream left empty: the recording
  // allocates its own): a classic-ladder kernel (0..9), one past the ladder with a twin
  // (timeline_modern.cu: warp shuffle, REDUX, vectorized, single pass, cluster single pass), or
  // KernelId::User with its user fields.
  LaunchArgs launch;
  const void* host_input = nullptr;  // launch.n elements
  std::vector<unsigned> blocks;      // record these blocks; empty: the first max_blocks on sm
  unsigned sm = 0;
  unsigned max_blocks = 4;
  int cost_runs = 0;  // launches of twin and real kernel each, alternating, for the cost
  // KernelId::User: its timeline-mode build, the entry to launch (a cudaKernel_t) and its
  // module's rl_timeline_sink.
  const void* user_twin = nullptr;
  void* user_twin_sink = nullptr;
};

// One warp's record as the GPU wrote it: the stage words are (code, clock low word,
// %globaltimer low word) per mark, min(count, 64) marks.
struct WarpMarksRecord {
  unsigned block = 0, sm = 0, warp = 0, count = 0;
  std::uint64_t start_clock = 0, start_ns = 0;
  std::vector<std::uint32_t> stage;
};

struct TimelineLaunchResult {
  unsigned grid = 0;
  std::vector<WarpMarksRecord> warps;  // recorded warps, by slot then warp
  float twin_median_ms = 0, real_median_ms = 0;
  int cost_runs = 0;
  int sm_count = 0;
  int resident_blocks_per_sm = 0;  // of the twin
};

// On the current device. On failure returns the CUDA error and sets *where to the call that
// failed; cudaErrorInvalidValue with *where explaining a bad request.
cudaError_t record_kernel_timeline(const TimelineLaunchRequest& req, TimelineLaunchResult* out,
                                   std::string* where);

// The check of the recording itself: one block of block_size threads where warp spin_warp
// spins spin_cycles clock cycles before the block's one __syncthreads(), so every other warp
// waits about that long there.
cudaError_t record_spin_barrier_timeline(int block_size, unsigned spin_warp,
                                         unsigned long long spin_cycles, TimelineLaunchResult* out,
                                         std::string* where);

}  // namespace rl::kernels
