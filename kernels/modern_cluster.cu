// ClusterSinglePass (sm_90+): the single pass with one more level between block and grid, the
// thread-block cluster: thread -> warp -> block -> cluster -> grid.
//  phase 1: block b reads tile b as single_pass does (B x U 16-byte vectors, U loads in flight
//           per thread; modern_tiles.cuh); the grid is the tile count rounded up to whole
//           clusters, so the last cluster may hold blocks with nothing to read.
//  phase 2: block sum (REDUX for int32, shuffles for float32; one __syncthreads()).
//  phase 3: once every block of the cluster runs (a split cluster barrier, arrived at before the
//           loads), thread 0 of each of the cluster's kClusterBlocks blocks stores its block sum
//           into the leader block's shared memory (distributed shared memory: the SMs of a cluster
//           reach each other's shared memory without a trip through L2); cluster.sync(); the
//           leader's first warp adds the sums in rank order.
//  phase 4: the leader hands the cluster's sum on (modern_finish.cuh): one atomic per cluster
//           instead of one per block, and the cluster that counts last writes the total.
// Measured on the H200: the cluster barrier costs more than the
// atomics it saves (slower than single_pass at every N for int32); the rung shows the level, not
// a speed-up.
#include <cooperative_groups.h>

#include <type_traits>
#include <utility>

#include "dispatch.cuh"
#include "modern_finish.cuh"
#include "modern_launchers.cuh"
#include "modern_stream.cuh"
#include "modern_tiles.cuh"

namespace rl::kernels::modern {
namespace {

namespace cg = cooperative_groups;

// Blocks per cluster: 8, the largest size every sm_90 GPU schedules (16 needs an opt-in and a
// GPC with 16 free SMs).
constexpr int kClusterBlocks = 8;
constexpr std::size_t kMaxBlocks = std::size_t(kMaxSlots);

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    cluster_single_pass(const T* __restrict__ x, std::size_t n,
                        typename Accum<T>::type* __restrict__ result, char* __restrict__ scratch) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using A = typename Accum<T>::type;
  __shared__ A block_sums[kClusterBlocks];
  cg::cluster_group cluster = cg::this_cluster();
  prefetch_finish_lines(scratch, !std::is_same_v<T, int32_t>);
  // A block may write another's shared memory only once that block runs: arrive now, wait
  // just before the write, so the wait hides behind the loads.
  auto started = cluster.barrier_arrive();
  A sum = block_total(tile_thread_sum<T, B, U>(x, n), B / kWarp);
  const unsigned rank = cluster.block_rank();
  cluster.barrier_wait(std::move(started));
  if (threadIdx.x == 0) *cluster.map_shared_rank(&block_sums[rank], 0) = sum;
  cluster.sync();  // every block's sum is in the leader's shared memory
  if (rank != 0 || threadIdx.x >= kWarp) return;
  const unsigned lane = threadIdx.x;
  sum = warp_total(lane < kClusterBlocks ? block_sums[lane] : A(0));
  const unsigned clusters = gridDim.x / kClusterBlocks;
  if (clusters == 1) {  // one cluster holds the total: no atomic at all
    if (lane == 0) *result = sum;
    return;
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (lane == 0)
      hand_on_counted(sum, result, reinterpret_cast<unsigned long long*>(scratch), clusters);
  } else {
    hand_on_windows(sum, result, reinterpret_cast<unsigned long long*>(scratch + kWindowsOffset),
                    reinterpret_cast<unsigned*>(scratch), clusters);
  }
#endif
}

template <typename F>
cudaError_t with_kernel(const LaunchArgs& a, F&& f) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_stream_block(a.block_size, [&](auto b) {
      constexpr int B = decltype(b)::value;
      return with_stream_vectors(
          a.unroll, [&](auto u) { return f(cluster_single_pass<T, B, decltype(u)::value>, B, t); });
    });
  });
}

// Clusters need sm_90: older GPUs get cudaErrorInvalidDeviceFunction, as REDUX below sm_80.
cudaError_t require_sm90() {
  int device = 0, major = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (err != cudaSuccess) return err;
  return major >= 9 ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

}  // namespace

cudaError_t plan_cluster(const LaunchArgs& a, LaunchPlan* plan) {
  if (a.workspace != Workspace::Registers) return cudaErrorInvalidValue;
  if (a.type == DType::Int32 && a.n > kMaxInt32Elements) return cudaErrorInvalidValue;
  if (const cudaError_t err = require_sm90(); err != cudaSuccess) return err;
  return with_kernel(a, [&](auto, int block, auto) {
    unsigned grid = 0;
    const cudaError_t err = capped_grid(stream_blocks_needed(a.n, block, a.unroll),
                                        kMaxBlocks - kClusterBlocks + 1, &grid);
    if (err != cudaSuccess) return err;
    *plan = LaunchPlan{};
    plan->grid = (grid + kClusterBlocks - 1) / kClusterBlocks * kClusterBlocks;
    plan->partial_count = 0;
    plan->input_capacity = a.n;
    plan->scratch_bytes = kFinishScratchBytes;
    plan->needs_finish = false;
    return cudaSuccess;
  });
}

cudaError_t launch_cluster(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input) || p.grid == 0 || p.grid % kClusterBlocks != 0 ||
      p.grid > kMaxBlocks || a.scratch == nullptr || p.scratch_bytes < kFinishScratchBytes) {
    return cudaErrorInvalidValue;
  }
  return with_kernel(a, [&](auto kernel, int block, auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(p.grid);
    config.blockDim = dim3(block);
    config.stream = a.stream;
    cudaLaunchAttribute cluster_dims[1];
    cluster_dims[0].id = cudaLaunchAttributeClusterDimension;
    cluster_dims[0].val.clusterDim.x = kClusterBlocks;
    cluster_dims[0].val.clusterDim.y = 1;
    cluster_dims[0].val.clusterDim.z = 1;
    config.attrs = cluster_dims;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, kernel, static_cast<const T*>(a.input), a.n,
                              static_cast<A*>(a.result), static_cast<char*>(a.scratch));
  });
}

}  // namespace rl::kernels::modern
