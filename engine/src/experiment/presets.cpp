// The classic ladder's experiments (presets.h). Variants past the classic ladder join the size
// sweep by what the catalog says they take, so a new kernel joins without an edit here.
#include "engine/experiment/presets.h"

#include "engine/catalog/catalog.h"

namespace rl {

namespace {

// Variants past the classic ladder that can join a sweep at block size `block` (or pick their own).
std::vector<std::string> modern_variants(int block) {
  std::vector<std::string> out;
  for (const VariantInfo& v : catalog())
    if (v.family != VariantFamily::SeedLadder && !is_lab(v.family) && !v.is_segmented() &&
        (v.block_sizes.empty() || v.takes_block_size(block)))
      out.push_back(v.id);
  return out;
}

// The labs of the classic posts: int32, 2^24 elements, 256 threads per block.
Preset lab_preset(std::string id, std::string name, std::string description,
                  std::vector<std::string> variants, std::vector<Workspace> workspaces,
                  std::vector<int> unrolls, std::string baseline) {
  Preset p;
  p.id = std::move(id);
  p.name = std::move(name);
  p.description = std::move(description);
  p.spec.variants = std::move(variants);
  p.spec.workspaces = std::move(workspaces);
  p.spec.block_sizes = {256};
  p.spec.unroll_factors = std::move(unrolls);
  p.spec.sizes = {std::uint64_t(1) << 24};
  p.spec.baseline = std::move(baseline);
  return p;
}

void add_lab_presets(std::vector<Preset>& out) {
  out.push_back(lab_preset(
      "divergence", "Divergence lab (N=2^24, block 256)",
      "The classic divergence post measured: the same two paths behind a divergent and a "
      "warp-uniform branch, if/else against a select for cheap and costly bodies, a "
      "loop-invariant branch inside the loop and hoisted, abs by branch and by bit trick. "
      "Speed-ups against the divergent branch; the Code view shows what the compiler made of "
      "each.",
      {"branch_divergent", "branch_uniform", "if_else_cheap", "select_cheap", "if_else_costly",
       "select_costly", "loop_invariant_inside", "loop_invariant_hoisted", "abs_branch",
       "abs_bit_trick"},
      {Workspace::Registers}, {}, "branch_divergent"));
  out.push_back(lab_preset(
      "divergence-sweep", "Divergence lab: mixed warps vs partition (k = 1..128)",
      "A branch on the data, with k of the 256 values on path B (about 12% of warps mixed at "
      "k = 1, 40% at 4, 87% at 16), against the same after a CUB partition that leaves no "
      "warp mixed but reads and writes the input once more: where the lines cross is where "
      "reordering starts to pay.",
      {"branch_data", "branch_partitioned"}, {Workspace::Registers}, {1, 2, 4, 8, 16, 32, 64, 128},
      "branch_data"));
  out.push_back(lab_preset(
      "predicates", "Block-wide predicates (N=2^24, block 256, 1..16 tiles)",
      "The classic posts' __syncthreads_count and __syncthreads_or: counting x >= 200 with the "
      "barrier that counts, a shared-memory tree and warp ballots; finding a 255 with an early "
      "exit against a full scan. U is the tiles per block.",
      {"count_syncthreads_count", "count_shared_tree", "count_ballot", "any_early_exit",
       "any_full_scan"},
      {Workspace::Registers}, {1, 2, 4, 8, 16}, "count_shared_tree"));
  out.push_back(lab_preset(
      "unroll-pragma", "#pragma unroll lab (factors 1..32, N=2^24, block 256)",
      "The classic posts' #pragma unroll: a 32-trip load loop at unroll 1, 2, 4, 8, 16 and 32 "
      "(the whole loop), time against the registers it costs (Code view), and the tree loop kept "
      "rolled against unrolled with the block size known.",
      {"unroll_pragma", "tree_loop_rolled", "tree_loop_unrolled"},
      {Workspace::Registers, Workspace::Shared}, {1, 2, 4, 8, 16, 32}, "tree_loop_rolled"));
}

// Every rows and columns strategy over one matrix of 2^24 elements whose width goes from 32 to
// 2^24 (and two widths that divide nothing: 1000, 4097): where each strategy wins.
Preset rows_and_columns_preset() {
  constexpr std::uint64_t kTotal = std::uint64_t(1) << 24;
  Preset p;
  p.id = "rows-and-columns";
  p.name = "Rows and columns (M x N = 2^24, N = 32..2^24, block 256)";
  p.description =
      "Many sums at once: every row's and every column's sum of one int32 matrix of 2^24 "
      "elements, from 2^19 rows of 32 to one row of 2^24 (plus N = 1000 and 4097, rows rounded "
      "down), with every strategy: a thread, a warp or a block per row, a split row, CUB's "
      "segmented reduce, and columns strided or tiled. Speed-ups against CUB's segmented "
      "reduce at the same shape. The same sweep at 2^28 elements: add --total 2^28 (each "
      "width keeps its N, the rows become 2^28 / N).";
  std::vector<std::uint64_t> cols;
  for (std::uint64_t n = 32; n <= kTotal; n *= 2) cols.push_back(n);
  cols.push_back(1000);
  cols.push_back(4097);
  shapes_at_total(cols, false, kTotal, &p.spec.shapes, nullptr, nullptr);
  for (const VariantInfo& v : catalog())
    if (v.is_segmented()) p.spec.variants.push_back(v.id);
  p.spec.workspaces = {Workspace::Registers};
  p.spec.block_sizes = {256};
  p.spec.baseline = "cub_segmented_rows";
  return p;
}

std::vector<Preset> build() {
  std::vector<Preset> out;
  {
    Preset p;
    p.id = "ladder";
    p.name = "The classic ladder (N=2^24, block 1024)";
    p.description =
        "Every kernel of the classic ladder in its order, at its classic set-up: 2^24 ints, "
        "1024 threads per block, reducing in place in global memory. Speed-ups are against "
        "reduceNeighbored.";
    p.spec.variants = {"reduceNeighbored",    "reduceNeighboredLess",
                       "reduceInterleaved",   "reduceUnroll2",
                       "reduceUnroll4",       "reduceUnroll8",
                       "reduceUnrollWarp8",   "reduceCompleteUnrollWarp8",
                       "reduceCompleteUnroll"};
    p.spec.workspaces = {Workspace::Global};
    p.spec.block_sizes = {1024};
    p.spec.sizes = {std::uint64_t(1) << 24};
    out.push_back(p);
  }
  {
    Preset p;
    p.id = "unroll";
    p.name = "Unroll 1/2/4/8 (N=2^24, block 1024)";
    p.description =
        "What adding U tiles per block before the tree buys, with and without the unrolled last "
        "warp, against reduceNeighbored.";
    p.spec.variants = {"neighbored", "unroll", "unroll_warp_volatile", "complete_unroll_volatile"};
    p.spec.workspaces = {Workspace::Global};
    p.spec.block_sizes = {1024};
    p.spec.unroll_factors = {1, 2, 4, 8};
    p.spec.sizes = {std::uint64_t(1) << 24};
    out.push_back(p);
  }
  {
    Preset p;
    p.id = "block-sizes";
    p.name = "Block-size sweep (N=2^24, blocks 32..1024)";
    p.description =
        "How the block size changes each kernel: more blocks in flight against longer trees. "
        "Warp-unrolled kernels start at 64 threads.";
    p.spec.variants = {"neighbored", "neighbored_less", "interleaved", "reduceUnroll8",
                       "reduceCompleteUnrollWarp8"};
    p.spec.workspaces = {Workspace::Global};
    p.spec.block_sizes = {32, 64, 128, 256, 512, 1024};
    p.spec.sizes = {std::uint64_t(1) << 24};
    out.push_back(p);
  }
  {
    Preset p;
    p.id = "sizes";
    p.name = "Size sweep (N=2^10..2^28, block 1024)";
    p.description =
        "Bandwidth from 2^10 to 2^28 elements against the theoretical bandwidth and the read "
        "floor: "
        "small N is bound by launch latency, large N by DRAM. On the host backend the large "
        "sizes take minutes; cancel keeps what finished.";
    p.spec.variants = {"interleaved", "reduceUnroll8", "complete_unroll_sync"};
    p.spec.workspaces = {Workspace::Global};
    for (const std::string& id : modern_variants(1024)) {
      p.spec.variants.push_back(id);
      // Kernels that keep their work in registers take only that workspace.
      const VariantInfo* v = find_variant_by_id(id);
      if (!v->takes_workspace(Workspace::Global) && v->takes_workspace(Workspace::Registers) &&
          p.spec.workspaces.size() == 1)
        p.spec.workspaces.push_back(Workspace::Registers);
    }
    p.spec.block_sizes = {1024};
    for (int k = 10; k <= 28; ++k) p.spec.sizes.push_back(std::uint64_t(1) << k);
    p.spec.baseline = "interleaved";
    out.push_back(p);
  }
  out.push_back(rows_and_columns_preset());
  add_lab_presets(out);
  return out;
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = build();
  return list;
}

const Preset* find_preset(std::string_view id) {
  for (const Preset& p : presets())
    if (p.id == id) return &p;
  return nullptr;
}

std::string preset_ids() {
  std::string out;
  for (const Preset& p : presets()) out += (out.empty() ? "" : ", ") + p.id;
  return out;
}

int preset_index_of(const ExperimentSpec& spec) {
  for (size_t i = 0; i < presets().size(); ++i) {
    const ExperimentSpec& p = presets()[i].spec;
    if (p.variants == spec.variants && p.workspaces == spec.workspaces &&
        p.block_sizes == spec.block_sizes && p.unroll_factors == spec.unroll_factors &&
        p.sizes == spec.sizes && p.types == spec.types && p.shapes == spec.shapes &&
        p.reduce == spec.reduce)
      return int(i);
  }
  return -1;
}

}  // namespace rl
