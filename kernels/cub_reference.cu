// CUB references: what the library that ships with the toolkit does, run through the same
// harness as our kernels.
//  CubDeviceReduce: cub::DeviceReduce::Sum, the whole reduction (CUB's own grid, tuning and
//    passes; temp storage in the plan's scratch). Only the total can be timed.
//    int32 input is summed into a long long output, so CUB accumulates in 64 bits.
//  CubBlockReduceRaking / CubBlockReduceWarpReductions: our first kernel with CUB's block-wide
//    primitive in place of the tree. A block owns a tile of B * U elements; each thread loads U
//    of them striped (element tid + k * B, coalesced), cub::BlockReduce sums them, thread 0
//    writes the partial; the common finishing pass (finish.cu) adds the partials.
//    int32 blocks add in int32: at most 1024 * 16 * 255 < 2^31 for values in [0, 255].
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>

#include <climits>

#include "dispatch.cuh"
#include "kernels/accepts.h"
#include "modern_launchers.cuh"

namespace rl::kernels::modern {
namespace {

template <typename T, int B, int U, cub::BlockReduceAlgorithm Algo>
__global__ void __launch_bounds__(B)
    cub_block_reduce(const T* __restrict__ x, std::size_t n, typename Accum<T>::type* partials) {
  using BlockReduce = cub::BlockReduce<T, B, Algo>;
  __shared__ typename BlockReduce::TempStorage temp;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * B * U;
  T items[U];
  if (base + static_cast<std::size_t>(B) * U <= n) {
    cub::LoadDirectStriped<B>(static_cast<int>(threadIdx.x), x + base, items);
  } else {
    cub::LoadDirectStriped<B>(static_cast<int>(threadIdx.x), x + base, items,
                              static_cast<int>(n - base), T(0));
  }
  const T sum = BlockReduce(temp).Sum(items);
  if (threadIdx.x == 0) partials[blockIdx.x] = static_cast<typename Accum<T>::type>(sum);
}

// Block sizes the CUB block kernels are built for (B is a template parameter of BlockReduce):
// their rows of kernels/accepts.h, which the two algorithms share.
inline constexpr Pow2Range kCubBlocks = accepts(KernelId::CubBlockReduceRaking).block_sizes;
static_assert(kCubBlocks.covers(accepts(KernelId::CubBlockReduceWarpReductions).block_sizes) &&
                  accepts(KernelId::CubBlockReduceWarpReductions).block_sizes.covers(kCubBlocks),
              "the CUB block kernels share one dispatch: their rows must agree");
static_assert(
    detail::kUnrollBuilt.covers(accepts(KernelId::CubBlockReduceRaking).unroll_factors) &&
        detail::kUnrollBuilt.covers(accepts(KernelId::CubBlockReduceWarpReductions).unroll_factors),
    "with_unroll must instantiate every unroll factor the table lists");

template <typename F>
cudaError_t with_cub_block(int b, F&& f) {
  return detail::with_pow2<kCubBlocks.min, kCubBlocks.max>(b, std::forward<F>(f));
}

template <cub::BlockReduceAlgorithm Algo>
cudaError_t launch_block_reduce(const LaunchArgs& a, const LaunchPlan& p) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    return with_cub_block(a.block_size, [&](auto b) {
      return detail::with_unroll(a.unroll, [&](auto u) {
        cub_block_reduce<T, decltype(b)::value, decltype(u)::value, Algo>
            <<<p.grid, decltype(b)::value, 0, a.stream>>>(static_cast<const T*>(a.input), a.n,
                                                          static_cast<A*>(a.partials));
        return cudaGetLastError();
      });
    });
  });
}

// cub::DeviceReduce::Sum with the offset type a CUB user would pick: int while N fits (CUB's
// 32-bit offset path), 64-bit beyond. Called with temp == nullptr it only sizes the storage.
cudaError_t device_sum(const LaunchArgs& a, void* temp, std::size_t* temp_bytes) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    const T* in = static_cast<const T*>(a.input);
    A* out = static_cast<A*>(a.result);
    if (a.n <= static_cast<std::size_t>(INT_MAX)) {
      return cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, static_cast<int>(a.n), a.stream);
    }
    return cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, static_cast<std::int64_t>(a.n),
                                  a.stream);
  });
}

}  // namespace

bool is_cub(KernelId k) {
  return k == KernelId::CubDeviceReduce || k == KernelId::CubBlockReduceRaking ||
         k == KernelId::CubBlockReduceWarpReductions;
}

cudaError_t plan_cub(const LaunchArgs& a, LaunchPlan* plan) {
  if (!is_cub(a.kernel) || a.workspace != Workspace::Registers) return cudaErrorInvalidValue;
  if (a.kernel == KernelId::CubDeviceReduce) {
    // CUB picks its own block size and tuning: the launch takes block size 0 and unroll 1.
    if (a.block_size != 0 || a.unroll != 1) return cudaErrorInvalidValue;
    std::size_t temp_bytes = 0;
    const cudaError_t err = device_sum(a, nullptr, &temp_bytes);
    if (err != cudaSuccess) return err;
    *plan = LaunchPlan{};
    plan->grid = 0;  // CUB's own; not reported by the library
    plan->partial_count = 0;
    plan->input_capacity = a.n;
    plan->scratch_bytes = temp_bytes;
    plan->has_first_kernel = false;
    plan->needs_finish = false;
    return cudaSuccess;
  }
  if (!accepts_launch(a.kernel, a.block_size, a.unroll, a.type, a.workspace))
    return cudaErrorInvalidValue;
  const std::size_t tile = static_cast<std::size_t>(a.block_size) * a.unroll;
  const std::size_t grid = (a.n + tile - 1) / tile;
  if (grid > 0x7fffffffu) return cudaErrorInvalidValue;
  *plan = LaunchPlan{};
  plan->grid = static_cast<unsigned>(grid);
  plan->partial_count = grid;
  plan->input_capacity = a.n;  // the last tile's load is guarded
  return cudaSuccess;
}

cudaError_t launch_cub(const LaunchArgs& a, const LaunchPlan& p) {
  switch (a.kernel) {
    case KernelId::CubDeviceReduce: {
      if (a.scratch == nullptr && p.scratch_bytes > 0) return cudaErrorInvalidValue;
      std::size_t temp_bytes = p.scratch_bytes;
      return device_sum(a, a.scratch, &temp_bytes);
    }
    case KernelId::CubBlockReduceRaking:
      if (p.grid == 0) return cudaErrorInvalidValue;
      return launch_block_reduce<cub::BLOCK_REDUCE_RAKING>(a, p);
    case KernelId::CubBlockReduceWarpReductions:
      if (p.grid == 0) return cudaErrorInvalidValue;
      return launch_block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(a, p);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace rl::kernels::modern
