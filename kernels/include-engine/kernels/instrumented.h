// Instrumented builds of the classic-ladder kernels: for chosen blocks they record, at every step,
// each warp's __ballot_sync of the step's condition (the lanes that act) and the workspace
// after the step, so the block model's traces can be checked against what a GPU really does.
// Plain C++ with the CUDA runtime only (like launch.h), for the engine and the GPU tests.
//
// How lane states are recorded: every recording point is reached by whole warps (the ladder
// kernels have no early return and branch per warp only around the last warp), so a warp that
// reaches a step records acting = __ballot_sync(0xffffffff, condition) and present = all 32
// lanes. A warp that never reaches the step's code (warps 1.. skip the last warp's
// `if (tid < 32)` and run to the end of the kernel) writes nothing: its present mask stays 0,
// i.e. "exited". The buffers start zeroed.
//
// The instrumented kernels mirror kernels/common.cuh, seed_ladder.cu and seed_warp.cu step for
// step with the same pairs and conditions; the unroll factor and workspace are runtime
// arguments here (same additions in the same order), and recording adds warp-synchronous
// ballots and, in recorded blocks, an extra __syncthreads() after each snapshot of the
// workspace (so a snapshot never races with the next step). The volatile last warp keeps its
// volatile accesses; the ballots between its statements make its lock-step explicit.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/launch.h"

namespace rl::kernels {

inline constexpr unsigned kMaxRecordedSteps = 24;  // load + 10 tree + 6 last warp + partial < 24
inline constexpr unsigned kMaxRecordedBlocks = 8;

struct MaskRecordingRequest {
  KernelId kernel = KernelId::Interleaved;  // a classic-ladder kernel (0..9), or for
                                            // record_warp_masks a warp-level one
  DType type = DType::Int32;
  Workspace workspace = Workspace::Global;
  int block_size = 256;
  int unroll = 1;
  std::size_t n = 0;                 // elements of the launch (tiles past n read 0)
  const void* host_input = nullptr;  // at least min(n, (max block + 1) * B * U) elements
  std::vector<unsigned> blocks;      // blocks to record (1..kMaxRecordedBlocks)
};

struct MaskRecording {
  unsigned steps = 0;  // recorded steps per block, in program order (same as the model's)
  unsigned warps = 0;
  unsigned block_size = 0;
  std::vector<unsigned> blocks;
  // [block][step][warp]: lanes that acted, lanes that reached the step's code.
  std::vector<std::uint32_t> acting, present;
  // [block][step][thread]: the workspace element ws[thread] after the step, as written back by
  // its thread (valid where written is 1; threads outside the step's warp write nothing).
  std::vector<double> values;
  std::vector<std::uint8_t> written;
  std::vector<double> partials;  // each recorded block's partial, as written to partials[]
  std::size_t index(unsigned b, unsigned step, unsigned w) const {
    return (std::size_t(b) * kMaxRecordedSteps + step) * warps + w;
  }
  std::size_t value_index(unsigned b, unsigned step, unsigned t) const {
    return (std::size_t(b) * kMaxRecordedSteps + step) * block_size + t;
  }
};

// Runs the instrumented kernel on the current device (grid = max(blocks) + 1) and copies the
// records back. On failure returns the CUDA error and sets *where to the call that failed;
// cudaErrorInvalidValue with *where explaining a bad request.
cudaError_t record_ladder_masks(const MaskRecordingRequest& req, MaskRecording* out,
                                std::string* where);

// The same for the warp-level kernels past the classic ladder (kernels/modern_warp.cu: WarpShuffle,
// ReduceAddSync, CgReduce; workspace Registers), instrumented_warp.cu. Their block works in
// registers, so `values` holds each thread's register after the step, in the steps of the
// model's trace (engine/trace_modern.cpp): load; the warp-level reduction in every warp (five
// shuffle steps, or one __reduce_add_sync); and for more than one warp: lane 0 stores the warp
// sums (then __syncthreads()), warp 0 gathers them and reduces them the same way; then thread 0
// writes the partial. Warps 1.. skip warp 0's steps and record nothing there ("exited").
// cg::reduce is one library call: its intermediate butterfly steps are recorded from the same
// butterfly written with tile.shfl_xor (what cg::reduce runs where it does not use REDUX), and
// the last step of each level records the register cg::reduce itself returned.
// ReduceAddSync takes int32 only and needs sm_80 or newer: cudaErrorInvalidDeviceFunction
// with *where saying so on an older device.
// The divergence lab's kernels (lab_divergence.cu, int32, registers, unroll = the data
// branch's k) are recorded the same way: load, their map steps (path A and path B, or one map
// step; engine/trace_labs.cpp), then warp_shuffle's block sum.
cudaError_t record_warp_masks(const MaskRecordingRequest& req, MaskRecording* out,
                              std::string* where);

}  // namespace rl::kernels
