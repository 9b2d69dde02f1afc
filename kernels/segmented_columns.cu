// One sum per column of a row-major rows x cols matrix, the slow way and the fast way:
//  ColumnStrided: a warp per column, its lanes reading down the column. Consecutive lanes read
//    addresses a whole row apart, so every 4-byte load costs its own 32-byte sector: the
//    coalescing lesson, kept naive on purpose.
//  ColumnTiled: the threads of a block lie along a row (consecutive columns), so a warp's loads
//    are 128 contiguous bytes; each thread adds its column down a slab of rows, U rows in
//    flight. With few column blocks the rows are cut into slabs (segmented_shape.h) so that the
//    GPU stays busy; each slab's sums go to the scratch and a second pass adds the slabs of each
//    column in slab order. One slab: the sums go straight to the partials.
// Both read scalars: a column's elements are not contiguous. Grids larger than kMaxGrid blocks
// walk the columns with grid-stride loops.
#include "segmented_common.cuh"
#include "segmented_shape.h"

namespace rl::kernels::segmented {
namespace {

// int32: the U values of one group are added in int32 (at most 8 x 255), then into the 64-bit
// running sum; float adds the group, then adds it to the running sum.
template <typename T, int U>
__device__ __forceinline__ typename Accum<T>::type column_thread_sum(
    const T* __restrict__ x, std::size_t cols, std::size_t c, std::size_t row_begin,
    std::size_t row_end, std::size_t row_step) {
  using A = typename Accum<T>::type;
  A acc = A(0);
  std::size_t r = row_begin;
  for (; r + std::size_t(U - 1) * row_step < row_end; r += std::size_t(U) * row_step) {
    T v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = __ldg(x + (r + std::size_t(k) * row_step) * cols + c);
    T s = v[0];
#pragma unroll
    for (int k = 1; k < U; ++k) s += v[k];
    acc += s;
  }
  for (; r < row_end; r += row_step) acc += __ldg(x + r * cols + c);
  return acc;
}

// Lane l of the warp of column c adds rows l, l + 32, ...; the shuffle tree adds the lanes.
template <typename T, int U>
__global__ void __launch_bounds__(1024)
    column_strided(const T* __restrict__ x, std::size_t rows, std::size_t cols,
                   typename Accum<T>::type* __restrict__ sums) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::size_t warps = blockDim.x / kWarp;
  const std::size_t stride = std::size_t(gridDim.x) * warps;
  for (std::size_t c = blockIdx.x * warps + threadIdx.x / kWarp; c < cols; c += stride) {
    const auto s = modern::warp_sum_shfl(column_thread_sum<T, U>(x, cols, c, lane, rows, kWarp));
    if (lane == 0) sums[c] = s;
  }
}

// Block (bx, s): columns bx * blockDim.x + threadIdx.x, rows [s * slab_rows, (s + 1) *
// slab_rows) clipped to the matrix; the sum goes to out[s * cols + c].
template <typename T, int U>
__global__ void __launch_bounds__(1024)
    column_slabs(const T* __restrict__ x, std::size_t rows, std::size_t cols,
                 std::size_t column_blocks, std::size_t slab_rows,
                 typename Accum<T>::type* __restrict__ out) {
  const std::size_t row_begin = std::size_t(blockIdx.y) * slab_rows;
  const std::size_t row_end = row_begin + slab_rows < rows ? row_begin + slab_rows : rows;
  for (std::size_t bx = blockIdx.x; bx < column_blocks; bx += gridDim.x) {
    const std::size_t c = bx * blockDim.x + threadIdx.x;
    if (c < cols)
      out[blockIdx.y * cols + c] = column_thread_sum<T, U>(x, cols, c, row_begin, row_end, 1);
  }
}

// The second pass of ColumnTiled, a thread per column: slab sums 0, 1, ..., slabs - 1 in that
// order, so a float column sum has the same bits on every launch.
template <typename A>
__global__ void __launch_bounds__(kCombineBlock)
    combine_slabs(const A* __restrict__ slab_sums, std::size_t cols, std::size_t slabs,
                  A* __restrict__ sums) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < cols; c += stride) {
    A acc = A(0);
    for (std::size_t s = 0; s < slabs; ++s) acc += slab_sums[s * cols + c];
    sums[c] = acc;
  }
}

struct ColumnsShape {
  dim3 grid;
  ColumnSlabShape slabs;
  std::size_t scratch_bytes = 0;
};
ColumnsShape columns_shape(const LaunchArgs& a) {
  ColumnsShape s;
  if (a.kernel == KernelId::ColumnStrided) {
    s.grid = dim3(capped_grid(ceil_div(a.cols, static_cast<std::size_t>(a.block_size) / kWarp)));
    return s;
  }
  s.slabs = column_slab_shape(a.rows, a.cols, a.block_size);
  // slabs <= kTargetBlocks, well inside grid.y's limit of 65535.
  s.grid = dim3(capped_grid(s.slabs.column_blocks), static_cast<unsigned>(s.slabs.slabs));
  if (s.slabs.slabs > 1) s.scratch_bytes = s.slabs.slabs * a.cols * accum_size(a.type);
  return s;
}

template <typename T, int U>
cudaError_t launch_columns_typed(const LaunchArgs& a, const ColumnsShape& s) {
  using A = typename Accum<T>::type;
  const T* x = static_cast<const T*>(a.input);
  A* sums = static_cast<A*>(a.partials);
  const unsigned block = static_cast<unsigned>(a.block_size);
  if (a.kernel == KernelId::ColumnStrided) {
    column_strided<T, U><<<s.grid, block, 0, a.stream>>>(x, a.rows, a.cols, sums);
    return cudaGetLastError();
  }
  const std::size_t slabs = s.slabs.slabs;
  A* out = slabs > 1 ? static_cast<A*>(a.scratch) : sums;
  column_slabs<T, U><<<s.grid, block, 0, a.stream>>>(x, a.rows, a.cols, s.slabs.column_blocks,
                                                     s.slabs.slab_rows, out);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess || slabs == 1) return e;
  const unsigned combine_grid = capped_grid(ceil_div(a.cols, kCombineBlock));
  combine_slabs<A><<<combine_grid, kCombineBlock, 0, a.stream>>>(out, a.cols, slabs, sums);
  return cudaGetLastError();
}

}  // namespace

cudaError_t plan_columns(const LaunchArgs& a, LaunchPlan* plan) {
  const ColumnsShape s = columns_shape(a);
  *plan = LaunchPlan{};
  plan->grid = s.grid.x * s.grid.y;
  plan->partial_count = a.cols;
  plan->input_capacity = a.n;
  plan->scratch_bytes = s.scratch_bytes;
  plan->has_first_kernel = false;
  plan->needs_finish = false;
  return cudaSuccess;
}

cudaError_t launch_columns(const LaunchArgs& a, const LaunchPlan& p) {
  const ColumnsShape s = columns_shape(a);
  if (p.scratch_bytes < s.scratch_bytes) return cudaErrorInvalidValue;  // planned for another shape
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_segmented_unroll(
        a.unroll, [&](auto u) { return launch_columns_typed<T, decltype(u)::value>(a, s); });
  });
}

}  // namespace rl::kernels::segmented
