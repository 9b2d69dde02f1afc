// One sum per row of a row-major rows x cols matrix, four ways; which wins depends on the width:
//  RowPerThread: a thread, or a small group of lanes, per row: `lanes` lanes (row_group_lanes,
//    1 to 32: one for rows of up to 4U elements) along it, a shuffle tree adds them; a warp
//    takes 32 / lanes consecutive rows at once. Short rows: no cooperation to pay for, every
//    lane has U 16-byte loads in flight and a warp reads whole consecutive rows.
//  RowPerWarp: a warp per row, lanes along it (coalesced), a shuffle tree adds the 32 lanes.
//    Rows of a few hundred to a few thousand elements.
//  RowPerBlock: a block per row, warp sums through shared memory, one barrier. Rows long
//    enough to keep a whole block busy, and as many rows as the GPU has block slots.
//  RowSplit: a long row in several pieces, a block each; every piece hands its sum on with
//    integer atomics (the single pass's finish, a finish per row) and the piece that counts
//    last writes the row's sum, in the same launch. A few very long rows still fill the GPU.
// Every thread reads its part with range_thread_sum (RowPerThread: range_thread_sum_predicated;
// segmented_common.cuh): 16-byte loads, U in flight. Grids larger than kMaxGrid blocks walk the
// rows with grid-stride loops.
#include <type_traits>

#include "modern_finish.cuh"
#include "segmented_common.cuh"
#include "segmented_shape.h"

namespace rl::kernels::segmented {
namespace {

// Lane l of a warp works on row first + l / lanes, as lane l % lanes of its group.
// RowPerThread and RowSplit at __launch_bounds__(1024, 1), which lets ptxas use up to 64
// registers a thread (one resident block an SM is all it has to allow): without the 1 it held
// them at 32 for full occupancy and issued part of a group's loads after the first additions;
// with it, up to 62 registers and fewer resident blocks. Measured on an H100: RowPerThread
// 8388608 x 32 at 2^28 389 against 376 us, RowSplit 0.3-0.7 us faster at 2^24 (0.5 % slower on
// 2^28's longest rows); RowPerBlock lost up to 15 % on short and middling rows that way, and
// RowPerWarp spills, so they keep ptxas's choice (docs/decisions.md).
template <typename T, int U>
__global__ void __launch_bounds__(1024, 1)
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

// A split row's pieces hand their sums on as the single pass's slots do (modern_finish.cuh),
// a finish per row in the scratch: int32 adds (1 << 48) + the piece's sum to the row's counted
// word, float32 the piece's sum to the row's exponent windows with a ticket; the piece that
// counts last writes the row's sum and puts the row's words back to 0. Integer additions are
// exact, so the sum has the same bits whichever piece comes last (float32: the pieces' exact
// total, rounded once). Nothing is written for a later block to read again and no block waits
// for another. Measured on an H100 at 2^24 (docs/decisions.md): split rows 1.1-1.4 us faster
// than pieces' sums in the scratch added by the row's last block after a fence and a ticket.
inline constexpr std::size_t kRowFinishWords = 1 + modern::kWindowWords;  // ticket, windows
static_assert(kTargetBlocks <= modern::kMaxSlots, "a row's pieces fit the finish's counts");

inline std::size_t row_finish_bytes(DType type) {
  return type == DType::Int32 ? sizeof(unsigned long long)
                              : kRowFinishWords * sizeof(unsigned long long);
}

// Called by warp 0 of the piece's block; `s` is valid in its lane 0 (block_sum_shfl).
template <typename T, typename A>
__device__ __forceinline__ void hand_on_piece(A s, A* sum, unsigned long long* finish,
                                              std::size_t r, std::size_t splits) {
  if constexpr (std::is_same_v<T, int32_t>) {
    if (threadIdx.x == 0) modern::hand_on_counted(s, sum, finish + r, unsigned(splits));
  } else {
    unsigned long long* row = finish + r * kRowFinishWords;
    modern::hand_on_windows(s, sum, row + 1, reinterpret_cast<unsigned*>(row), unsigned(splits));
  }
}

// Piece p = r * splits + s is elements [s * chunk, min((s + 1) * chunk, cols)) of row r. One
// piece a row: its sum goes to sums[r]. Several: each hands its sum on to row r's finish words
// (hand_on_piece), which start at 0 (the scratch is zeroed when it is allocated).
template <typename T, int U>
__global__ void __launch_bounds__(1024, 1)
    row_split(const T* __restrict__ x, std::size_t rows, std::size_t cols, std::size_t splits,
              std::size_t chunk, unsigned long long* __restrict__ finish,
              typename Accum<T>::type* __restrict__ sums) {
  const std::size_t count = rows * splits;
  for (std::size_t p = blockIdx.x; p < count; p += gridDim.x) {
    const std::size_t r = p / splits, begin = (p % splits) * chunk;
    const std::size_t end = begin + chunk < cols ? begin + chunk : cols;
    const auto s = block_range_sum<T, U>(x, r * cols + begin, r * cols + end);
    if (splits == 1) {
      if (threadIdx.x == 0) sums[r] = s;
    } else if (threadIdx.x < kWarp) {
      hand_on_piece<T>(s, sums + r, finish, r, splits);
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
      // A finish per row (hand_on_piece).
      if (s.split.splits > 1) s.scratch_bytes = a.rows * row_finish_bytes(a.type);
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
  auto* finish = s.split.splits > 1 ? static_cast<unsigned long long*>(a.scratch) : nullptr;
  row_split<T, U><<<grid, block, 0, a.stream>>>(x, a.rows, a.cols, s.split.splits, s.split.chunk,
                                                finish, sums);
  return cudaGetLastError();
}

}  // namespace

cudaError_t plan_rows(const LaunchArgs& a, LaunchPlan* plan) {
  const RowsShape s = rows_shape(a);
  *plan = segment_sums_plan(capped_grid(s.blocks), a.rows, a.n, s.scratch_bytes);
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
