// Device helpers of the rows and columns kernels (segmented_rows.cu, segmented_columns.cu): a
// contiguous range summed by cooperating threads with 16-byte loads, and the dispatch from a
// launch's type and unroll factor to template arguments. The block size stays a run-time value
// (blockDim.x): these kernels only read and add, so a compile-time block size would buy nothing
// but six times the instantiations.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include "dispatch.cuh"
#include "kernels/accepts.h"
#include "kernels/launch.h"
#include "modern_common.cuh"

namespace rl::kernels::segmented {

using modern::kWarp;
using modern::lanes_sum;
using modern::Vec4;

// Thread t's elements x[begin + t], x[begin + t + nthreads], ... < end, added in this order: a
// range too short to reach a 16-byte boundary (all head), and the head before one.
template <typename T>
__device__ __forceinline__ typename Accum<T>::type elementwise_sum(const T* __restrict__ x,
                                                                   std::size_t begin,
                                                                   std::size_t end, unsigned t,
                                                                   unsigned nthreads) {
  typename Accum<T>::type acc(0);
  for (std::size_t i = begin + t; i < end; i += nthreads) acc += __ldg(x + i);
  return acc;
}

// Thread t's share, of `nthreads` cooperating threads, of the sum of x[begin, end). x must be
// 16-byte aligned (cudaMalloc's memory is). A row of a matrix whose width is not a multiple of
// 4 starts anywhere in a 16-byte word, so the range is cut at 16-byte boundaries: up to 3
// elements before the first boundary (the head) and after the last one (the tail) are read one
// by one; the body between is read as 16-byte vectors, thread t taking vectors t, t + nthreads,
// ..., U of them issued before any is added: U x 16 bytes in flight per thread is what lets a
// long row stream at the read floor (as in modern_stream.cuh). Each thread adds head, body and
// tail in this order, so a float sum is the same on every launch.
//
// int32: the 4U values of one group (at most 32 x 255) are added in int32, then into the
// 64-bit running sum.
template <typename T, int U>
__device__ __forceinline__ typename Accum<T>::type range_thread_sum(const T* __restrict__ x,
                                                                    std::size_t begin,
                                                                    std::size_t end, unsigned t,
                                                                    unsigned nthreads) {
  using V = typename Vec4<T>::type;
  const std::size_t body_begin = (begin + 3) & ~std::size_t(3);
  if (body_begin >= end) return elementwise_sum(x, begin, end, t, nthreads);
  auto acc = elementwise_sum(x, begin, body_begin, t, nthreads);
  const V* __restrict__ xv = reinterpret_cast<const V*>(x);
  const std::size_t vend = end / 4;
  std::size_t v = body_begin / 4 + t;
  for (; v + std::size_t(U - 1) * nthreads < vend; v += std::size_t(U) * nthreads) {
    V r[U];
#pragma unroll
    for (int k = 0; k < U; ++k) r[k] = __ldg(xv + v + std::size_t(k) * nthreads);
    T s = lanes_sum(r[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes_sum(r[k]);
    acc += s;
  }
  for (; v < vend; v += nthreads) acc += lanes_sum(__ldg(xv + v));
  for (std::size_t i = vend * 4 + t; i < end; i += nthreads) acc += __ldg(x + i);
  return acc;
}

// range_thread_sum's cut and reads in fewer round trips to memory, for RowPerThread's groups of
// lanes (the other row kernels keep range_thread_sum, whose order of additions the rows block
// model replays). With 4 or more threads each takes at most one head and one tail element,
// loaded first and added last, and the body's last group is predicated like the others: a short
// or misaligned row costs one round trip per group, not extra ones for the head, each leftover
// vector and the tail. The order (groups, head, tail) depends on the shape alone, so a float sum
// is the same on every launch; int32 as in range_thread_sum.
template <typename T, int U>
__device__ __forceinline__ typename Accum<T>::type range_thread_sum_predicated(
    const T* __restrict__ x, std::size_t begin, std::size_t end, unsigned t, unsigned nthreads) {
  using A = typename Accum<T>::type;
  using V = typename Vec4<T>::type;
  A acc = A(0);
  const std::size_t body_begin = (begin + 3) & ~std::size_t(3);
  if (body_begin >= end) return elementwise_sum(x, begin, end, t, nthreads);
  const std::size_t vend = end / 4;
  T head = T(0), tail = T(0);
  if (nthreads >= 4) {
    if (begin + t < body_begin) head = __ldg(x + begin + t);
    if (vend * 4 + t < end) tail = __ldg(x + vend * 4 + t);
  } else {
    for (std::size_t i = begin + t; i < body_begin; i += nthreads) head += __ldg(x + i);
    for (std::size_t i = vend * 4 + t; i < end; i += nthreads) tail += __ldg(x + i);
  }
  const V* __restrict__ xv = reinterpret_cast<const V*>(x);
  // Every group is predicated, the last one partial: the lanes of a warp leave the loop
  // together (their trip counts differ by at most one), never one group of loads after another.
  for (std::size_t v = body_begin / 4 + t; v < vend; v += std::size_t(U) * nthreads) {
    V r[U];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      r[k] = V{T(0), T(0), T(0), T(0)};
      if (v + std::size_t(k) * nthreads < vend) r[k] = __ldg(xv + v + std::size_t(k) * nthreads);
    }
    T s = lanes_sum(r[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes_sum(r[k]);
    acc += s;
  }
  acc += head;
  acc += tail;
  return acc;
}

// Sum of `v` over the `lanes` consecutive lanes (a power of two, 1 to 32) of a logical warp,
// valid in its first lane: a shuffle tree with offsets lanes / 2, ..., 2, 1, the same order on
// every launch. Every lane of the warp must call it.
template <typename A>
__device__ __forceinline__ A group_sum_shfl(A v, unsigned lanes) {
  for (unsigned offset = lanes / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(modern::kFullMask, v, offset, lanes);
  return v;
}

// Whether this block is the last of `count` to count on *ticket, after every one of them wrote
// its sums: the kernels that hand sums on within one launch (RowSplit, ColumnTiled) instead of
// a second kernel that waits for the first. As a grid barrier does it: the block's barrier
// orders its threads' writes before thread 0's ticket, an acquire-release atomic at device
// scope (the release makes the block's writes, ordered before it by the barrier, visible with
// the ticket; the last block's acquire sees every other block's), and the barrier after it
// orders the last block's reads after the acquire. One atomic per block, and no separate fence:
// a fence waits for the whole memory system, and every block takes a ticket (measured on an
// H100 at 2^24: up to 1 us faster than __threadfence and atomicAdd, docs/decisions.md). The
// last one sets the ticket back to 0, for the next launch. Every thread of the block must call
// it.
__device__ __forceinline__ bool counts_last(unsigned* ticket, std::size_t count) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
    last = t.fetch_add(1u, cuda::memory_order_acq_rel) == count - 1;
    if (last) t.store(0u, cuda::memory_order_relaxed);
  }
  __syncthreads();
  return last;
}

// Unroll factors (loads in flight per thread) the kernels are instantiated for: the rows of
// kernels/accepts.h, which all six hand-written kernels share.
inline constexpr Pow2Range kSegmentedUnrolls = accepts(KernelId::RowPerThread).unroll_factors;
static_assert(kSegmentedUnrolls.covers(accepts(KernelId::RowPerWarp).unroll_factors) &&
                  kSegmentedUnrolls.covers(accepts(KernelId::RowPerBlock).unroll_factors) &&
                  kSegmentedUnrolls.covers(accepts(KernelId::RowSplit).unroll_factors) &&
                  kSegmentedUnrolls.covers(accepts(KernelId::ColumnStrided).unroll_factors) &&
                  kSegmentedUnrolls.covers(accepts(KernelId::ColumnTiled).unroll_factors),
              "one unroll dispatch serves every rows and columns kernel");
// blockDim.x is read at run time, but the warp and block sums need whole warps.
static_assert(accepts(KernelId::RowPerWarp).block_sizes.min >= kWarp &&
                  accepts(KernelId::RowPerBlock).block_sizes.min >= kWarp &&
                  accepts(KernelId::ColumnStrided).block_sizes.min >= kWarp,
              "blocks of whole warps");

template <typename F>
cudaError_t with_segmented_unroll(int u, F&& f) {
  return detail::with_pow2<kSegmentedUnrolls.min, kSegmentedUnrolls.max>(u, static_cast<F&&>(f));
}

// 16-byte loads need a 16-byte aligned matrix (cudaMalloc gives 256).
inline bool is_vector_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

}  // namespace rl::kernels::segmented
