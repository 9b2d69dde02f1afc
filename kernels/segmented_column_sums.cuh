// How ColumnTiled (segmented_columns.cu) hands its sums on after its reads, in the same launch:
// float32's slab sums (and those of a fold) added by the last block of each group of slabs, the
// group sums by the last group, and the fold of a view's sums into the matrix's columns. (int32
// hands its slab sums on as counted words instead: segmented_columns.cu.)
//
// The fold: a matrix whose width is not a multiple of 4 is read through a view of `fold` rows
// as one (segmented_shape.h's column_view), and the view's column sums are added back into the
// matrix's columns in the same launch, not by a second kernel that waits for the first (about
// 1 us slower at 2^24 on an H100, docs/decisions.md). View column q x cols + c is column c of the
// matrix's rows q, q + fold, ... The matrix's columns are cut into chunks of `chunk` columns, the
// view columns of one column block (so a column block's view columns meet at most two chunks in
// each phase q). A chunk's sum needs the view sums of every (column block, phase) pair that meets
// it; the block that holds a column block's final view sums takes a ticket on each chunk it meets,
// and the last pair's block adds the chunk: its fold view sums, then the rows past the view (fewer
// than fold), in this order, the same on every launch.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>

#include "segmented_shape.h"

namespace rl::kernels::segmented {

// Rows [0, count) of a matrix of A (`cols` wide, read through L2 with __ldcg: other SMs wrote it
// during this launch) added down columns [first_col, first_col + columns) into dst: `along`
// threads per row (the columns, up to the block) by blockDim.x / along down the rows,
// kCombineUnroll sums in flight per thread, then a fixed tree in `tile`. The order depends on
// the shape alone, not on which block does it, so a float sum is the same on every launch.
template <typename A>
__device__ __forceinline__ void add_rows_of_sums(const A* __restrict__ m, std::size_t count,
                                                 std::size_t cols, std::size_t first_col,
                                                 unsigned columns, A* __restrict__ tile,
                                                 A* __restrict__ dst) {
  const unsigned along = columns < blockDim.x ? columns : blockDim.x;
  const unsigned tx = threadIdx.x % along, ty = threadIdx.x / along, down = blockDim.x / along;
  for (unsigned base = 0; base < columns; base += along) {  // the same trips for every thread
    const std::size_t c = first_col + base + tx;
    A acc = A(0);
    for (std::size_t r = ty; c < cols && r < count; r += std::size_t(kCombineUnroll) * down) {
      A v[kCombineUnroll];
#pragma unroll
      for (int k = 0; k < kCombineUnroll; ++k) {
        const std::size_t rk = r + std::size_t(k) * down;
        v[k] = rk < count ? __ldcg(m + rk * cols + c) : A(0);
      }
#pragma unroll
      for (int k = 0; k < kCombineUnroll; ++k) acc += v[k];
    }
    tile[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = down / 2; h > 0; h >>= 1) {
      if (ty < h) tile[threadIdx.x] = acc = acc + tile[threadIdx.x + h * along];
      __syncthreads();
    }
    if (ty == 0 && c < cols) dst[c] = acc;
  }
}

// Where a slabbed ColumnTiled keeps its sums. float32 and a fold: slabs x cols slab sums, groups
// x cols group sums (slab_group slabs each, the last group fewer; none when one group holds every
// slab), and per column block a ticket per group and one for the groups. int32 without a fold:
// a counted word per column (modern_finish.cuh), word_stride words apart
// (segmented_shape.h's counted_word_stride), and nothing else.
template <typename A>
struct SlabScratch {
  A* slab_sums;
  A* group_sums;
  unsigned* tickets;
  std::size_t slab_group;
  std::size_t groups;  // ceil(slabs / slab_group), from the host: no 64-bit division per thread
  unsigned long long* words;
  std::size_t word_stride;
};

template <typename T, typename A>
struct ViewFold {
  const T* x;        // the matrix, for the rows past the view
  std::size_t rows;  // the matrix's rows and columns
  std::size_t cols;
  std::size_t view_rows;  // rows of the view: the matrix's first view_rows x fold rows
  unsigned fold;          // 1: the matrix is read as it is, no fold
  unsigned chunk_shift;   // a chunk is 2^chunk_shift columns: the view columns of one column
                          // block (a power of two: shifts, not 64-bit divisions, which are calls)
  unsigned* tickets;      // one per chunk, 0 between launches
  A* sums;                // the matrix's column sums
};

template <typename T, typename A>
__host__ __device__ __forceinline__ std::size_t chunk_columns(const ViewFold<T, A>& f) {
  return std::size_t(1) << f.chunk_shift;
}

// (Column block, phase) pairs whose view columns meet chunk k.
template <typename T, typename A>
__host__ __device__ __forceinline__ unsigned fold_pairs(const ViewFold<T, A>& f, std::size_t k) {
  const std::size_t first = k << f.chunk_shift;
  const std::size_t end = first + chunk_columns(f) < f.cols ? first + chunk_columns(f) : f.cols;
  unsigned pairs = 0;
  for (unsigned q = 0; q < f.fold; ++q)
    pairs += static_cast<unsigned>(((q * f.cols + end - 1) >> f.chunk_shift) -
                                   ((q * f.cols + first) >> f.chunk_shift) + 1);
  return pairs;
}

// The chunk on which ticket slot `slot` (0-7: phase slot / 2, its first or second chunk) of the
// block holding view columns [view_first, view_end) takes a ticket, plus 1; 0 where the slot
// meets no chunk. Host and device, so the tests can count every chunk's tickets.
template <typename T, typename A>
__host__ __device__ __forceinline__ std::size_t fold_ticket_chunk(const ViewFold<T, A>& f,
                                                                  std::size_t view_first,
                                                                  std::size_t view_end,
                                                                  unsigned slot) {
  const unsigned q = slot / 2;
  if (q >= f.fold) return 0;
  const std::size_t phase_first = q * f.cols, phase_end = phase_first + f.cols;
  const std::size_t lo = view_first > phase_first ? view_first : phase_first;
  const std::size_t hi = view_end < phase_end ? view_end : phase_end;
  const std::size_t k = lo < hi ? ((lo - phase_first) >> f.chunk_shift) + slot % 2 : 0;
  return lo < hi && k <= ((hi - 1 - phase_first) >> f.chunk_shift) ? k + 1 : 0;
}

// Columns [first, end) of the matrix: their fold view sums (written by other blocks in this
// launch: read through L2), then the rows past the view, every load issued before the first is
// added.
template <typename T, typename A>
__device__ __forceinline__ void fold_columns(const ViewFold<T, A>& f, const A* __restrict__ view,
                                             std::size_t first, std::size_t end) {
  const std::size_t first_rest = f.view_rows * f.fold;
  for (std::size_t c = first + threadIdx.x; c < end; c += blockDim.x) {
    A v[4];
    T rest[3];
#pragma unroll
    for (unsigned q = 0; q < 4; ++q) v[q] = q < f.fold ? __ldcg(view + q * f.cols + c) : A(0);
#pragma unroll
    for (unsigned k = 0; k < 3; ++k)
      rest[k] = first_rest + k < f.rows ? __ldg(f.x + (first_rest + k) * f.cols + c) : T(0);
    A acc = v[0];
#pragma unroll
    for (unsigned q = 1; q < 4; ++q) acc += v[q];
#pragma unroll
    for (unsigned k = 0; k < 3; ++k) acc += A(rest[k]);
    f.sums[c] = acc;
  }
}

// Called by every thread of the block that has just written the final view sums of view
// columns [view_first, view_first + width) clipped to view_cols: a ticket for each (phase, chunk)
// pair they meet, taken by one thread each (up to two chunks in each of up to four phases), as
// counts_last takes its one (the barrier orders the block's writes before the acquire-release
// tickets); then the block adds the chunks whose last pair it was.
template <typename T, typename A>
__device__ __forceinline__ void fold_after_column_block(const ViewFold<T, A>& f,
                                                        const A* __restrict__ view,
                                                        std::size_t view_first, std::size_t width,
                                                        std::size_t view_cols) {
  const std::size_t view_end = view_first + width < view_cols ? view_first + width : view_cols;
  __shared__ std::size_t last_chunk[8];  // chunk + 1 where this block's pair was the last, else 0
  __syncthreads();
  if (threadIdx.x < 8) {
    std::size_t entry = 0;
    if (const std::size_t k1 = fold_ticket_chunk(f, view_first, view_end, threadIdx.x)) {
      const std::size_t k = k1 - 1;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(f.tickets[k]);
      if (t.fetch_add(1u, cuda::memory_order_acq_rel) == fold_pairs(f, k) - 1) {
        t.store(0u, cuda::memory_order_relaxed);
        entry = k1;
      }
    }
    last_chunk[threadIdx.x] = entry;
  }
  __syncthreads();
  for (int e = 0; e < 8; ++e) {
    const std::size_t k1 = last_chunk[e];
    if (k1 == 0) continue;
    const std::size_t first = (k1 - 1) << f.chunk_shift;
    const std::size_t end = first + chunk_columns(f);
    fold_columns(f, view, first, end < f.cols ? end : f.cols);
  }
  __syncthreads();  // last_chunk is read before the next column block's tickets overwrite it
}

}  // namespace rl::kernels::segmented
