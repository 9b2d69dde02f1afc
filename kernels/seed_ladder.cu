// The classic ladder, part 1: the three tree shapes and unrolled pre-reduction.
// Phase 1 and 3 are shared (common.cuh); each kernel below is its phase 2 and the idea it shows.
#include "common.cuh"
#include "dispatch.cuh"
#include "ladder_launchers.h"

namespace rl::kernels {
namespace {
using detail::prepare_workspace;
using detail::write_partial;

// reduceNeighbored: stride doubles from 1; thread tid works when tid % (2*stride) == 0.
// Idea: the most direct tree. Active threads are spread out, so every warp keeps diverging
// (in the last steps one lane per warp works while 31 idle).
template <typename T, Workspace W>
__global__ void reduce_neighbored(T* input, std::size_t n, typename Accum<T>::type* partials) {
  T* ws = prepare_workspace<1, W>(input, n, detail::dynamic_smem<T>());
  const unsigned tid = threadIdx.x;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if ((tid % (2 * stride)) == 0) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  write_partial(ws, partials);
}

// reduceNeighboredLess: same pairs as neighbored, but thread tid handles index 2*stride*tid.
// Idea: pack the working threads into the first warps so whole warps go idle instead of
// diverging; idle warps still wait at every barrier.
template <typename T, Workspace W>
__global__ void reduce_neighbored_less(T* input, std::size_t n, typename Accum<T>::type* partials) {
  T* ws = prepare_workspace<1, W>(input, n, detail::dynamic_smem<T>());
  const unsigned tid = threadIdx.x;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x) ws[index] += ws[index + stride];
    __syncthreads();
  }
  write_partial(ws, partials);
}

// reduceInterleaved (and reduceUnroll{U}, which adds phase 1's pre-reduction of U tiles):
// stride halves from blockDim.x/2; thread tid < stride adds ws[tid + stride].
// Idea: contiguous working threads and contiguous (coalesced, conflict-free) accesses.
// Unrolling: each block first sums U tiles, so U times fewer blocks and barriers.
template <typename T, Workspace W, int U>
__global__ void reduce_interleaved(T* input, std::size_t n, typename Accum<T>::type* partials) {
  T* ws = prepare_workspace<U, W>(input, n, detail::dynamic_smem<T>());
  const unsigned tid = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  write_partial(ws, partials);
}

template <typename T>
std::size_t smem_bytes(Workspace w, int block) {
  return w == Workspace::Shared ? sizeof(T) * static_cast<std::size_t>(block) : 0;
}

}  // namespace

static_assert(detail::dispatch_covers(KernelId::Neighbored) &&
                  detail::dispatch_covers(KernelId::NeighboredLess) &&
                  detail::dispatch_covers(KernelId::Interleaved) &&
                  detail::dispatch_covers(KernelId::Unroll),
              "the tree kernels are instantiated for every shape kernels/accepts.h lists");

cudaError_t launch_seed_tree(const LaunchArgs& a, const LaunchPlan& p) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    using P = typename Accum<T>::type;
    T* in = static_cast<T*>(a.input);
    P* out = static_cast<P*>(a.partials);
    const std::size_t smem = smem_bytes<T>(a.workspace, a.block_size);
    return detail::with_workspace(a.workspace, [&](auto w) -> cudaError_t {
      constexpr Workspace W = decltype(w)::value;
      switch (a.kernel) {
        case KernelId::Neighbored:
          if (a.unroll != 1) return cudaErrorInvalidValue;
          reduce_neighbored<T, W><<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
          return cudaGetLastError();
        case KernelId::NeighboredLess:
          if (a.unroll != 1) return cudaErrorInvalidValue;
          reduce_neighbored_less<T, W><<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
          return cudaGetLastError();
        case KernelId::Interleaved:
          if (a.unroll != 1) return cudaErrorInvalidValue;
          [[fallthrough]];
        case KernelId::Unroll:
          return detail::with_unroll(a.unroll, [&](auto u) {
            reduce_interleaved<T, W, decltype(u)::value>
                <<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
            return cudaGetLastError();
          });
        default:
          return cudaErrorInvalidValue;
      }
    });
  });
}

}  // namespace rl::kernels
