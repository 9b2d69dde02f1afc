// Internal: the shape of a columns launch (segmented_columns.cu), from its LaunchArgs alone, as
// segmented_shape.h's pieces give it: the grid, the matrix as the tiled kernel reads it, the
// slabs and how their sums are combined, and the scratch that needs. Plain host C++: the planner
// and the launcher compute the same shape, so a float sum is added in the same order on every
// launch and every GPU.
#pragma once

#include <cstddef>

#include "kernels/launch.h"
#include "segmented_shape.h"

namespace rl::kernels::segmented {

struct ColumnsShape {
  dim3 grid;
  // The matrix as the tiled kernel reads it (column_view); fold > 1: its sums go to the view
  // sums at the front of the scratch, and the fold's tickets (one per chunk) to its end.
  ColumnView view;
  ColumnSlabShape slabs;
  // Slabs per group: all of them when one block adds them in two rounds, else about the square
  // root of the slabs.
  std::size_t slab_group = 1;
  std::size_t groups = 1;
  std::size_t view_sums_bytes = 0;
  // The fold's chunks: the view columns of one column block, 2^chunk_shift of them
  // (fold_chunk_shift; -1: not a power of two), a ticket each.
  int chunk_shift = 0;
  std::size_t fold_tickets = 0;
  // int32 slabs without a fold: the slab sums handed on as counted words this many words apart
  // (counted_word_stride), no slab sums, no tickets (column_tiled); 0 otherwise.
  std::size_t word_stride = 0;
  std::size_t scratch_bytes = 0;
};

ColumnsShape columns_shape(const LaunchArgs& a);

}  // namespace rl::kernels::segmented
