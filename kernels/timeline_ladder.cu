// Timed twins of the classic ladder: each kernel of seed_ladder.cu / seed_warp.cu with the same
// loads, pairs, barriers and template parameters (the unroll factor stays a compile-time
// constant, so the loads in flight are the real kernel's), plus the marks of
// kernels/include/kernels/timeline_marks.cuh at its phase boundaries and around every
// __syncthreads(). Every block stamps (so every block pays the same cost); only the recorded
// blocks copy their marks out at the end.
#include "common.cuh"
#include "dispatch.cuh"
#include "kernels/timeline_marks.cuh"
#include "timeline_launch.cuh"

namespace rl::kernels::timeline {
namespace {

using detail::dynamic_smem;
using detail::load_pre_reduced;

__device__ __forceinline__ unsigned* stage_base(unsigned offset) {
  return reinterpret_cast<unsigned*>(dynamic_smem<unsigned char>() + offset);
}

// prepare_workspace (common.cuh) with the load phase marked and its barrier timed.
template <int U, Workspace W, typename T>
__device__ __forceinline__ T* prepare(T* input, std::size_t n, RlTimelineWarp& w, unsigned& bar) {
  T* tile = input + static_cast<std::size_t>(blockIdx.x) * U * blockDim.x;
  if constexpr (W == Workspace::Global && U == 1) {
    return tile;  // the tree reads the tile as loaded: no load phase, no barrier
  } else {
    T* ws = W == Workspace::Global ? tile : dynamic_smem<T>();
    rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_LOAD, U));
    ws[threadIdx.x] = load_pre_reduced<U>(input, n);
    rl_tl_barrier(w, bar);
    return ws;
  }
}

template <typename T>
__device__ __forceinline__ void tree_step(T* ws, bool act, unsigned dst, unsigned stride,
                                          RlTimelineWarp& w, unsigned& bar) {
  rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_TREE, stride));
  if (act) ws[dst] += ws[dst + stride];
  rl_tl_barrier(w, bar);
}

// seed_warp.cu's two last warps, a mark before each of the six steps.
template <bool Volatile, typename T>
__device__ __forceinline__ void last_warp(T* ws, unsigned tid, RlTimelineWarp& w) {
  if (tid >= 32) return;
  if constexpr (Volatile) {
    volatile T* v = ws;
#pragma unroll
    for (unsigned offset = 32; offset > 0; offset >>= 1) {
      rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_LAST_WARP, offset));
      v[tid] += v[tid + offset];
    }
  } else {
    T v = ws[tid];
#pragma unroll
    for (unsigned offset = 32; offset > 0; offset >>= 1) {
      rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_LAST_WARP, offset));
      v += ws[tid + offset];
      __syncwarp();
      ws[tid] = v;
      __syncwarp();
    }
  }
}

template <typename T>
__device__ __forceinline__ void write_partial(const T* ws, typename Accum<T>::type* partials,
                                              RlTimelineWarp& w, const RlTimelineSink& sink) {
  rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_WRITE, 0u));
  detail::write_partial(ws, partials);
  rl_tl_end(w, sink);
}

// The tree of each rung; Last: 0 none, 1 volatile last warp, 2 __syncwarp() last warp.
enum class Tree { Neighbored, NeighboredLess, Interleaved, Loop64, IfChain, TemplateChain };

template <typename T, Workspace W, int U, Tree Shape, int Last, int B>
__global__ void __launch_bounds__(B > 0 ? B : 1024)
    twin(T* input, std::size_t n, typename Accum<T>::type* partials, RlTimelineSink sink,
         unsigned stage_offset) {
  RlTimelineWarp w = rl_tl_begin(stage_base(stage_offset));
  unsigned bar = 0;
  T* ws = prepare<U, W>(input, n, w, bar);
  const unsigned tid = threadIdx.x;
  if constexpr (Shape == Tree::Neighbored) {
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2)
      tree_step(ws, tid % (2 * stride) == 0, tid, stride, w, bar);
  } else if constexpr (Shape == Tree::NeighboredLess) {
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2)
      tree_step(ws, 2 * stride * tid < blockDim.x, 2 * stride * tid, stride, w, bar);
  } else if constexpr (Shape == Tree::Interleaved) {
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1)
      tree_step(ws, tid < stride, tid, stride, w, bar);
  } else if constexpr (Shape == Tree::Loop64) {
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1)
      tree_step(ws, tid < stride, tid, stride, w, bar);
  } else if constexpr (Shape == Tree::IfChain) {
    tree_step(ws, blockDim.x >= 1024 && tid < 512, tid, 512, w, bar);
    tree_step(ws, blockDim.x >= 512 && tid < 256, tid, 256, w, bar);
    tree_step(ws, blockDim.x >= 256 && tid < 128, tid, 128, w, bar);
    tree_step(ws, blockDim.x >= 128 && tid < 64, tid, 64, w, bar);
  } else {
    if constexpr (B >= 1024) tree_step(ws, tid < 512, tid, 512, w, bar);
    if constexpr (B >= 512) tree_step(ws, tid < 256, tid, 256, w, bar);
    if constexpr (B >= 256) tree_step(ws, tid < 128, tid, 128, w, bar);
    if constexpr (B >= 128) tree_step(ws, tid < 64, tid, 64, w, bar);
  }
  if constexpr (Last > 0) last_warp<Last == 1>(ws, tid, w);
  write_partial(ws, partials, w, sink);
}

template <typename T, Workspace W, int U, Tree Shape, int Last, int B = 0>
cudaError_t go(const TwinLaunch& l) {
  using P = typename Accum<T>::type;
  if (l.occupancy != nullptr)
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(l.occupancy, twin<T, W, U, Shape, Last, B>,
                                                         l.args.block_size, l.smem_bytes);
  twin<T, W, U, Shape, Last, B><<<l.grid, l.args.block_size, l.smem_bytes, l.args.stream>>>(
      static_cast<T*>(l.args.input), l.args.n, static_cast<P*>(l.args.partials), l.sink,
      l.stage_offset);
  return cudaGetLastError();
}

template <typename T, Workspace W, int U>
cudaError_t launch_rung(const TwinLaunch& l) {
  // The first three rungs take no unroll factor: instantiated at U == 1 only.
  if constexpr (U == 1) {
    if (l.args.kernel == KernelId::Neighbored) return go<T, W, U, Tree::Neighbored, 0>(l);
    if (l.args.kernel == KernelId::NeighboredLess) return go<T, W, U, Tree::NeighboredLess, 0>(l);
    if (l.args.kernel == KernelId::Interleaved) return go<T, W, U, Tree::Interleaved, 0>(l);
  }
  switch (l.args.kernel) {
    case KernelId::Unroll:
      return go<T, W, U, Tree::Interleaved, 0>(l);
    case KernelId::UnrollWarpVolatile:
      return go<T, W, U, Tree::Loop64, 1>(l);
    case KernelId::UnrollWarpSync:
      return go<T, W, U, Tree::Loop64, 2>(l);
    case KernelId::CompleteUnrollWarpVolatile:
      return go<T, W, U, Tree::IfChain, 1>(l);
    case KernelId::CompleteUnrollWarpSync:
      return go<T, W, U, Tree::IfChain, 2>(l);
    case KernelId::CompleteUnrollVolatile:
    case KernelId::CompleteUnrollSync:
      return detail::with_block_size(l.args.block_size, [&](auto b) -> cudaError_t {
        constexpr int BS = decltype(b)::value;
        if constexpr (BS < 64) {
          return cudaErrorInvalidValue;
        } else {
          return l.args.kernel == KernelId::CompleteUnrollVolatile
                     ? go<T, W, U, Tree::TemplateChain, 1, BS>(l)
                     : go<T, W, U, Tree::TemplateChain, 2, BS>(l);
        }
      });
    default:
      return cudaErrorInvalidValue;
  }
}

// One warp spins before the block's only barrier (the recording's own check).
__global__ void spin_barrier(unsigned spin_warp, unsigned long long spin_cycles,
                             RlTimelineSink sink) {
  extern __shared__ unsigned stage[];
  RlTimelineWarp w = rl_tl_begin(stage);
  unsigned bar = 0;
  rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_LOAD, 0u));
  if (threadIdx.x / 32u == spin_warp) {
    const unsigned long long t0 = rl_tl_clock();
    while (rl_tl_clock() - t0 < spin_cycles) {
    }
  }
  rl_tl_barrier(w, bar);
  rl_tl_mark(w, RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_WRITE, 0u));
  rl_tl_end(w, sink);
}

}  // namespace

cudaError_t launch_ladder_twin(const TwinLaunch& l) {
  return detail::with_type(l.args.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return detail::with_workspace(l.args.workspace, [&](auto ws) {
      constexpr Workspace W = decltype(ws)::value;
      return detail::with_unroll(l.args.unroll,
                                 [&](auto u) { return launch_rung<T, W, decltype(u)::value>(l); });
    });
  });
}

cudaError_t launch_spin_barrier(int block_size, unsigned spin_warp, unsigned long long spin_cycles,
                                const RlTimelineSink& sink) {
  const std::size_t smem = std::size_t(block_size / 32) * RL_TL_STAGE_WORDS * sizeof(unsigned);
  spin_barrier<<<1, block_size, smem>>>(spin_warp, spin_cycles, sink);
  return cudaGetLastError();
}

}  // namespace rl::kernels::timeline
