// The fold's tickets, counted on the host (no GPU): ColumnTiled reads a matrix whose width is not
// a multiple of 4 through a view of 2 or 4 rows as one, and the block holding each column block's
// final view sums takes a ticket on every chunk of matrix columns those view columns meet; the
// last of a chunk's tickets adds it. A chunk whose tickets fall short of fold_pairs would never be
// added, one whose tickets exceed it would be added twice. The kernel's own functions are
// called here, for every column block of shapes the GPU tests cannot all afford.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "segmented_column_sums.cuh"
#include "segmented_shape.h"

namespace rl::kernels::segmented {
namespace {

using Fold = ViewFold<std::int32_t, long long>;

// Tickets on each chunk from every column block of a view fold x cols wide read in column blocks
// of 2^shift view columns, as fold_after_column_block takes them.
std::vector<unsigned> count_tickets(const Fold& f) {
  const std::size_t view_cols = f.cols * f.fold, chunk = chunk_columns(f);
  std::vector<unsigned> tickets(ceil_div(f.cols, chunk), 0);
  for (std::size_t first = 0; first < view_cols; first += chunk) {
    const std::size_t end = first + chunk < view_cols ? first + chunk : view_cols;
    for (unsigned slot = 0; slot < 8; ++slot) {
      const std::size_t k1 = fold_ticket_chunk(f, first, end, slot);
      if (k1 == 0) continue;
      EXPECT_LE(k1, tickets.size()) << "a ticket past the last chunk, view columns " << first;
      if (k1 <= tickets.size()) ++tickets[k1 - 1];
    }
  }
  return tickets;
}

void expect_every_chunk_added_once(const Fold& f) {
  SCOPED_TRACE(testing::Message() << "cols " << f.cols << ", fold " << f.fold << ", chunk "
                                  << chunk_columns(f));
  const std::vector<unsigned> tickets = count_tickets(f);
  for (std::size_t k = 0; k < tickets.size(); ++k) {
    ASSERT_GT(fold_pairs(f, k), 0u) << "chunk " << k;
    EXPECT_EQ(tickets[k], fold_pairs(f, k)) << "chunk " << k;
  }
}

Fold fold_of(std::size_t cols, unsigned fold, unsigned chunk_shift) {
  return Fold{nullptr, 0, cols, 0, fold, chunk_shift, nullptr, nullptr};
}

TEST(FoldTickets, EveryChunkOfEveryNarrowWidthIsAddedOnce) {
  // Chunks of 4 to 128 view columns (tiles of 1 to 32 units of 4), widths from 1 to 700: chunks
  // wider and narrower than the matrix, phases that start inside a chunk.
  for (unsigned shift = 2; shift <= 7; ++shift)
    for (std::size_t cols = 1; cols <= 700; ++cols) {
      if (cols % 4 == 0) continue;
      expect_every_chunk_added_once(fold_of(cols, cols % 2 == 0 ? 2u : 4u, shift));
    }
}

TEST(FoldTickets, TheShapesTheKernelFoldsAtItsBlockSizes) {
  // The chunk as the launch derives it (segmented_columns.cu's columns_shape), for the large odd
  // widths of the rows-and-columns preset and the GPU tests.
  const std::size_t shapes[][2] = {{65520, 4097}, {65552, 4095}, {32760, 8194},
                                   {16387, 4097}, {32771, 2050}, {8191, 8193}};
  for (const auto& s : shapes)
    for (int block : {32, 64, 128, 256, 512, 1024})
      for (int unroll : {1, 2, 4, 8}) {
        const ColumnView v = column_view(s[0], s[1]);
        if (v.fold == 1) continue;
        const int shift = fold_chunk_shift(column_slab_shape(v.rows, v.cols, block, unroll));
        ASSERT_GE(shift, 0) << "a chunk that is not a power of two";
        expect_every_chunk_added_once(fold_of(s[1], v.fold, static_cast<unsigned>(shift)));
      }
}

TEST(FoldTickets, AChunkThatIsNotAPowerOfTwoHasNoShift) {
  ColumnSlabShape s;
  s.lanes = 4;
  s.tile.width = 32;
  EXPECT_EQ(fold_chunk_shift(s), 7);
  s.tile.width = 24;  // a block of 96 threads could give such a tile
  EXPECT_EQ(fold_chunk_shift(s), -1);
}

}  // namespace
}  // namespace rl::kernels::segmented
