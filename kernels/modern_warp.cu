// Three ways to reduce inside a warp, each replacing the classic ladder's shared-memory tree. All
// three share the classic ladder's phase 1 (a block owns a tile of B * U elements and each thread
// pre-reduces its U elements, kernels/common.cuh) and its finishing pass (finish.cu); only the
// block reduction differs:
//  WarpShuffle:   __shfl_down_sync tree inside each warp, warp sums through 32 shared slots,
//                 the first warp reduces those with shuffles again (modern_common.cuh).
//  ReduceAddSync: the same two levels, each warp reduction one __reduce_add_sync instruction
//                 (sm_80+ hardware warp reduce; integers only).
//  CgReduce:      cooperative groups: cg::reduce on thread_block_tile<32>, block.sync().
//
// int32 blocks add in int32: a block's values sum to at most 1024 * 16 * 255 < 2^31 for the
// input contract (values in [0, 255]), whatever N; the partial is widened to int64.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common.cuh"
#include "dispatch.cuh"
#include "modern_common.cuh"
#include "modern_launchers.cuh"

namespace rl::kernels::modern {
namespace {
namespace cg = cooperative_groups;
using detail::load_pre_reduced;

template <typename T, int U>
__global__ void __launch_bounds__(1024)
    warp_shuffle(const T* __restrict__ x, std::size_t n, typename Accum<T>::type* partials) {
  const T sum = block_sum_shfl(load_pre_reduced<U>(x, n), blockDim.x / kWarp);
  if (threadIdx.x == 0) partials[blockIdx.x] = static_cast<typename Accum<T>::type>(sum);
}

// One instruction (REDUX.SUM) for a whole warp's sum, every lane gets it. The pre-sm_80 branch
// only keeps the build valid for older targets: plan_warp_family refuses to launch there.
__device__ __forceinline__ int warp_sum_redux(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kFullMask, v);
#else
  return warp_sum_shfl(v);
#endif
}

template <int U>
__global__ void __launch_bounds__(1024)
    reduce_add_sync(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  __shared__ int warp_sums[kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  const unsigned nwarps = blockDim.x / kWarp;
  int v = warp_sum_redux(load_pre_reduced<U>(x, n));
  if (nwarps > 1) {
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum_redux(lane < nwarps ? warp_sums[lane] : 0);
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

// cg::reduce picks the implementation: REDUX for int32 on sm_80+, otherwise an xor butterfly
// with masks 16, 8, 4, 2, 1, whose lane 0 adds the same pairs in the same order as the
// shuffle-down tree (engine/block_model_modern.cpp relies on that for float32).
template <typename T, int U>
__global__ void __launch_bounds__(1024)
    cg_reduce(const T* __restrict__ x, std::size_t n, typename Accum<T>::type* partials) {
  __shared__ T tile_sums[kWarp];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<kWarp> tile = cg::tiled_partition<kWarp>(block);
  T v = cg::reduce(tile, load_pre_reduced<U>(x, n), cg::plus<T>());
  if (tile.meta_group_size() > 1) {
    if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
      const T mine =
          tile.thread_rank() < tile.meta_group_size() ? tile_sums[tile.thread_rank()] : T(0);
      v = cg::reduce(tile, mine, cg::plus<T>());
    }
  }
  if (block.thread_rank() == 0) partials[blockIdx.x] = static_cast<typename Accum<T>::type>(v);
}

bool device_has_redux(cudaError_t* err) {
  int device = 0, major = 0;
  *err = cudaGetDevice(&device);
  if (*err == cudaSuccess)
    *err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  return *err == cudaSuccess && major >= 8;
}

}  // namespace

static_assert(detail::dispatch_covers(KernelId::WarpShuffle) &&
                  detail::dispatch_covers(KernelId::ReduceAddSync) &&
                  detail::dispatch_covers(KernelId::CgReduce),
              "the warp-level kernels are instantiated for every shape kernels/accepts.h lists");

bool is_warp_family(KernelId k) {
  return k == KernelId::WarpShuffle || k == KernelId::ReduceAddSync || k == KernelId::CgReduce;
}

cudaError_t plan_warp_family(const LaunchArgs& a, LaunchPlan* plan) {
  // Shapes and types (REDUX has no float form): the table in kernels/accepts.h.
  if (!is_warp_family(a.kernel) ||
      !accepts_launch(a.kernel, a.block_size, a.unroll, a.type, a.workspace)) {
    return cudaErrorInvalidValue;
  }
  if (a.kernel == KernelId::ReduceAddSync) {
    cudaError_t err = cudaSuccess;
    if (!device_has_redux(&err)) return err != cudaSuccess ? err : cudaErrorInvalidDeviceFunction;
  }
  const std::size_t tile = static_cast<std::size_t>(a.block_size) * a.unroll;
  const std::size_t grid = (a.n + tile - 1) / tile;
  if (grid > 0x7fffffffu) return cudaErrorInvalidValue;
  *plan = LaunchPlan{};
  plan->grid = static_cast<unsigned>(grid);
  plan->partial_count = grid;
  plan->input_capacity = a.n;  // phase 1 reads past-the-end elements as 0 without loading them
  return cudaSuccess;
}

cudaError_t launch_warp_family(const LaunchArgs& a, const LaunchPlan& p) {
  if (p.grid == 0) return cudaErrorInvalidValue;
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    const T* in = static_cast<const T*>(a.input);
    A* out = static_cast<A*>(a.partials);
    return detail::with_unroll(a.unroll, [&](auto u) -> cudaError_t {
      constexpr int U = decltype(u)::value;
      switch (a.kernel) {
        case KernelId::WarpShuffle:
          warp_shuffle<T, U><<<p.grid, a.block_size, 0, a.stream>>>(in, a.n, out);
          return cudaGetLastError();
        case KernelId::CgReduce:
          cg_reduce<T, U><<<p.grid, a.block_size, 0, a.stream>>>(in, a.n, out);
          return cudaGetLastError();
        case KernelId::ReduceAddSync:
          if constexpr (std::is_same_v<T, int32_t>) {
            reduce_add_sync<U><<<p.grid, a.block_size, 0, a.stream>>>(in, a.n, out);
            return cudaGetLastError();
          } else {
            return cudaErrorInvalidValue;
          }
        default:
          return cudaErrorInvalidValue;
      }
    });
  });
}

}  // namespace rl::kernels::modern
