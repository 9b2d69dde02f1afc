// What one block of row_per_warp and row_per_block (kernels/segmented_rows.cu) does, on the host:
// which elements each thread reads (range_thread_sum in kernels/segmented_common.cuh: a head of
// up to 3 single elements before the row's first 16-byte boundary, 16-byte vectors thread t,
// t + n, ..., a tail of single elements), each thread's share in the kernel's order of additions,
// and the row sums a block pass writes. The step-by-step trace (trace_rows.cpp) builds its
// registers from the same functions, so the two cannot disagree.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/types.h"
#include "engine/experiment/input_data.h"

namespace rl::rows {

// Elements of x[begin, end) that thread t of `nthreads` cooperating threads reads.
std::uint64_t thread_reads(std::uint64_t begin, std::uint64_t end, unsigned t, unsigned nthreads);

// Thread t's share of the sum of x[begin, end), added as range_thread_sum adds it: head elements
// one by one, then groups of `unroll` vectors (each vector as (x + y) + (z + w), a group's
// vectors added in the element type, the group into the accumulator), the vectors left over one
// by one, then the tail. int32 accumulates in int64, float32 in float.
std::int64_t thread_share(const std::int32_t* x, std::uint64_t begin, std::uint64_t end, unsigned t,
                          unsigned nthreads, unsigned unroll);
float thread_share(const float* x, std::uint64_t begin, std::uint64_t end, unsigned t,
                   unsigned nthreads, unsigned unroll);

// Blocks past this many walk their rows with grid-stride loops (kernels/segmented_shape.h
// kMaxGrid, which the engine cannot include).
inline constexpr std::uint64_t kMaxRowsGrid = 65536;

// The rows a pass of a block sums: row_per_warp takes blockDim / 32 consecutive rows (a warp
// each), row_per_block one row. A block with more rows than the grid has blocks makes several
// passes (grid-stride), each like pass `pass` of an uncapped grid.
struct RowPass {
  std::uint64_t first_row = 0;
  std::uint64_t row_count = 0;  // rows summed (row_per_warp: the last pass may hold fewer)
};
// Throws rl::Error for a kernel other than RowPerWarp / RowPerBlock or a pass past the rows.
RowPass row_pass(KernelId k, std::uint64_t rows, unsigned block_size, std::uint64_t pass);
// Passes a launch makes in all: ceil(rows / warps) for row_per_warp, rows for row_per_block.
std::uint64_t row_passes(KernelId k, std::uint64_t rows, unsigned block_size);

// The sums pass `pass` writes, one per row in order, as the GPU computes them: each lane's (each
// thread's) share, the shuffle tree (offsets 16..1, lane i adds lane i + offset), and for
// row_per_block the warp sums through shared memory and warp 0's tree over them (padded with
// zeros to 32 lanes). int32 sums are exact (int64); float32 sums have the kernel's bits. `x` is
// the whole rows x cols matrix (at least up to the pass's last row).
std::vector<double> pass_row_sums(KernelId k, const InputData& x, std::uint64_t rows,
                                  std::uint64_t cols, unsigned block_size, unsigned unroll,
                                  std::uint64_t pass);

}  // namespace rl::rows
