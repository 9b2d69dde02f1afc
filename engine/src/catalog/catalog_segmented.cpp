// Many reductions at once: one sum per row, or per column, of a row-major rows x cols matrix
// (int32 summed in int64, float32 in float). Kernels: kernels/segmented_rows.cu,
// segmented_columns.cu. Block sizes, unroll factors, types and workspaces come from
// kernels/accepts.h (catalog.cpp); which dimension each sums is said here.
#include "catalog/catalog_segmented.h"

namespace rl {

namespace {

const std::string kUnrollMeaning =
    " Unroll U: loads each thread has in flight before it adds them.";
const std::string kWrite = "write: one sum per row (column) to its place in the output, in order";

VariantInfo segmented(std::string id, KernelId k, Reduces reduces, std::string display,
                      std::string explanation, std::vector<std::string> phases,
                      bool has_unroll = true) {
  VariantInfo v;
  v.id = std::move(id);
  v.kernel = k;
  v.display_name = std::move(display);
  v.family = VariantFamily::RowsAndColumns;
  v.reduces = reduces;
  v.explanation = std::move(explanation) + (has_unroll ? kUnrollMeaning : "");
  v.phases = std::move(phases);
  v.default_unroll = has_unroll ? 4 : 1;
  return v;
}

void add_rows(std::vector<VariantInfo>& out) {
  out.push_back(segmented(
      "row_per_thread", KernelId::RowPerThread, Reduces::Rows, "A thread (or a few lanes) per row",
      "Each row gets G lanes, a power of two just large enough that each lane has about U "
      "16-byte loads (one lane for rows of up to 4U elements, up to 32 for long rows), and a "
      "warp takes 32 / G consecutive rows at once: no barriers, no shared memory, and a warp "
      "reads whole neighbouring rows. It wins for thousands of short rows (a few dozen to a few "
      "hundred elements), where a whole warp per row would leave lanes idle. Unless asked "
      "otherwise, rows of fewer than 128 elements run at U = 2 and longer ones at U = 4.",
      {"load: lane l of a G-lane group adds 16-byte vectors l, l + G, ... of its row, U loads in "
       "flight",
       "group sum: __shfl_down_sync tree over the G lanes (offsets G/2..1)", kWrite}));
  // Four loads a lane where a row has at least 8 lanes of four (128 elements), two below that:
  // twice the lanes per short row, so twice the threads to spread over the SMs, and the U = 2
  // instance's 32 registers keep every warp slot (U = 4's 40 leave three quarters). Measured at
  // 2^24 (docs/decisions.md): on an H200 U = 4 reads 128 and 256 elements 7-9 % faster than
  // U = 2, and 32 elements 12 % slower; on an H100 U = 2 reads 32 and 64 elements 12 % and 7 %
  // faster, 128 to 1000 elements 3 %.
  out.back().short_rows_below = 128;
  out.back().short_row_unroll = 2;
  out.push_back(segmented(
      "row_per_warp", KernelId::RowPerWarp, Reduces::Rows, "A warp per row",
      "The 32 lanes of a warp read a row side by side (coalesced) and a shuffle tree adds "
      "their sums: no shared memory and no block barrier. The all-rounder for rows of a few "
      "hundred to a few thousand elements.",
      {"load: lane l adds elements l, l + 32, ... of its warp's row, U loads in flight",
       "warp sum: __shfl_down_sync tree (offsets 16..1)", kWrite}));
  out.push_back(segmented(
      "row_per_block", KernelId::RowPerBlock, Reduces::Rows, "A block per row",
      "A whole block reads one row and adds its warps' sums through shared memory: as many "
      "loads in flight per row as a block holds. It wins for long rows (tens of thousands of "
      "elements) with enough rows to fill the GPU. Unless asked otherwise, rows of fewer than "
      "16 elements a thread (4096 at 256 threads) run at U = 2 and longer ones at U = 4.",
      {"load: thread t adds elements t, t + B, ... of its block's row, U loads in flight",
       "block sum: warp shuffles, warp sums through shared memory, __syncthreads(), warp 0 adds "
       "them",
       kWrite}));
  // Four loads a thread where the block's four 16-byte loads each fit in the row (16 elements
  // a thread), two below: at U = 4 a row of 2048 elements keeps half of a 256-thread block
  // idle through its one round of loads. Measured at 8192 x 2048 (docs/decisions.md): U = 2
  // 12 % faster than U = 4 on an H200, 3 % on two H100s; as fast or faster from 4096 elements
  // at U = 4, and U = 2 as fast at 1000.
  out.back().short_rows_below = 16;
  out.back().short_rows_per_thread = true;
  out.back().short_row_unroll = 2;
  out.push_back(segmented(
      "row_split", KernelId::RowSplit, Reduces::Rows, "Several blocks per row (split)",
      "Each long row is cut into pieces, one block each; every piece hands its sum on with "
      "integer atomics (the single pass's finish, one per row) and the piece that counts last "
      "writes the row's sum, in the same launch: no piece's sum is written to be read again. "
      "It wins when there are too few rows to fill the GPU with a block per row, down to a "
      "single row of millions of elements.",
      {"load: block (r, k) adds piece k of row r, U loads in flight",
       "block sum: warp shuffles, warp sums through shared memory",
       "hand on: int32 adds a count and its sum to row r's 64-bit word, float32 its sum to row "
       "r's exponent windows (exact); the piece that counts last writes the row's sum",
       kWrite}));
  out.push_back(segmented(
      "cub_segmented_rows", KernelId::CubSegmentedRows, Reduces::Rows,
      "CUB DeviceSegmentedReduce::Sum (a segment per row)",
      "The library reference: cub::DeviceSegmentedReduce::Sum with one segment per row and "
      "CUB's own tuning. It picks its own block size (recorded as 0); unroll is not used.",
      {"CUB's segmented reduction kernel: a block per segment", kWrite}, false));
}

void add_columns(std::vector<VariantInfo>& out) {
  out.push_back(segmented(
      "column_strided", KernelId::ColumnStrided, Reduces::Columns, "A warp per column (strided)",
      "The lesson in coalescing: the lanes of a warp walk down one column, so each load of "
      "a warp touches 32 addresses a whole row apart, 32 memory transactions for 128 useful "
      "bytes. Kept to show what the tiled column kernel avoids.",
      {"load: lane l adds rows l, l + 32, ... of its warp's column, U loads in flight",
       "warp sum: __shfl_down_sync tree", kWrite}));
  out.push_back(segmented(
      "column_tiled", KernelId::ColumnTiled, Reduces::Columns, "Columns, tiled (coalesced)",
      "A block is a tile of threads along the row (neighbouring columns, one coalesced load "
      "per warp) by several rows, so even a matrix of a few columns is read in whole "
      "consecutive rows; each thread keeps running sums down its columns of a slab of rows "
      "(four neighbouring columns from one 16-byte load when the width is a multiple of 4; "
      "a large matrix of another width is read 2 or 4 rows as one, whose sums the last blocks "
      "fold back into its columns; else one), the tile's threads of a column are added in "
      "shared memory, and the slabs' sums are combined in the same launch: int32 slabs add "
      "theirs to each column's counted word with one atomic, the last to count writes the "
      "column; float32 slabs write theirs and the last blocks to finish add them in a fixed "
      "order. The way to sum columns at full bandwidth.",
      {"load: the K threads of a column in a tile add every K-th row of its slab, U loads in "
       "flight (16-byte loads of four columns when the width, or that of 2 or 4 rows read as "
       "one, is a multiple of 4)",
       "block sum: the tile's threads of a column added in shared memory by a fixed tree",
       "slabs, int32: each adds its column sums to the columns' counted words (count and sum "
       "in one 64-bit atomic); the slab that counts last writes the column's sum",
       "slabs, float32: the last block of each group of slabs to finish adds the group's "
       "column sums, the last group every group's, in a fixed order (tickets counted with "
       "atomics); 2 or 4 rows read as one: the last block of each chunk of columns folds their "
       "sums",
       kWrite}));
  // Eight loads in flight: a short matrix's threads each add 16 rows in two round trips, not
  // four, and a slabbed one needs half the threads, so half the slab sums to add at the end.
  // Measured on an H100 (docs/decisions.md): 0.5-2 us faster at 2^24 from 32 to 2^15 columns,
  // and 5-8 % at 2^28 with 16 to 64 rows.
  out.back().default_unroll = 8;
}

}  // namespace

void append_segmented_variants(std::vector<VariantInfo>& out) {
  add_rows(out);
  add_columns(out);
}

}  // namespace rl
