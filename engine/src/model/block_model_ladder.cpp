// The classic ladder's per-block algorithms as data (see block_model_ladder.h) and the two
// primitive operations the host model and the trace run them with.
#include "engine/model/block_model_ladder.h"

#include <algorithm>
#include <cstring>

#include "engine/core/error.h"

namespace rl::ladder {

namespace {

bool has_last_warp(KernelId k) {
  const int v = static_cast<int>(k);
  return v >= static_cast<int>(KernelId::UnrollWarpVolatile) &&
         v <= static_cast<int>(KernelId::CompleteUnrollSync);
}

std::string join(const std::vector<int>& xs) {
  std::string s;
  for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + std::to_string(xs[i]);
  return s;
}

Step tree_step(unsigned stride, unsigned pairs, unsigned dst_step, unsigned tid_step) {
  Step s;
  s.kind = StepKind::Tree;
  s.stride = stride;
  s.pairs = pairs;
  s.dst_step = dst_step;
  s.tid_step = tid_step;
  s.syncthreads_after = true;
  return s;
}

// The last warp: threads 0..31 add offsets 32, 16, ..., 1 with no block barrier. The volatile
// form reads both operands from memory every step; the __syncwarp() form keeps its own value
// in a register (one read per step after the first) and fences each read and write.
void append_last_warp(std::vector<Step>& steps, bool volatile_form) {
  for (unsigned offset = 32; offset > 0; offset >>= 1) {
    Step s;
    s.kind = StepKind::LastWarp;
    s.stride = offset;
    s.pairs = 32;
    s.syncwarps = volatile_form ? 0 : 2;
    s.loads_per_pair = (volatile_form || offset == 32) ? 2 : 1;
    steps.push_back(s);
  }
}

// The complete-unroll kernels' fixed steps: +512, +256, +128, +64 guarded by blockDim.x.
// The blockDim.x if-chain keeps every barrier (a false step still hits its __syncthreads());
// the template form deletes false steps together with their barriers.
void append_if_chain(std::vector<Step>& steps, unsigned block, bool keep_false_steps) {
  for (unsigned stride = 512; stride >= 64; stride >>= 1) {
    if (block >= 2 * stride) {
      steps.push_back(tree_step(stride, stride, 1, 1));
    } else if (keep_false_steps) {
      Step s = tree_step(stride, 0, 1, 1);
      s.kind = StepKind::SkippedTree;
      steps.push_back(s);
    }
  }
}

}  // namespace

bool is_ladder_kernel(KernelId k) {
  return static_cast<int>(k) >= static_cast<int>(KernelId::Neighbored) &&
         static_cast<int>(k) <= static_cast<int>(KernelId::CompleteUnrollSync);
}

// Barrier counting rule (the classic ladder's arithmetic: 16384 blocks x 10 = 163840 for
// reduceInterleaved at N = 2^24, B = 1024; 8192 x 11 = 90112 for reduceUnroll2): per block, one
// per __syncthreads() the block executes that follows a write to the workspace, i.e. one after
// the load / pre-reduce phase when it writes the workspace (shared memory, or global with U > 1)
// and one after every tree step, including if-chain steps whose blockDim.x test is false.
// The last warp's __syncwarp() calls are not block barriers and are counted separately.
unsigned BlockPlan::barriers_per_block() const {
  return static_cast<unsigned>(
      std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.syncthreads_after; }));
}

BlockPlan make_plan(const VariantInfo& v, Workspace w, int block_size, int unroll) {
  const std::string name = v.seed_label(unroll);
  if (!is_ladder_kernel(v.kernel))
    throw Error("variant " + v.id + " is not part of the classic ladder; it has no ladder plan");
  if (!is_block_size(block_size))
    throw Error("block size " + std::to_string(block_size) +
                ": must be a power of two from 32 to 1024");
  if (!v.takes_block_size(block_size))
    throw Error("block size " + std::to_string(block_size) + ": " + name + " takes " +
                join(v.block_sizes) +
                (has_last_warp(v.kernel) ? " (the last warp reads ws[tid + 32])" : ""));
  if (!v.takes_unroll(unroll))
    throw Error("unroll " + std::to_string(unroll) + ": " + v.seed_label(v.default_unroll) +
                " takes " + join(v.unroll_factors));
  if (!v.takes_workspace(w))
    throw Error("workspace " + std::string(to_string(w)) + ": " + name + " takes global or shared");

  BlockPlan plan;
  plan.variant = &v;
  plan.kernel = v.kernel;
  plan.workspace = w;
  plan.block_size = static_cast<unsigned>(block_size);
  plan.unroll = static_cast<unsigned>(unroll);
  plan.volatile_last_warp = v.volatile_last_warp;
  const unsigned B = plan.block_size;

  // Global with U == 1 reduces the input tile where it lies: no load phase, no barrier (the
  // classic reduceNeighbored/Less/Interleaved start straight with the tree).
  if (w == Workspace::Shared || unroll > 1) {
    Step load;
    load.kind = StepKind::Load;
    load.pairs = B;
    load.syncthreads_after = true;
    load.loads_per_pair = static_cast<unsigned>(unroll);
    plan.steps.push_back(load);
  }

  switch (v.kernel) {
    case KernelId::Neighbored:
    case KernelId::NeighboredLess: {
      const bool less = v.kernel == KernelId::NeighboredLess;
      for (unsigned s = 1; s < B; s *= 2)
        plan.steps.push_back(tree_step(s, B / (2 * s), 2 * s, less ? 1 : 2 * s));
      break;
    }
    case KernelId::Interleaved:
    case KernelId::Unroll:
      for (unsigned s = B / 2; s > 0; s >>= 1) plan.steps.push_back(tree_step(s, s, 1, 1));
      break;
    case KernelId::UnrollWarpVolatile:
    case KernelId::UnrollWarpSync:
      for (unsigned s = B / 2; s > 32; s >>= 1) plan.steps.push_back(tree_step(s, s, 1, 1));
      append_last_warp(plan.steps, v.volatile_last_warp);
      break;
    case KernelId::CompleteUnrollWarpVolatile:
    case KernelId::CompleteUnrollWarpSync:
      append_if_chain(plan.steps, B, /*keep_false_steps=*/true);
      append_last_warp(plan.steps, v.volatile_last_warp);
      break;
    case KernelId::CompleteUnrollVolatile:
    case KernelId::CompleteUnrollSync:
      append_if_chain(plan.steps, B, /*keep_false_steps=*/false);
      append_last_warp(plan.steps, v.volatile_last_warp);
      break;
    default:
      break;
  }
  return plan;
}

std::uint64_t grid_for(const BlockPlan& plan, std::uint64_t n) {
  return (n + plan.tile() - 1) / plan.tile();
}

namespace {

inline std::int32_t add(std::int32_t a, std::int32_t b) {
  // Two's-complement wrap, as the GPU's 32-bit integer add (signed overflow is UB in C++).
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline float add(float a, float b) {
  return a + b;
}

template <typename T>
void load_block_impl(const T* x, std::uint64_t n, std::uint64_t b, const BlockPlan& plan, T* ws) {
  const unsigned B = plan.block_size;
  const std::uint64_t base = b * plan.tile();
  if (base + plan.tile() <= n) {
    // Full tile: the kernel's unguarded path. Per element the same left-to-right adds.
    const T* tile = x + base;
    std::memcpy(ws, tile, sizeof(T) * B);
    for (unsigned k = 1; k < plan.unroll; ++k) {
      const T* part = tile + std::uint64_t(k) * B;
      for (unsigned t = 0; t < B; ++t) ws[t] = add(ws[t], part[t]);
    }
    return;
  }
  // The tail block: elements at or past n read as 0 and are still added (sum += 0).
  for (unsigned t = 0; t < B; ++t) ws[t] = base + t < n ? x[base + t] : T(0);
  for (unsigned k = 1; k < plan.unroll; ++k) {
    const std::uint64_t off = base + std::uint64_t(k) * B;
    for (unsigned t = 0; t < B; ++t) ws[t] = add(ws[t], off + t < n ? x[off + t] : T(0));
  }
}

template <typename T>
void apply_step_impl(const Step& s, T* ws) {
  if (s.kind == StepKind::Load) return;  // load_block() fills the workspace
  if (s.dst_step == 1) {
    for (unsigned k = 0; k < s.pairs; ++k) ws[k] = add(ws[k], ws[k + s.stride]);
  } else {
    for (unsigned k = 0; k < s.pairs; ++k) {
      const unsigned d = k * s.dst_step;
      ws[d] = add(ws[d], ws[d + s.stride]);
    }
  }
}

}  // namespace

void load_block(const std::int32_t* x, std::uint64_t n, std::uint64_t b, const BlockPlan& plan,
                std::int32_t* ws) {
  load_block_impl(x, n, b, plan, ws);
}
void load_block(const float* x, std::uint64_t n, std::uint64_t b, const BlockPlan& plan,
                float* ws) {
  load_block_impl(x, n, b, plan, ws);
}
void apply_step(const Step& s, std::int32_t* ws) {
  apply_step_impl(s, ws);
}
void apply_step(const Step& s, float* ws) {
  apply_step_impl(s, ws);
}

}  // namespace rl::ladder
