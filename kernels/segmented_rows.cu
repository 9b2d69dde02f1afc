// One sum per row of a row-major rows x cols matrix, four ways; which wins depends on the width:
//  RowPerThread: a thread, or a small group of lanes, per row: `lanes` lanes (row_group_lanes,
//    1 to 32: one for rows of up to 4U elements) along it, a shuffle tree adds them; a warp
//    takes 32 / lanes consecutive rows at once. Short rows: no cooperation to pay for, every
//    lane has U 16-byte loads in flight and a warp reads whole consecutive rows.
//  RowPerWarp: a warp per row, lanes along it (coalesced), a shuffle tree adds the 32 lanes.
//    Rows of a few hundred to a few thousand elements.
//  RowPerBlock: a block per row, warp sums through shared memory, one barrier. Rows long
//    enough to keep a whole block busy, and as many rows as the GPU has block slots.
//  RowSplit: a long row in several pieces, a block each, every piece's sum to the scratch; the
//    last block of a row to finish (a ticket per row, counted with an atomic) adds the row's
//    pieces in a fixed order, in the same launch. A few very long rows still fill the GPU.
// Every thread reads its part with range_thread_sum (RowPerThread: range_thread_sum_predicated;
// segmented_common.cuh): 16-byte loads, U in flight. Grids larger than kMaxGrid blocks walk the
// rows with grid-stride loops.
#include "segmented_common.cuh"
#include "segmented_shape.h"

namespace rl::kernels::segmented {
namespace {

// Lane l of a warp works on row first + l / lanes, as lane l % lanes of its group.
template <typename T, int U>
__global__ void __launch_bounds__(1024)
    row_per_thread(const T* __restrict__ x, std::size_t rows, std::size_t cols, unsigned lanes,
                   typename Accum<T>::type* __restrict__ sums) {
  using A = typename Accum<T>::type;
  const unsigned lane = threadIdx.x % kWarp, group_lane = lane % lanes;
  const std::size_t rows_per_warp = kWarp / lanes;
  const std::size_t warps = blockDim.x / kWarp;
  const std::size_t stride = std::size_t(gridDim.x) * warps * rows_per_warp;
  // The loop bound is the same for every lane of a warp, so the shuffles see whole warps; a
  // group past the last row adds zeros.
  for (std::size_t first = (blockIdx.x * warps + threadIdx.x / kWarp) * rows_per_warp; first < rows;
       first += stride) {
    const std::size_t r = first + lane / lanes;
    A s = r < rows
              ? range_thread_sum_predicated<T, U>(x, r * cols, (r + 1) * cols, group_lane, lanes)
              : A(0);
    s = group_sum_shfl(s, lanes);
    if (group_lane == 0 && r < rows) sums[r] = s;
  }
}

template <typename T, int U>
__global__ void __launch_bounds__(1024)
    row_per_warp(const T* __restrict__ x, std::size_t rows, std::size_t cols,
                 typename Accum<T>::type* __restrict__ sums) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::size_t warps = blockDim.x / kWarp;
  const std::size_t stride = std::size_t(gridDim.x) * warps;
  // The loop bound is the same for every lane of a warp, so the shuffles see whole warps.
  for (std::size_t r = blockIdx.x * warps + threadIdx.x / kWarp; r < rows; r += stride) {
    const auto s =
        modern::warp_sum_shfl(range_thread_sum<T, U>(x, r * cols, (r + 1) * cols, lane, kWarp));
    if (lane == 0) sums[r] = s;
  }
}

// A block's sum of x[begin, end), valid in thread 0. block_sum_shfl's shared warp sums are
// reused by the next call, so a block that sums again first waits at a barrier.
template <typename T, int U>
__device__ __forceinline__ typename Accum<T>::type block_range_sum(const T* __restrict__ x,
                                                                   std::size_t begin,
                                                                   std::size_t end) {
  return modern::block_sum_shfl(range_thread_sum<T, U>(x, begin, end, threadIdx.x, blockDim.x),
                                blockDim.x / kWarp);
}

template <typename T, int U>
__global__ void __launch_bounds__(1024)
    row_per_block(const T* __restrict__ x, std::size_t rows, std::size_t cols,
                  typename Accum<T>::type* __restrict__ sums) {
  for (std::size_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const auto s = block_range_sum<T, U>(x, r * cols, (r + 1) * cols);
    if (threadIdx.x == 0) sums[r] = s;
    if (r + gridDim.x < rows) __syncthreads();
  }
}

// Piece sums in flight per thread when the last block of a row adds them.
constexpr int kPieceUnroll = 8;

// Row r's `splits` piece sums (written by other SMs during this launch, so read through L2 with
// __ldcg) added by the block: thread t adds pieces t, t + blockDim.x, ..., kPieceUnroll in
// flight, then block_sum_shfl adds the threads. The order depends on the shape alone, so a
// float row sum has the same bits on every launch, whichever block comes last.
template <typename A>
__device__ __forceinline__ A row_pieces_sum(const A* __restrict__ pieces, std::size_t splits) {
  A acc = A(0);
  for (std::size_t s = threadIdx.x; s < splits; s += std::size_t(kPieceUnroll) * blockDim.x) {
    A v[kPieceUnroll];
#pragma unroll
    for (int k = 0; k < kPieceUnroll; ++k) {
      const std::size_t sk = s + std::size_t(k) * blockDim.x;
      v[k] = sk < splits ? __ldcg(pieces + sk) : A(0);
    }
#pragma unroll
    for (int k = 0; k < kPieceUnroll; ++k) acc += v[k];
  }
  return modern::block_sum_shfl(acc, blockDim.x / kWarp);
}

// Piece p = r * splits + s is elements [s * chunk, min((s + 1) * chunk, cols)) of row r. One
// piece a row: its sum goes to sums[r]. Several: to pieces[p] (the scratch), and the block that
// counts last on tickets[r] adds the row's pieces into sums[r]. The tickets start at 0 (the
// scratch is zeroed when it is allocated).
template <typename T, int U>
__global__ void __launch_bounds__(1024)
    row_split(const T* __restrict__ x, std::size_t rows, std::size_t cols, std::size_t splits,
              std::size_t chunk, typename Accum<T>::type* __restrict__ pieces,
              unsigned* __restrict__ tickets, typename Accum<T>::type* __restrict__ sums) {
  const std::size_t count = rows * splits;
  for (std::size_t p = blockIdx.x; p < count; p += gridDim.x) {
    const std::size_t r = p / splits, begin = (p % splits) * chunk;
    const std::size_t end = begin + chunk < cols ? begin + chunk : cols;
    const auto s = block_range_sum<T, U>(x, r * cols + begin, r * cols + end);
    if (splits == 1) {
      if (threadIdx.x == 0) sums[r] = s;
    } else {
      if (threadIdx.x == 0) pieces[p] = s;
      // counts_last's barriers also keep block_sum_shfl's warp sums, read by warp 0 above,
      // from being overwritten by the next block sum before it is done.
      if (counts_last(tickets + r, splits)) {
        const auto total = row_pieces_sum(pieces + r * splits, splits);
        if (threadIdx.x == 0) sums[r] = total;
      }
    }
    if (p + gridDim.x < count) __syncthreads();
  }
}

// Blocks of the main kernel, and the scratch a split needs.
struct RowsShape {
  std::size_t blocks = 0;
  unsigned lanes = 1;  // RowPerThread's lanes per row
  RowSplitShape split;
  std::size_t scratch_bytes = 0;
};
RowsShape rows_shape(const LaunchArgs& a) {
  RowsShape s;
  const std::size_t warps = static_cast<std::size_t>(a.block_size) / kWarp;
  switch (a.kernel) {
    case KernelId::RowPerThread:
      s.lanes = row_group_lanes(a.cols, a.unroll);
      s.blocks = ceil_div(a.rows, warps * (kWarp / s.lanes));
      break;
    case KernelId::RowPerWarp:
      s.blocks = ceil_div(a.rows, warps);
      break;
    case KernelId::RowPerBlock:
      s.blocks = a.rows;
      break;
    default:  // RowSplit
      s.split = row_split_shape(a.rows, a.cols, a.block_size, a.unroll);
      s.blocks = a.rows * s.split.splits;
      // The pieces' sums, then a ticket per row.
      if (s.split.splits > 1)
        s.scratch_bytes = s.blocks * accum_size(a.type) + a.rows * sizeof(unsigned);
  }
  return s;
}

template <typename T, int U>
cudaError_t launch_rows_typed(const LaunchArgs& a, const RowsShape& s) {
  using A = typename Accum<T>::type;
  const T* x = static_cast<const T*>(a.input);
  A* sums = static_cast<A*>(a.partials);
  const unsigned grid = capped_grid(s.blocks), block = static_cast<unsigned>(a.block_size);
  switch (a.kernel) {
    case KernelId::RowPerThread:
      row_per_thread<T, U><<<grid, block, 0, a.stream>>>(x, a.rows, a.cols, s.lanes, sums);
      return cudaGetLastError();
    case KernelId::RowPerWarp:
      row_per_warp<T, U><<<grid, block, 0, a.stream>>>(x, a.rows, a.cols, sums);
      return cudaGetLastError();
    case KernelId::RowPerBlock:
      row_per_block<T, U><<<grid, block, 0, a.stream>>>(x, a.rows, a.cols, sums);
      return cudaGetLastError();
    default:
      break;
  }
  const bool split = s.split.splits > 1;
  A* pieces = split ? static_cast<A*>(a.scratch) : nullptr;
  unsigned* tickets = split ? reinterpret_cast<unsigned*>(pieces + s.blocks) : nullptr;
  row_split<T, U><<<grid, block, 0, a.stream>>>(x, a.rows, a.cols, s.split.splits, s.split.chunk,
                                                pieces, tickets, sums);
  return cudaGetLastError();
}

}  // namespace

cudaError_t plan_rows(const LaunchArgs& a, LaunchPlan* plan) {
  const RowsShape s = rows_shape(a);
  *plan = LaunchPlan{};
  plan->grid = capped_grid(s.blocks);
  plan->partial_count = a.rows;
  plan->input_capacity = a.n;
  plan->scratch_bytes = s.scratch_bytes;
  plan->has_first_kernel = false;
  plan->needs_finish = false;
  return cudaSuccess;
}

cudaError_t launch_rows(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input)) return cudaErrorInvalidValue;
  const RowsShape s = rows_shape(a);
  if (p.scratch_bytes < s.scratch_bytes) return cudaErrorInvalidValue;  // planned for another shape
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_segmented_unroll(
        a.unroll, [&](auto u) { return launch_rows_typed<T, decltype(u)::value>(a, s); });
  });
}

}  // namespace rl::kernels::segmented
