// Timed twins of the kernels past the classic ladder that reduce in registers: warp_shuffle and
// reduce_add_sync (modern_warp.cu), vectorized (modern_vectorized.cu), single_pass
// (modern_single_pass.cu) and cluster_single_pass (modern_cluster.cu). Each is the real kernel's
// body, the same loads, warp sums, barriers and finish, with the marks of
// kernels/include/kernels/timeline_marks.cuh at its phase boundaries: "load" (the tile or the
// grid-stride stream, argument U), "warp" (a warp's sum; argument 0 the first level, 1 the
// first warp's sum of the warp sums, 2 a cluster leader's sum of its blocks), "hand on" (the
// one-launch kernels' atomics), "cluster" (a cluster's barriers and its shared-memory exchange)
// and "write". The marks' stage is the block's dynamic shared memory.
#include <cooperative_groups.h>

#include <type_traits>
#include <utility>

#include "common.cuh"
#include "dispatch.cuh"
#include "kernels/timeline_marks.cuh"
#include "modern_finish.cuh"
#include "modern_stream.cuh"
#include "modern_tiles.cuh"
#include "timeline_launch.cuh"

namespace rl::kernels::timeline {
namespace {

using namespace rl::kernels::modern;
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned* stage() {
  extern __shared__ unsigned timeline_stage[];
  return timeline_stage;
}

__device__ __forceinline__ void mark(RlTimelineWarp& w, unsigned phase, unsigned arg) {
  rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, phase, arg));
}

// warp_shuffle's and reduce_add_sync's warp sum: shuffles, or one REDUX for int32 on sm_80+.
template <bool Redux, typename V>
__device__ __forceinline__ V warp_sum(V v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Redux && std::is_same_v<V, int>) return __reduce_add_sync(kFullMask, v);
#endif
  return warp_sum_shfl(v);
}

// block_sum_shfl (modern_common.cuh) or block_total (modern_tiles.cuh), marked: the warps' sums,
// the one barrier, the first warp's sum of the warp sums. Valid in thread 0.
template <typename V, typename WarpSum>
__device__ __forceinline__ V block_sum_marked(V v, unsigned nwarps, RlTimelineWarp& w,
                                              WarpSum&& warp_sum) {
  __shared__ V warp_sums[kWarp];
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  mark(w, RL_TL_PHASE_WARP, 0);
  v = warp_sum(v);
  if (nwarps == 1) return v;
  if (lane == 0) warp_sums[warp] = v;
  unsigned bar = 0;
  rl_tl_barrier(w, bar);
  if (warp == 0) {
    mark(w, RL_TL_PHASE_WARP, 1);
    v = warp_sum(lane < nwarps ? warp_sums[lane] : V(0));
  }
  return v;
}

template <typename T, int U, bool Redux>
__global__ void __launch_bounds__(1024)
    warp_twin(const T* __restrict__ x, std::size_t n, typename Accum<T>::type* partials,
              RlTimelineSink sink) {
  RlTimelineWarp w = rl_tl_begin(stage());
  mark(w, RL_TL_PHASE_LOAD, U);
  const T v = detail::load_pre_reduced<U>(x, n);
  const T sum = block_sum_marked(v, blockDim.x / kWarp, w, [](T s) { return warp_sum<Redux>(s); });
  mark(w, RL_TL_PHASE_WRITE, 0);
  if (threadIdx.x == 0) partials[blockIdx.x] = static_cast<typename Accum<T>::type>(sum);
  rl_tl_end(w, sink);
}

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    vectorized_twin(const T* __restrict__ x, std::size_t n,
                    typename Accum<T>::type* __restrict__ partials, RlTimelineSink sink) {
  using A = typename Accum<T>::type;
  RlTimelineWarp w = rl_tl_begin(stage());
  mark(w, RL_TL_PHASE_LOAD, U);
  const A mine = stream_thread_sum<T, B, U>(x, n);
  const A sum = block_sum_marked(mine, B / kWarp, w, [](A s) { return warp_sum_shfl(s); });
  mark(w, RL_TL_PHASE_WRITE, 0);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
  rl_tl_end(w, sink);
}

// The finish of the one-launch kernels: the slot's sum handed on (modern_finish.cuh).
template <typename T, typename A>
__device__ __forceinline__ void hand_on(A sum, A* result, char* scratch, unsigned slots,
                                        RlTimelineWarp& w) {
  mark(w, RL_TL_PHASE_HAND_ON, 0);
  if constexpr (std::is_same_v<T, int32_t>) {
    if (threadIdx.x % kWarp == 0)
      hand_on_counted(sum, result, reinterpret_cast<unsigned long long*>(scratch), slots);
  } else {
    hand_on_windows(sum, result, reinterpret_cast<unsigned long long*>(scratch + kWindowsOffset),
                    reinterpret_cast<unsigned*>(scratch), slots);
  }
}

// single_pass: per warp on grids of at most 512 warps, else per block (modern_single_pass.cu).
template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    single_pass_twin(const T* __restrict__ x, std::size_t n,
                     typename Accum<T>::type* __restrict__ result, char* __restrict__ scratch,
                     RlTimelineSink sink) {
  using A = typename Accum<T>::type;
  constexpr unsigned kWarps = B / kWarp;
  constexpr unsigned kMaxWarpSlots = 512;
  RlTimelineWarp w = rl_tl_begin(stage());
  prefetch_finish_lines(scratch, !std::is_same_v<T, int32_t>);
  mark(w, RL_TL_PHASE_LOAD, U);
  A sum = tile_thread_sum<T, B, U>(x, n);
  const unsigned warp_slots = gridDim.x * kWarps;
  if (warp_slots <= kMaxWarpSlots) {
    mark(w, RL_TL_PHASE_WARP, 0);
    sum = warp_total(sum);
    hand_on<T>(sum, result, scratch, warp_slots, w);
  } else {
    sum = block_sum_marked(sum, kWarps, w, [](A s) { return warp_total(s); });
    if (threadIdx.x < kWarp) hand_on<T>(sum, result, scratch, gridDim.x, w);
  }
  rl_tl_end(w, sink);
}

constexpr int kClusterBlocks = 8;  // modern_cluster.cu's cluster size

template <typename T, int B, int U>
__global__ void __launch_bounds__(B) cluster_twin(const T* __restrict__ x, std::size_t n,
                                                  typename Accum<T>::type* __restrict__ result,
                                                  char* __restrict__ scratch, RlTimelineSink sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using A = typename Accum<T>::type;
  __shared__ A block_sums[kClusterBlocks];
  RlTimelineWarp w = rl_tl_begin(stage());
  cg::cluster_group cluster = cg::this_cluster();
  prefetch_finish_lines(scratch, !std::is_same_v<T, int32_t>);
  auto started = cluster.barrier_arrive();
  mark(w, RL_TL_PHASE_LOAD, U);
  A sum = tile_thread_sum<T, B, U>(x, n);
  sum = block_sum_marked(sum, B / kWarp, w, [](A s) { return warp_total(s); });
  const unsigned rank = cluster.block_rank();
  mark(w, RL_TL_PHASE_CLUSTER, 0);
  cluster.barrier_wait(std::move(started));
  if (threadIdx.x == 0) *cluster.map_shared_rank(&block_sums[rank], 0) = sum;
  cluster.sync();
  if (rank == 0 && threadIdx.x < kWarp) {
    const unsigned lane = threadIdx.x;
    mark(w, RL_TL_PHASE_WARP, 2);
    sum = warp_total(lane < kClusterBlocks ? block_sums[lane] : A(0));
    const unsigned clusters = gridDim.x / kClusterBlocks;
    if (clusters == 1) {
      mark(w, RL_TL_PHASE_WRITE, 0);
      if (lane == 0) *result = sum;
    } else {
      hand_on<T>(sum, result, scratch, clusters, w);
    }
  }
  rl_tl_end(w, sink);
#endif
}

template <typename K, typename... Args>
cudaError_t go(const TwinLaunch& l, K kernel, Args... args) {
  if (l.occupancy != nullptr)
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(l.occupancy, kernel, l.args.block_size,
                                                         l.smem_bytes);
  kernel<<<l.grid, l.args.block_size, l.smem_bytes, l.args.stream>>>(args..., l.sink);
  return cudaGetLastError();
}

template <typename K, typename... Args>
cudaError_t go_cluster(const TwinLaunch& l, K kernel, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(l.grid);
  config.blockDim = dim3(l.args.block_size);
  config.dynamicSmemBytes = l.smem_bytes;
  config.stream = l.args.stream;
  cudaLaunchAttribute cluster_dims[1];
  cluster_dims[0].id = cudaLaunchAttributeClusterDimension;
  cluster_dims[0].val.clusterDim = {kClusterBlocks, 1, 1};
  config.attrs = cluster_dims;
  config.numAttrs = 1;
  // Blocks per SM as for the other twins (the cluster's placement aside).
  if (l.occupancy != nullptr)
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(l.occupancy, kernel, l.args.block_size,
                                                         l.smem_bytes);
  return cudaLaunchKernelEx(&config, kernel, args..., l.sink);
}

template <typename T>
cudaError_t launch_warp(const TwinLaunch& l) {
  using A = typename Accum<T>::type;
  const T* in = static_cast<const T*>(l.args.input);
  A* out = static_cast<A*>(l.args.partials);
  return detail::with_unroll(l.args.unroll, [&](auto u) -> cudaError_t {
    constexpr int U = decltype(u)::value;
    if (l.args.kernel == KernelId::WarpShuffle)
      return go(l, warp_twin<T, U, false>, in, l.args.n, out);
    if constexpr (std::is_same_v<T, int32_t>)
      return go(l, warp_twin<T, U, true>, in, l.args.n, out);
    return cudaErrorInvalidValue;
  });
}

template <typename T>
cudaError_t launch_stream(const TwinLaunch& l) {
  using A = typename Accum<T>::type;
  const T* in = static_cast<const T*>(l.args.input);
  return with_stream_block(l.args.block_size, [&](auto b) {
    constexpr int B = decltype(b)::value;
    return with_stream_vectors(l.args.unroll, [&](auto u) -> cudaError_t {
      constexpr int U = decltype(u)::value;
      A* result = static_cast<A*>(l.args.result);
      char* scratch = static_cast<char*>(l.args.scratch);
      switch (l.args.kernel) {
        case KernelId::VectorizedGridStride:
          return go(l, vectorized_twin<T, B, U>, in, l.args.n, static_cast<A*>(l.args.partials));
        case KernelId::SinglePass:
          return go(l, single_pass_twin<T, B, U>, in, l.args.n, result, scratch);
        case KernelId::ClusterSinglePass:
          return go_cluster(l, cluster_twin<T, B, U>, in, l.args.n, result, scratch);
        default:
          return cudaErrorInvalidValue;
      }
    });
  });
}

}  // namespace

cudaError_t launch_modern_twin(const TwinLaunch& l) {
  if (!has_modern_twin(l.args.kernel) || l.args.workspace != Workspace::Registers)
    return cudaErrorInvalidValue;
  return detail::with_type(l.args.type, [&](auto t) {
    using T = typename decltype(t)::type;
    const bool warp_family =
        l.args.kernel == KernelId::WarpShuffle || l.args.kernel == KernelId::ReduceAddSync;
    return warp_family ? launch_warp<T>(l) : launch_stream<T>(l);
  });
}

}  // namespace rl::kernels::timeline
