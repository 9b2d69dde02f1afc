// What the lab kernels compute per element, in one place for the GPU (kernels/lab_*.cu) and the
// host model (engine/src/model/block_model_labs.cpp), so the two agree bit for bit. CUDA-free
// when compiled by the host compiler; C++17 (the device code includes it).
//
// The divergence lab's two paths are chains of kPathSteps dependent integer steps of different
// shapes (so the compiler cannot merge them into one chain with selected constants, and cannot
// fold them: each step is not affine). Each costs about three instructions per step, so a warp
// that runs both takes about twice as long as one that runs either: the classic divergence post's
// claim.
#pragma once

#include "kernels/ids.h"

#if defined(__CUDACC__)
#define RL_LAB_FN __host__ __device__ __forceinline__
#else
#define RL_LAB_FN inline
#endif

namespace rl::kernels::lab {

inline constexpr int kPathSteps = 64;
// Block-wide predicates: the count lab counts x >= kCountThreshold (56 of the 256 values); the
// search lab looks for x == kSearchValue (1 in 256).
inline constexpr int kCountThreshold = 200;
inline constexpr int kSearchValue = 255;
// The unroll lab's loop: each thread adds kUnrollTrip elements, blockDim.x apart.
inline constexpr int kUnrollTrip = 32;
// The loop-invariant lab's mode, passed as a kernel argument so the compiler cannot see it.
inline constexpr int kLoopMode = 1;

RL_LAB_FN unsigned step_a(unsigned x) {
  return (x ^ (x >> 15)) * 0x2c1b3c6du;
}
RL_LAB_FN unsigned step_b(unsigned x) {
  return (x * 0x297a2d39u) ^ (x >> 13);
}
// The top byte of the chain's end: small enough for int32 block sums (1024 x 255).
RL_LAB_FN int costly_a(int x) {
  unsigned u = static_cast<unsigned>(x);
  for (int s = 0; s < kPathSteps; ++s) u = step_a(u);
  return static_cast<int>(u >> 24);
}
RL_LAB_FN int costly_b(int x) {
  unsigned u = static_cast<unsigned>(x);
  for (int s = 0; s < kPathSteps; ++s) u = step_b(u);
  return static_cast<int>(u >> 24);
}
RL_LAB_FN int cheap_a(int x) {
  return x * 3 + 7;
}
RL_LAB_FN int cheap_b(int x) {
  return (x >> 1) ^ 0x55;
}
// The data-dependent branch: the k largest of the 256 input values take path B. Over the
// uniform input (values 0..255), k = 1 leaves about 12% of warps mixed, k = 4 about 40%.
RL_LAB_FN bool takes_path_b(int x, int k) {
  return x >= 256 - k;
}
RL_LAB_FN int abs_centered(int x) {
  const int y = x - 128;
  return y < 0 ? -y : y;
}
RL_LAB_FN bool counted(int x) {
  return x >= kCountThreshold;
}
RL_LAB_FN bool searched(int x) {
  return x == kSearchValue;
}

// Which path thread `tid` takes on element x in the divergence lab's two-path kernels: true for
// path B. `knob` is the data branch's k. Kernels without two paths answer false.
RL_LAB_FN bool branch_takes_b(KernelId k, int x, unsigned tid, int knob) {
  switch (k) {
    case KernelId::BranchDivergent:
      return (tid & 1u) != 0;
    case KernelId::BranchUniform:
      return ((tid >> 5) & 1u) != 0;
    case KernelId::BranchData:
    case KernelId::BranchPartitioned:
      return takes_path_b(x, knob);
    case KernelId::IfElseCheap:
    case KernelId::SelectCheap:
    case KernelId::IfElseCostly:
    case KernelId::SelectCostly:
      return (x & 1) != 0;
    default:
      return false;
  }
}

// The value thread `tid` adds for element x in a divergence-lab kernel (the host model's form;
// the kernels write each branch out as its variant names it).
RL_LAB_FN int branch_value(KernelId k, int x, unsigned tid, int knob) {
  const bool b = branch_takes_b(k, x, tid, knob);
  switch (k) {
    case KernelId::IfElseCheap:
    case KernelId::SelectCheap:
      return b ? cheap_b(x) : cheap_a(x);
    case KernelId::LoopInvariantInside:
    case KernelId::LoopInvariantHoisted:
      return kLoopMode != 0 ? costly_a(x) : costly_b(x);
    case KernelId::AbsBranch:
    case KernelId::AbsBitTrick:
      return abs_centered(x);
    default:
      return b ? costly_b(x) : costly_a(x);
  }
}

}  // namespace rl::kernels::lab
