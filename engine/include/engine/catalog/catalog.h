// What each reduction variant is: stable id, the classic ladder's name, what it demonstrates, its
// phases, and which workspaces, block sizes and unroll factors it takes (read from the kernels' own
// table, kernels/accepts.h). The GUI, CLI, spec validation and the block model all read this one
// table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/user_kernel_source.h"
#include "engine/core/types.h"

namespace rl {

// The reductions (SeedLadder, Modern, CubReference) sum their input; the labs map each element
// first (kernels/lab.h) and are run by their own presets, never by "all". RowsAndColumns sums
// every row or every column of a matrix: it runs on a spec's shapes, never on its sizes.
enum class VariantFamily {
  SeedLadder,
  Modern,
  CubReference,
  RowsAndColumns,
  DivergenceLab,
  PredicateLab,
  UnrollLab,
  User  // a kernel the user wrote (engine/user/user_kernel.h)
};

// What one run of a variant sums: the whole array to one value, or a rows x cols row-major
// matrix to one value per row (per column).
enum class Reduces { Whole, Rows, Columns };
std::string_view to_string(Reduces r);

struct VariantInfo {
  std::string id;  // stable, used in files and on the command line
  KernelId kernel;
  std::string seed_name;              // the classic kernel name ("reduceInterleaved"); "" if none
  bool seed_name_has_unroll = false;  // "reduceUnroll" + U, e.g. reduceUnroll8
  std::string display_name;
  VariantFamily family = VariantFamily::SeedLadder;
  std::string explanation;  // the idea it demonstrates, 1-3 sentences
  std::vector<std::string> phases;
  std::vector<Workspace> workspaces;
  std::vector<int> block_sizes;  // empty: the variant picks its own (recorded as 0)
  std::vector<int> unroll_factors;
  int vector_width = 1;  // elements per load: 1 scalar, 4 for int4/float4; 0: the library's own
  int default_unroll = 1;
  // Rows of fewer than short_rows_below elements run at short_row_unroll where no factor is
  // asked for (0: default_unroll at every width); with short_rows_per_thread, the threshold is
  // short_rows_below elements for each thread of the block (a block per row, whose threads
  // share a row). default_unroll_at says which.
  std::uint64_t short_rows_below = 0;
  bool short_rows_per_thread = false;
  int short_row_unroll = 0;
  int seed_unroll = 1;              // the factor the classic ladder used (8 for reduceUnrollWarp8)
  bool volatile_last_warp = false;  // relies on warp lock-step; racecheck reports it
  bool has_block_model = true;      // host backend reproduces its partials bit for bit
  int min_compute_capability = 75;  // e.g. 80 for __reduce_add_sync
  std::vector<DType> types{DType::Int32, DType::Float32};
  // true: the total is the sum of the input; false (the labs): a function of the input that
  // only the host model gives (verification compares with it).
  bool sums_input = true;
  // What the unroll axis means for this variant where it is not tiles per block, as an axis
  // title ("k: values of 256 on path B"); empty: the usual unroll factor.
  std::string unroll_meaning;
  Reduces reduces = Reduces::Whole;

  // Whether it sums rows or columns of a matrix (one output each): runs on shapes only.
  bool is_segmented() const { return reduces != Reduces::Whole; }
  bool takes_workspace(Workspace w) const;
  bool takes_block_size(int b) const;
  bool takes_unroll(int u) const;
  // The factor a run at rows of `cols` elements and blocks of `block` threads uses where none
  // is asked for (cols 0: a whole array, or no shape known; block 0: not known).
  int default_unroll_at(std::uint64_t cols, int block = 0) const;
  // "reduceUnroll8" for unroll variants, the plain classic name otherwise, the id if none.
  std::string seed_label(int unroll) const;
};

const std::vector<VariantInfo>& catalog();
const VariantInfo* find_variant_by_id(std::string_view id);
const VariantInfo* find_variant_by_kernel(KernelId k);

// Resolves an id or a classic name. "reduceUnroll8" gives the unroll variant and sets *unroll to 8;
// a plain id leaves *unroll unset. Case-sensitive, as the classic ladder's names are.
struct VariantRef {
  const VariantInfo* variant = nullptr;
  std::optional<int> unroll;
};
std::optional<VariantRef> resolve_variant(std::string_view name);

// Kernels the user wrote, kept beside the built-in table: find_variant_by_id and resolve_variant
// find them (after the built-in ones), catalog() never lists them. Only
// engine/user/user_kernel.h's register_user_kernel adds one, after its checks; adding a name
// again replaces its source (entries stay valid for the life of the process). Thread-safe.
const VariantInfo* add_user_variant(const UserKernelSource& k);
std::optional<UserKernelSource> user_variant_source(std::string_view id);
std::vector<std::string> user_variant_ids();

std::string_view to_string(VariantFamily f);
// The families in the order pickers list them, each with its heading there ("The classic
// ladder", "CUB references", ...): the reductions first, then the labs, the user's kernels last.
struct FamilyHeading {
  VariantFamily family;
  std::string_view heading;
};
const std::vector<FamilyHeading>& family_headings();
bool is_lab(VariantFamily f);

}  // namespace rl
