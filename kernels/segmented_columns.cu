// One sum per column of a row-major rows x cols matrix, the slow way and the fast way:
//  ColumnStrided: a warp per column, its lanes reading down the column. Consecutive lanes read
//    addresses a whole row apart, so every 4-byte load costs its own 32-byte sector: the
//    coalescing lesson, kept naive on purpose.
//  ColumnTiled: a block is a 2-D tile (segmented_shape.h's column_tile): `width` threads along a
//    row by block / width threads down the rows, so even a matrix of a few columns is read in
//    whole consecutive rows, one contiguous chunk per block. A thread adds four neighbouring
//    columns from one 16-byte load when the width is a multiple of 4 (every row then starts on
//    a 16-byte boundary): four times the bytes per load, where a scalar per load leaves HBM
//    waiting. Other widths of a large matrix are read through a view of 2 or 4 rows as one
//    (segmented_shape.h's column_view), whose sums are added back into the matrix's columns at
//    the end of the same launch (segmented_column_sums.cuh); of a smaller one, one column a
//    thread. Each thread adds its columns down every (block / width)-th row of a slab, U rows in
//    flight; the threads of a column are then added in shared memory by a fixed tree. With few
//    column blocks the rows are cut into slabs so that the GPU stays busy. int32: each slab's
//    block adds its sums to the columns' counted words as the single pass's blocks do
//    (modern_finish.cuh), and the slab that counts last writes the column's sum. float32 (and a
//    view's fold): each slab's sums go to the scratch, and in the same launch the last block of
//    each group of slabs to finish adds the group's sums, the last group all groups' (tickets
//    counted with atomics, the order of additions fixed by the shape, so the float sum is the
//    same on every launch). One slab: the sums go straight to the partials.
// ColumnStrided reads scalars on purpose. Grids larger than kMaxGrid blocks walk the columns with
// grid-stride loops.
#include "modern_finish.cuh"
#include "segmented_column_plan.h"
#include "segmented_column_sums.cuh"
#include "segmented_common.cuh"
#include "segmented_shape.h"

#include <type_traits>

namespace rl::kernels::segmented {
namespace {

// L neighbouring elements of one row: a thread's share of a load.
template <typename T, int L>
struct Cells {
  T v[L];
};

// One load of L = 4 elements is a 16-byte vector (p 16-byte aligned), of L = 1 a scalar.
template <typename T, int L>
__device__ __forceinline__ Cells<T, L> load_cells(const T* __restrict__ p) {
  Cells<T, L> c;
  if constexpr (L == 4) {
    const auto q = __ldg(reinterpret_cast<const typename Vec4<T>::type*>(p));
    c.v[0] = q.x;
    c.v[1] = q.y;
    c.v[2] = q.z;
    c.v[3] = q.w;
  } else {
    static_assert(L == 1, "a thread adds one column or a 16-byte vector of four");
    c.v[0] = __ldg(p);
  }
  return c;
}

// int32 slabs: a thread's L column sums handed on to their counted words (modern_finish.cuh,
// `stride` words apart). Every atomic is issued before the first one's answer is looked at, so
// the thread waits one round trip for all L. One hand_on_counted per column had ptxas issue each
// atomic only after the previous one's answer was checked: L round trips at the end of every
// slab, the last of them on the kernel's critical path.
template <int L>
__device__ __forceinline__ void hand_on_columns(const Cells<long long, L>& acc, long long* sums,
                                                unsigned long long* words, std::size_t stride,
                                                unsigned slabs) {
  unsigned long long mine[L], before[L];
#pragma unroll
  for (int j = 0; j < L; ++j) {
    mine[j] = modern::counted_entry(acc.v[j]);
    before[j] = atomicAdd(words + j * stride, mine[j]);
  }
#pragma unroll
  for (int j = 0; j < L; ++j)
    modern::finish_counted(before[j], mine[j], sums + j, words + j * stride, slabs);
}

// A thread's L sums to p[0, L): four as 16-byte stores (p is 4 x sizeof(A) aligned: the
// partials and the scratch are cudaMalloc'd, every row of sums starts at a multiple of the
// width, a multiple of 4), so a warp's stores are whole sectors, not 8-byte pieces of each.
template <typename A, int L>
__device__ __forceinline__ void store_cells(A* __restrict__ p, const Cells<A, L>& c) {
  if constexpr (L == 4 && sizeof(A) == 8) {
    auto* q = reinterpret_cast<longlong2*>(p);
    q[0] = make_longlong2(static_cast<long long>(c.v[0]), static_cast<long long>(c.v[1]));
    q[1] = make_longlong2(static_cast<long long>(c.v[2]), static_cast<long long>(c.v[3]));
  } else if constexpr (L == 4 && sizeof(A) == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(c.v[0], c.v[1], c.v[2], c.v[3]);
  } else {
#pragma unroll
    for (int j = 0; j < L; ++j) p[j] = c.v[j];
  }
}

// Columns c, ..., c + L - 1 summed down rows row_begin, + row_step, ... < row_end, U loads in
// flight. int32: the U values of one group are added in int32 (at most 8 x 255), then into the
// 64-bit running sum; float adds the group, then adds it to the running sum. The combine pass
// reads the partial sums themselves (T = A).
template <typename T, int U, int L, typename A = typename Accum<T>::type>
__device__ __forceinline__ Cells<A, L> column_thread_sum(const T* __restrict__ x, std::size_t cols,
                                                         std::size_t c, std::size_t row_begin,
                                                         std::size_t row_end,
                                                         std::size_t row_step) {
  Cells<A, L> acc;
#pragma unroll
  for (int j = 0; j < L; ++j) acc.v[j] = A(0);
  // Every group is predicated, the last one partial, so a thread's last rows are one round trip.
  for (std::size_t r = row_begin; r < row_end; r += std::size_t(U) * row_step) {
    Cells<T, L> v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) {
#pragma unroll
      for (int j = 0; j < L; ++j) v[k].v[j] = T(0);
      if (r + std::size_t(k) * row_step < row_end)
        v[k] = load_cells<T, L>(x + (r + std::size_t(k) * row_step) * cols + c);
    }
#pragma unroll
    for (int j = 0; j < L; ++j) {
      T s = v[0].v[j];
#pragma unroll
      for (int k = 1; k < U; ++k) s += v[k].v[j];
      acc.v[j] += s;
    }
  }
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
    const auto s =
        modern::warp_sum_shfl(column_thread_sum<T, U, 1>(x, cols, c, lane, rows, kWarp).v[0]);
    if (lane == 0) sums[c] = s;
  }
}

// Block (bx, s) of a tile `width` units wide: thread (tx, ty) = (threadIdx.x % width,
// threadIdx.x / width) adds columns c = (bx * width + tx) * L, ..., c + L - 1 over rows
// row_begin + ty, + down, ... of slab s (rows [s * slab_rows, (s + 1) * slab_rows) clipped to
// the matrix, down = blockDim.x / width). The `down` sums of a column are added in shared memory
// by a tree (ty + h into ty, h = down / 2, ..., 1), the same order on every launch. One slab
// (gridDim.y == 1): the column's sum goes to sums[c]. Several, int32 without a fold: the slab's
// sum of column c is added to c's counted word (count + sum, one atomic that returns), and the
// slab that counts last writes sums[c] and puts the word back to 0. Integer additions are exact,
// so the sum is the same whichever slab comes last, and no block waits for another: measured on
// an H100 at 2^24 (docs/decisions.md), 32 to 1024 columns 0.7-1.7 us faster than the tickets
// below. Several, float32 or a fold: to the slab sums, and the last block of each group of slabs
// to finish adds the group's slab sums, the last group the group sums: one launch, no second
// kernel waiting on the first, and two short additions at its end instead of one block adding
// thousands of slab sums. The words and tickets start at 0 (the scratch is zeroed when it is
// allocated). Needs blockDim.x x L x sizeof(A) bytes of dynamic shared memory.
// cols is a multiple of L; rows and cols are column_view's. Fold: column_view folds rows,
// `sums` are the view's and the block that writes a column block's final sums takes the fold's
// tickets. An instance of its own: compiled into every instance, the fold raised int32 at U = 4
// from 54 to 64 registers and one column a thread from 32 to up to 56; as it is, the other
// instances compile to the PTX they had before the fold.
// __launch_bounds__(1024, 1) lets ptxas use up to 64 registers a thread: the grid aims at
// kColumnTargetLoads in flight, about two blocks an SM, not at full occupancy. Without the 1, ptxas
// kept several instances at 32 registers and issued their loop's loads in two or three waves, a use
// of an early load before the last loads (a warp issues in order: each wave waits its own round
// trip); with it, one wave at 56-64 registers. Measured on an H100: 0.2-0.9 us faster at 2^24 from
// 32 to 2^18 columns, one int32 a thread (4095 x 4097) 31.0 against 27.5 us, up to 5 us faster at
// 2^28 (docs/decisions.md). The fold is inlined in both types: at these bounds float32's fold
// instance also reads in one wave that way (65520 x 4097 356 us), where out of line, as it was
// called under ptxas's own choice, it took 364.
template <typename T, int U, int L, bool Fold>
__global__ void __launch_bounds__(1024, 1)
    column_tiled(const T* __restrict__ x, std::size_t rows, std::size_t cols, unsigned width,
                 std::size_t column_blocks, std::size_t slab_rows,
                 SlabScratch<typename Accum<T>::type> scratch,
                 typename Accum<T>::type* __restrict__ sums,
                 ViewFold<T, typename Accum<T>::type> fold) {
  using A = typename Accum<T>::type;
  constexpr bool kCounted = std::is_same_v<T, int32_t> && !Fold;
  extern __shared__ __align__(16) unsigned char tile_bytes[];
  A* tile = reinterpret_cast<A*>(tile_bytes);
  const unsigned tx = threadIdx.x % width, ty = threadIdx.x / width, down = blockDim.x / width;
  const std::size_t units = cols / L, slabs = gridDim.y, slab = blockIdx.y;
  const std::size_t row_begin = slab * slab_rows;
  const std::size_t row_end = row_begin + slab_rows < rows ? row_begin + slab_rows : rows;
  A* out = slabs > 1 ? scratch.slab_sums + slab * cols : sums;
  const std::size_t groups = scratch.groups, group = slab / scratch.slab_group;
  const std::size_t group_first = group * scratch.slab_group;
  const std::size_t group_count =
      slabs - group_first < scratch.slab_group ? slabs - group_first : scratch.slab_group;
  // bx is the same for the whole block, so every thread meets every barrier.
  for (std::size_t bx = blockIdx.x; bx < column_blocks; bx += gridDim.x) {
    const std::size_t unit = bx * width + tx;
    Cells<A, L> acc{};
    if (unit < units)
      acc = column_thread_sum<T, U, L, A>(x, cols, unit * L, row_begin + ty, row_end, down);
    if (down > 1) {
#pragma unroll
      for (int j = 0; j < L; ++j) tile[j * blockDim.x + threadIdx.x] = acc.v[j];
      __syncthreads();
      for (unsigned h = down / 2; h > 0; h >>= 1) {
        if (ty < h) {
#pragma unroll
          for (int j = 0; j < L; ++j) {
            A* mine = tile + j * blockDim.x + threadIdx.x;
            *mine = acc.v[j] = acc.v[j] + mine[h * width];
          }
        }
        __syncthreads();
      }
    }
    if constexpr (kCounted) {
      if (ty == 0 && unit < units) {
        if (slabs == 1) {
          store_cells(sums + unit * L, acc);
        } else {
          hand_on_columns(acc, sums + unit * L, scratch.words + unit * L * scratch.word_stride,
                          scratch.word_stride, unsigned(slabs));
        }
      }
      continue;
    }
    if (ty == 0 && unit < units) store_cells(out + unit * L, acc);
    // The block that holds the column block's final sums (with one slab every block, else the
    // last of its group, and with several groups the last group) takes the fold's tickets.
    if (slabs == 1) {
      if constexpr (Fold) fold_after_column_block(fold, sums, bx * width * L, width * L, cols);
      continue;
    }
    unsigned* tickets = scratch.tickets + bx * (groups + 1);
    if (!counts_last(tickets + group, group_count)) continue;
    const std::size_t first_col = bx * width * L;
    A* group_out = groups > 1 ? scratch.group_sums + group * cols : sums;
    add_rows_of_sums(scratch.slab_sums + group_first * cols, group_count, cols, first_col,
                     width * L, tile, group_out);
    if (groups == 1 || !counts_last(tickets + groups, groups)) {
      if constexpr (Fold)
        if (groups == 1) fold_after_column_block(fold, sums, first_col, width * L, cols);
      continue;
    }
    add_rows_of_sums(scratch.group_sums, groups, cols, first_col, width * L, tile, sums);
    if constexpr (Fold) fold_after_column_block(fold, sums, first_col, width * L, cols);
  }
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
  // The scratch: the view's sums (fold > 1), the slab sums, the group sums, the slabs' tickets,
  // the fold's tickets.
  auto* const scratch_bytes = static_cast<unsigned char*>(a.scratch);
  A* const view_sums = s.view.fold > 1 ? reinterpret_cast<A*>(scratch_bytes) : sums;
  const std::size_t cols = s.view.cols;
  // chunk_shift >= 0: launch_columns refuses a fold whose chunk is not a power of two.
  ViewFold<T, A> fold{x,           a.rows,      a.cols,
                      s.view.rows, s.view.fold, static_cast<unsigned>(s.chunk_shift),
                      nullptr,     sums};
  if (s.view.fold > 1)
    fold.tickets = reinterpret_cast<unsigned*>(scratch_bytes + s.scratch_bytes -
                                               s.fold_tickets * sizeof(unsigned));
  SlabScratch<A> scratch{nullptr, nullptr, nullptr, s.slab_group, s.groups, nullptr, 1};
  if (s.word_stride > 0) {
    scratch.words = reinterpret_cast<unsigned long long*>(scratch_bytes);
    scratch.word_stride = s.word_stride;
  } else if (s.slabs.slabs > 1) {
    scratch.slab_sums = reinterpret_cast<A*>(scratch_bytes + s.view_sums_bytes);
    scratch.group_sums = scratch.slab_sums + s.slabs.slabs * cols;
    scratch.tickets =
        reinterpret_cast<unsigned*>(scratch.group_sums + (s.groups > 1 ? s.groups * cols : 0));
  }
  const std::size_t tile_bytes = block * s.slabs.lanes * sizeof(A);
  const auto kernel = s.slabs.lanes == 1 ? column_tiled<T, U, 1, false>
                      : s.view.fold > 1  ? column_tiled<T, U, 4, true>
                                         : column_tiled<T, U, 4, false>;
  kernel<<<s.grid, block, tile_bytes, a.stream>>>(x, s.view.rows, cols, s.slabs.tile.width,
                                                  s.slabs.tile.column_blocks, s.slabs.slab_rows,
                                                  scratch, view_sums, fold);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_columns(const LaunchArgs& a, const LaunchPlan& p) {
  const ColumnsShape s = columns_shape(a);
  if (p.scratch_bytes < s.scratch_bytes) return cudaErrorInvalidValue;  // planned for another shape
  if (s.slabs.lanes == 4 && !is_vector_aligned(a.input)) return cudaErrorInvalidValue;
  if (s.view.fold > 1 && s.chunk_shift < 0) return cudaErrorInvalidValue;  // fold_chunk_shift
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_segmented_unroll(
        a.unroll, [&](auto u) { return launch_columns_typed<T, decltype(u)::value>(a, s); });
  });
}

}  // namespace rl::kernels::segmented
