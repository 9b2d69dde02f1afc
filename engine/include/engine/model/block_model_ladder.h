// One description of every classic-ladder kernel's per-block algorithm, shared by the host
// reduction (block_model.cpp) and the step-by-step trace (trace.cpp), so the two can never
// disagree. A block is: load (pre-reduce U tiles) into a blockDim.x-element workspace, then a
// list of steps. Every addition step is a set of pairs known in closed form:
//   pair k (0 <= k < pairs) does ws[k * dst_step] += ws[k * dst_step + stride]
//   and is executed by thread k * tid_step.
// The kernels this mirrors: kernels/common.cuh, seed_ladder.cu, seed_warp.cu, finish.cu.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/types.h"

namespace rl::ladder {

enum class StepKind {
  Load,  // phase 1: ws[tid] = sum of U tile elements (shared workspace, or global with U > 1)
  Tree,  // a block-wide tree step guarded by a per-thread condition
  SkippedTree,  // an if-chain step whose blockDim.x test is false: nobody adds, the barrier runs
  LastWarp,     // a step of the last warp (tid < 32), no __syncthreads()
};

struct Step {
  StepKind kind = StepKind::Tree;
  unsigned stride = 0;    // src = dst + stride
  unsigned dst_step = 1;  // pair k writes ws[k * dst_step]
  unsigned pairs = 0;     // additions in this step = threads that act
  unsigned tid_step = 1;  // pair k is done by thread k * tid_step
  bool syncthreads_after = false;
  unsigned syncwarps = 0;       // __syncwarp() calls per acting lane (race-free last warp: 2)
  unsigned loads_per_pair = 2;  // workspace reads per addition (the __syncwarp form keeps its
                                // own value in a register after the first step: 1)
  unsigned dst(unsigned k) const { return k * dst_step; }
  unsigned thread(unsigned k) const { return k * tid_step; }
};

struct BlockPlan {
  const VariantInfo* variant = nullptr;
  KernelId kernel = KernelId::Interleaved;
  Workspace workspace = Workspace::Global;
  unsigned block_size = 0;
  unsigned unroll = 1;
  bool volatile_last_warp = false;
  std::vector<Step> steps;  // program order; Load first when the load phase writes the workspace
  std::uint64_t tile() const { return std::uint64_t(block_size) * unroll; }
  // __syncthreads() executed by one block (see block_model_ladder.cpp for the counting rule).
  unsigned barriers_per_block() const;
};

bool is_ladder_kernel(KernelId k);

// The plan of a ladder kernel for a launch configuration. Throws rl::Error naming the bad value
// (block size not a power of two in 32..1024, below 64 for the warp kernels, an unroll factor or
// workspace the variant does not take).
BlockPlan make_plan(const VariantInfo& v, Workspace w, int block_size, int unroll);

// Blocks of a launch: ceil(n / (B * U)), as plan_launch in kernels/launch.cu.
std::uint64_t grid_for(const BlockPlan& plan, std::uint64_t n);

// Phase 1 of block b: ws[t] = x[base + t] + x[base + t + B] + ... (U terms, left to right,
// elements at or past n read as 0), exactly as load_pre_reduced in kernels/common.cuh.
// With the global workspace and U == 1 the tile is used as is, which gives the same values.
void load_block(const std::int32_t* x, std::uint64_t n, std::uint64_t b, const BlockPlan& plan,
                std::int32_t* ws);
void load_block(const float* x, std::uint64_t n, std::uint64_t b, const BlockPlan& plan, float* ws);

// One addition step on the workspace, in the GPU's order of operands. Pairs run in ascending
// dst order; since src > dst in every pair this reads each source before the step overwrites
// it, which is what the lock-step volatile last warp and the __syncwarp() form both do.
// int32 wraps like the GPU's 32-bit adds.
void apply_step(const Step& s, std::int32_t* ws);
void apply_step(const Step& s, float* ws);

}  // namespace rl::ladder
