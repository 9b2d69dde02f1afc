// The divergence lab (the classic divergence post): the same per-element work behind branches of
// different kinds. Every kernel has the same three phases:
//   map:       thread tid maps element blockIdx.x * blockDim.x + tid (tail threads add 0);
//   block sum: warp shuffles, warp sums through shared memory (modern_common.cuh);
//   partial:   thread 0 writes the block's sum; the common finishing block adds the partials.
// Only the map differs, written out below as each variant names it. What each path computes is
// in kernels/lab.h, shared with the host model.
// BranchPartitioned runs CUB's DevicePartition::If first (its own step, timed as the first
// kernel) so that the values taking path B sit together, then the same map on the copy.
#include <cub/device/device_partition.cuh>

#include "dispatch.cuh"
#include "kernels/lab.h"
#include "lab_launchers.cuh"
#include "modern_common.cuh"

namespace rl::kernels::labs {
namespace {
using modern::block_sum_shfl;
using modern::kWarp;

template <KernelId K>
__device__ __forceinline__ int mapped(int x, unsigned tid, int knob, int mode) {
  if constexpr (K == KernelId::BranchDivergent) {
    if (tid & 1u) return lab::costly_b(x);  // odd lanes: path B; every warp runs both
    return lab::costly_a(x);
  } else if constexpr (K == KernelId::BranchUniform) {
    if ((tid >> 5) & 1u) return lab::costly_b(x);  // odd warps: path B; no warp runs both
    return lab::costly_a(x);
  } else if constexpr (K == KernelId::BranchData || K == KernelId::BranchPartitioned) {
    if (lab::takes_path_b(x, knob)) return lab::costly_b(x);
    return lab::costly_a(x);
  } else if constexpr (K == KernelId::IfElseCheap) {
    int v;
    if (x & 1)
      v = lab::cheap_b(x);
    else
      v = lab::cheap_a(x);
    return v;
  } else if constexpr (K == KernelId::SelectCheap) {
    return (x & 1) ? lab::cheap_b(x) : lab::cheap_a(x);
  } else if constexpr (K == KernelId::IfElseCostly) {
    if (x & 1) return lab::costly_b(x);
    return lab::costly_a(x);
  } else if constexpr (K == KernelId::SelectCostly) {
    // Both paths run for every element; the select keeps one (the classic divergence post's
    // caveat).
    const int a = lab::costly_a(x);
    const int b = lab::costly_b(x);
    return (x & 1) ? b : a;
  } else if constexpr (K == KernelId::LoopInvariantInside) {
    unsigned u = static_cast<unsigned>(x);
    for (int s = 0; s < lab::kPathSteps; ++s) {
      if (mode != 0)  // the same answer in every iteration
        u = lab::step_a(u);
      else
        u = lab::step_b(u);
    }
    return static_cast<int>(u >> 24);
  } else if constexpr (K == KernelId::LoopInvariantHoisted) {
    if (mode != 0) return lab::costly_a(x);
    return lab::costly_b(x);
  } else if constexpr (K == KernelId::AbsBranch) {
    int y = x - 128;
    if (y < 0) y = -y;
    return y;
  } else {
    static_assert(K == KernelId::AbsBitTrick);
    const int y = x - 128;
    const int sign = y >> 31;  // 0 or -1
    return (y ^ sign) - sign;
  }
}

template <KernelId K>
__global__ void __launch_bounds__(1024) branch_lab(const int32_t* __restrict__ x, std::size_t n,
                                                   long long* partials, int knob, int mode) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int v = 0;
  if (i < n) v = mapped<K>(x[i], threadIdx.x, knob, mode);
  v = block_sum_shfl(v, blockDim.x / kWarp);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

struct TakesPathB {
  int k;
  __device__ bool operator()(int x) const { return lab::takes_path_b(x, k); }
};

template <typename F>
cudaError_t with_branch_kernel(KernelId k, F&& f) {
  switch (k) {
#define RL_LAB_CASE(K) \
  case KernelId::K:    \
    return f(std::integral_constant<KernelId, KernelId::K>{});
    RL_LAB_CASE(BranchDivergent)
    RL_LAB_CASE(BranchUniform)
    RL_LAB_CASE(BranchData)
    RL_LAB_CASE(BranchPartitioned)
    RL_LAB_CASE(IfElseCheap)
    RL_LAB_CASE(SelectCheap)
    RL_LAB_CASE(IfElseCostly)
    RL_LAB_CASE(SelectCostly)
    RL_LAB_CASE(LoopInvariantInside)
    RL_LAB_CASE(LoopInvariantHoisted)
    RL_LAB_CASE(AbsBranch)
    RL_LAB_CASE(AbsBitTrick)
#undef RL_LAB_CASE
    default:
      return cudaErrorInvalidValue;
  }
}

// Scratch of BranchPartitioned: [CUB temp storage | count of selected | the partitioned copy].
constexpr std::size_t kAlign = 256;
std::size_t aligned(std::size_t b) {
  return (b + kAlign - 1) / kAlign * kAlign;
}
cudaError_t partition_temp_bytes(const LaunchArgs& a, std::size_t* bytes) {
  *bytes = 0;
  return cub::DevicePartition::If(nullptr, *bytes, static_cast<const int32_t*>(nullptr),
                                  static_cast<int32_t*>(nullptr), static_cast<int*>(nullptr),
                                  static_cast<int64_t>(a.n), TakesPathB{a.unroll}, a.stream);
}
int32_t* partitioned_copy(const LaunchArgs& a, std::size_t temp) {
  return reinterpret_cast<int32_t*>(static_cast<char*>(a.scratch) + aligned(temp) + kAlign);
}

cudaError_t launch_map(const LaunchArgs& a, const LaunchPlan& p, const int32_t* input) {
  return with_branch_kernel(a.kernel, [&](auto k) {
    branch_lab<decltype(k)::value><<<p.grid, a.block_size, 0, a.stream>>>(
        input, a.n, static_cast<long long*>(a.partials), a.unroll, lab::kLoopMode);
    return cudaGetLastError();
  });
}

}  // namespace

bool is_branch_lab(KernelId k) {
  const int v = static_cast<int>(k);
  return v >= static_cast<int>(KernelId::BranchDivergent) &&
         v <= static_cast<int>(KernelId::AbsBitTrick);
}

cudaError_t plan_branch_lab(const LaunchArgs& a, LaunchPlan* plan) {
  const std::size_t grid = (a.n + a.block_size - 1) / a.block_size;
  if (grid > 0x7fffffffu) return cudaErrorInvalidValue;
  *plan = LaunchPlan{};
  plan->grid = static_cast<unsigned>(grid);
  plan->partial_count = grid;
  plan->input_capacity = a.n;
  if (a.kernel == KernelId::BranchPartitioned) {
    std::size_t temp = 0;
    if (const cudaError_t e = partition_temp_bytes(a, &temp); e != cudaSuccess) return e;
    plan->scratch_bytes = aligned(temp) + kAlign + a.n * sizeof(int32_t);
  }
  return cudaSuccess;
}

cudaError_t launch_branch_lab_first(const LaunchArgs& a, const LaunchPlan& p) {
  if (a.kernel != KernelId::BranchPartitioned)
    return launch_map(a, p, static_cast<const int32_t*>(a.input));
  std::size_t temp = 0;
  if (const cudaError_t e = partition_temp_bytes(a, &temp); e != cudaSuccess) return e;
  auto* selected = reinterpret_cast<int*>(static_cast<char*>(a.scratch) + aligned(temp));
  return cub::DevicePartition::If(a.scratch, temp, static_cast<const int32_t*>(a.input),
                                  partitioned_copy(a, temp), selected, static_cast<int64_t>(a.n),
                                  TakesPathB{a.unroll}, a.stream);
}

cudaError_t launch_branch_lab_second(const LaunchArgs& a, const LaunchPlan& p) {
  if (a.kernel != KernelId::BranchPartitioned) return cudaSuccess;
  std::size_t temp = 0;
  if (const cudaError_t e = partition_temp_bytes(a, &temp); e != cudaSuccess) return e;
  return launch_map(a, p, partitioned_copy(a, temp));
}

}  // namespace rl::kernels::labs
