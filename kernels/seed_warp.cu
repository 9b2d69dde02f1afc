// The classic ladder, part 2: the last warp without __syncthreads() and complete unrolling.
// Every kernel here needs blockDim.x >= 64: the last warp adds ws[tid + 32].
// Each comes twice: the classic ladder's `volatile` last warp, which relies on a warp running in
// lock-step (Volta and later do not promise it; compute-sanitizer racecheck reports it), and a
// race-free twin that orders the same steps with __syncwarp(). Both add the same pairs in the
// same order, so they produce the same bits.
#include "common.cuh"
#include "dispatch.cuh"
#include "ladder_launchers.h"

namespace rl::kernels {
namespace {
using detail::prepare_workspace;
using detail::write_partial;

// Phase 2b, the classic ladder's form: the first warp finishes the last 64 values with no barrier,
// through a volatile pointer so every read and write goes to memory.
template <typename T>
__device__ __forceinline__ void last_warp_volatile(T* ws, unsigned tid) {
  if (tid < 32) {
    volatile T* v = ws;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
}

// Phase 2b, race free: the same steps, each read separated from the write it races with by
// __syncwarp() (the CUDA programming guide's fix for the classic ladder's pattern).
template <typename T>
__device__ __forceinline__ void last_warp_syncwarp(T* ws, unsigned tid) {
  if (tid < 32) {
    T v = ws[tid];
#pragma unroll
    for (int offset = 32; offset > 0; offset >>= 1) {
      v += ws[tid + offset];
      __syncwarp();
      ws[tid] = v;
      __syncwarp();
    }
  }
}

template <bool Volatile, typename T>
__device__ __forceinline__ void last_warp(T* ws, unsigned tid) {
  if constexpr (Volatile) {
    last_warp_volatile(ws, tid);
  } else {
    last_warp_syncwarp(ws, tid);
  }
}

// reduceUnrollWarp{U}: pre-reduce U tiles, interleaved tree with barriers while stride > 32,
// then the last warp alone. Idea: the final 6 steps involve one warp, so they need no
// __syncthreads() (the classic ladder saves 6 barriers per block).
template <typename T, Workspace W, int U, bool Volatile>
__global__ void reduce_unroll_warp(T* input, std::size_t n, typename Accum<T>::type* partials) {
  T* ws = prepare_workspace<U, W>(input, n, detail::dynamic_smem<T>());
  const unsigned tid = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  last_warp<Volatile>(ws, tid);
  write_partial(ws, partials);
}

// reduceCompleteUnrollWarp{U}: the tree loop written out as an if-chain on blockDim.x.
// Idea: no loop counter or loop branch; blockDim.x is uniform, so the chain never diverges.
template <typename T, Workspace W, int U, bool Volatile>
__global__ void reduce_complete_unroll_warp(T* input, std::size_t n,
                                            typename Accum<T>::type* partials) {
  T* ws = prepare_workspace<U, W>(input, n, detail::dynamic_smem<T>());
  const unsigned tid = threadIdx.x;
  if (blockDim.x >= 1024 && tid < 512) ws[tid] += ws[tid + 512];
  __syncthreads();
  if (blockDim.x >= 512 && tid < 256) ws[tid] += ws[tid + 256];
  __syncthreads();
  if (blockDim.x >= 256 && tid < 128) ws[tid] += ws[tid + 128];
  __syncthreads();
  if (blockDim.x >= 128 && tid < 64) ws[tid] += ws[tid + 64];
  __syncthreads();
  last_warp<Volatile>(ws, tid);
  write_partial(ws, partials);
}

// reduceCompleteUnroll<iBlockSize>: the block size is a template parameter, so the compiler
// deletes the steps that do not apply, and their barriers with them.
template <typename T, Workspace W, int U, bool Volatile, int B>
__global__ void __launch_bounds__(B)
    reduce_complete_unroll(T* input, std::size_t n, typename Accum<T>::type* partials) {
  T* ws = prepare_workspace<U, W>(input, n, detail::dynamic_smem<T>());
  const unsigned tid = threadIdx.x;
  if constexpr (B >= 1024) {
    if (tid < 512) ws[tid] += ws[tid + 512];
    __syncthreads();
  }
  if constexpr (B >= 512) {
    if (tid < 256) ws[tid] += ws[tid + 256];
    __syncthreads();
  }
  if constexpr (B >= 256) {
    if (tid < 128) ws[tid] += ws[tid + 128];
    __syncthreads();
  }
  if constexpr (B >= 128) {
    if (tid < 64) ws[tid] += ws[tid + 64];
    __syncthreads();
  }
  last_warp<Volatile>(ws, tid);
  write_partial(ws, partials);
}

}  // namespace

static_assert(detail::dispatch_covers(KernelId::UnrollWarpVolatile) &&
                  detail::dispatch_covers(KernelId::UnrollWarpSync) &&
                  detail::dispatch_covers(KernelId::CompleteUnrollWarpVolatile) &&
                  detail::dispatch_covers(KernelId::CompleteUnrollWarpSync) &&
                  detail::dispatch_covers(KernelId::CompleteUnrollVolatile) &&
                  detail::dispatch_covers(KernelId::CompleteUnrollSync),
              "the warp kernels are instantiated for every shape kernels/accepts.h lists");

cudaError_t launch_seed_warp(const LaunchArgs& a, const LaunchPlan& p) {
  if (!accepts(a.kernel).block_sizes.contains(a.block_size)) return cudaErrorInvalidValue;
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    using P = typename Accum<T>::type;
    T* in = static_cast<T*>(a.input);
    P* out = static_cast<P*>(a.partials);
    const std::size_t smem =
        a.workspace == Workspace::Shared ? sizeof(T) * static_cast<std::size_t>(a.block_size) : 0;
    return detail::with_workspace(a.workspace, [&](auto w) {
      constexpr Workspace W = decltype(w)::value;
      return detail::with_unroll(a.unroll, [&](auto u) -> cudaError_t {
        constexpr int U = decltype(u)::value;
        switch (a.kernel) {
          case KernelId::UnrollWarpVolatile:
            reduce_unroll_warp<T, W, U, true>
                <<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
            return cudaGetLastError();
          case KernelId::UnrollWarpSync:
            reduce_unroll_warp<T, W, U, false>
                <<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
            return cudaGetLastError();
          case KernelId::CompleteUnrollWarpVolatile:
            reduce_complete_unroll_warp<T, W, U, true>
                <<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
            return cudaGetLastError();
          case KernelId::CompleteUnrollWarpSync:
            reduce_complete_unroll_warp<T, W, U, false>
                <<<p.grid, a.block_size, smem, a.stream>>>(in, a.n, out);
            return cudaGetLastError();
          case KernelId::CompleteUnrollVolatile:
          case KernelId::CompleteUnrollSync:
            return detail::with_block_size(a.block_size, [&](auto b) -> cudaError_t {
              constexpr int B = decltype(b)::value;
              if constexpr (B < 64) {
                return cudaErrorInvalidValue;
              } else {
                if (a.kernel == KernelId::CompleteUnrollVolatile) {
                  reduce_complete_unroll<T, W, U, true, B>
                      <<<p.grid, B, smem, a.stream>>>(in, a.n, out);
                } else {
                  reduce_complete_unroll<T, W, U, false, B>
                      <<<p.grid, B, smem, a.stream>>>(in, a.n, out);
                }
                return cudaGetLastError();
              }
            });
          default:
            return cudaErrorInvalidValue;
        }
      });
    });
  });
}

}  // namespace rl::kernels
