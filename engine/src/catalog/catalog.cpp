// The variant table. Classic ladder entries are here; variants past the classic ladder are appended
// by catalog_modern.cpp (append_modern_variants).
#include "engine/catalog/catalog.h"

#include <algorithm>
#include <charconv>

#include "kernels/accepts.h"

#include "catalog/catalog_labs.h"
#include "catalog/catalog_modern.h"
#include "catalog/catalog_segmented.h"
#include "catalog/catalog_user.h"

namespace rl {

namespace {

// The powers of two of a range of kernels/accepts.h; empty for "the kernel picks its own".
std::vector<int> expand(kernels::Pow2Range r) {
  std::vector<int> out;
  if (r.empty()) return out;
  for (int v = r.min; v <= r.max; v *= 2) out.push_back(v);
  return out;
}

const std::vector<std::string> kTreePhases(const std::string& tree) {
  return {"load: global workspace uses the input tile in place; shared copies it to shared memory",
          tree, "thread 0 writes the block's partial sum", "finish: one block sums the partials"};
}

VariantInfo ladder(std::string id, KernelId k, std::string seed, std::string display,
                   std::string explanation, std::vector<std::string> phases) {
  VariantInfo v;
  v.id = std::move(id);
  v.kernel = k;
  v.seed_name = std::move(seed);
  v.display_name = std::move(display);
  v.family = VariantFamily::SeedLadder;
  v.explanation = std::move(explanation);
  v.phases = std::move(phases);
  return v;
}

// The classic ladder's warp-level kernels come as a volatile form and a race-free twin.
void add_warp_pair(std::vector<VariantInfo>& out, const std::string& id, KernelId vol,
                   KernelId sync, const std::string& seed, const std::string& display,
                   const std::string& explanation, const std::vector<std::string>& phases,
                   bool seed_has_unroll) {
  VariantInfo v = ladder(id + "_volatile", vol, seed, display + " (volatile)",
                         explanation +
                             " The last warp uses the classic volatile pointer and relies on the "
                             "warp running in lock-step, which Volta and later GPUs do not "
                             "promise: compute-sanitizer racecheck reports it as a race.",
                         phases);
  v.default_unroll = 8;
  v.seed_unroll = 8;
  v.seed_name_has_unroll = seed_has_unroll;
  v.volatile_last_warp = true;
  out.push_back(v);

  VariantInfo s = v;
  s.id = id + "_sync";
  s.kernel = sync;
  s.seed_name.clear();
  s.seed_name_has_unroll = false;
  s.display_name = display + " (__syncwarp)";
  s.explanation = explanation +
                  " Race-free twin of the classic kernel: the same steps in the last warp, each "
                  "separated by __syncwarp(), so it is correct on every architecture.";
  s.volatile_last_warp = false;
  out.push_back(s);
}

std::vector<VariantInfo> build_catalog() {
  std::vector<VariantInfo> out;
  out.push_back(ladder(
      "neighbored", KernelId::Neighbored, "reduceNeighbored", "Neighbored pairs",
      "The direct tree: the stride doubles each step and thread tid adds its neighbour when tid "
      "is a multiple of 2*stride. Working threads are scattered, so every warp diverges.",
      kTreePhases("tree: stride 1, 2, 4, ...; if (tid % (2*stride) == 0) ws[tid] += "
                  "ws[tid+stride]; __syncthreads() after every step")));
  out.push_back(ladder(
      "neighbored_less", KernelId::NeighboredLess, "reduceNeighboredLess",
      "Neighbored, less divergence",
      "The same pairs, but thread tid works on index 2*stride*tid, so the working threads are "
      "packed into the first warps. Fewer warps diverge; idle warps still wait at every barrier.",
      kTreePhases("tree: stride 1, 2, 4, ...; index = 2*stride*tid; if (index < blockDim.x) "
                  "ws[index] += ws[index+stride]; __syncthreads()")));
  out.push_back(ladder(
      "interleaved", KernelId::Interleaved, "reduceInterleaved", "Interleaved pairs",
      "The stride halves from blockDim.x/2 and threads tid < stride add ws[tid+stride]: working "
      "threads and their accesses are contiguous, so warps retire whole and loads coalesce.",
      kTreePhases("tree: stride blockDim.x/2, ..., 1; if (tid < stride) ws[tid] += "
                  "ws[tid+stride]; __syncthreads()")));
  VariantInfo unroll = ladder(
      "unroll", KernelId::Unroll, "reduceUnroll", "Unrolled blocks (U tiles per block)",
      "Each block first adds U tiles element-wise (U loads in flight per thread), then runs the "
      "interleaved tree: U times fewer blocks and __syncthreads() calls for the same data.",
      {"pre-reduce: thread tid sums x[base + tid + k*blockDim.x] for k < U (tail read as 0)",
       "tree: interleaved, __syncthreads() after every step",
       "thread 0 writes the block's partial sum", "finish: one block sums the partials"});
  unroll.seed_name_has_unroll = true;
  unroll.default_unroll = 8;
  unroll.seed_unroll = 8;
  out.push_back(unroll);

  const std::vector<std::string> warp_phases{
      "pre-reduce: thread tid sums U tiles (tail read as 0)",
      "tree: interleaved with __syncthreads() while stride > 32",
      "last warp: threads 0..31 add strides 32, 16, 8, 4, 2, 1 without __syncthreads()",
      "thread 0 writes the block's partial sum", "finish: one block sums the partials"};
  add_warp_pair(out, "unroll_warp", KernelId::UnrollWarpVolatile, KernelId::UnrollWarpSync,
                "reduceUnrollWarp", "Unrolled + last warp unrolled",
                "Once 64 values are left, only the first warp works, so the last six steps need "
                "no block barrier.",
                warp_phases, true);
  const std::vector<std::string> chain_phases{
      "pre-reduce: thread tid sums U tiles (tail read as 0)",
      "tree: if-chain on blockDim.x (>=1024: +512, >=512: +256, >=256: +128, >=128: +64), "
      "__syncthreads() after each",
      "last warp: strides 32..1 without __syncthreads()", "thread 0 writes the block's partial sum",
      "finish: one block sums the partials"};
  add_warp_pair(out, "complete_unroll_warp", KernelId::CompleteUnrollWarpVolatile,
                KernelId::CompleteUnrollWarpSync, "reduceCompleteUnrollWarp",
                "Completely unrolled (blockDim.x if-chain)",
                "The tree loop is written out as an if-chain on blockDim.x: no loop counter and "
                "no loop branch; the conditions are uniform across the block, so they never "
                "diverge.",
                chain_phases, true);
  add_warp_pair(out, "complete_unroll", KernelId::CompleteUnrollVolatile,
                KernelId::CompleteUnrollSync, "reduceCompleteUnroll",
                "Completely unrolled (template block size)",
                "The block size is a template parameter, so the compiler removes the steps that "
                "do not apply and their barriers, and schedules the rest freely.",
                chain_phases, false);
  append_modern_variants(out);
  append_segmented_variants(out);
  append_lab_variants(out);
  for (VariantInfo& v : out) take_kernel_accepts(v);
  return out;
}

}  // namespace

// What the kernel is built for, from the kernels' table: the catalog restates none of it.
void take_kernel_accepts(VariantInfo& v) {
  const kernels::KernelAccepts a = kernels::accepts(v.kernel);
  v.block_sizes = expand(a.block_sizes);
  v.unroll_factors = expand(a.unroll_factors);
  v.vector_width = a.vector_width;
  v.types.clear();
  for (DType t : {DType::Int32, DType::Float32})
    if (a.takes_type(t)) v.types.push_back(t);
  v.workspaces.clear();
  for (Workspace w : {Workspace::Global, Workspace::Shared, Workspace::Registers})
    if (a.takes_workspace(w)) v.workspaces.push_back(w);
}

bool VariantInfo::takes_workspace(Workspace w) const {
  return std::find(workspaces.begin(), workspaces.end(), w) != workspaces.end();
}
bool VariantInfo::takes_block_size(int b) const {
  return block_sizes.empty()
             ? b == 0
             : std::find(block_sizes.begin(), block_sizes.end(), b) != block_sizes.end();
}
bool VariantInfo::takes_unroll(int u) const {
  return std::find(unroll_factors.begin(), unroll_factors.end(), u) != unroll_factors.end();
}
int VariantInfo::default_unroll_at(std::uint64_t cols, int block) const {
  const std::uint64_t below = short_rows_per_thread
                                  ? short_rows_below * std::uint64_t(std::max(block, 0))
                                  : short_rows_below;
  return cols != 0 && cols < below ? short_row_unroll : default_unroll;
}
std::string VariantInfo::seed_label(int unroll) const {
  if (seed_name.empty()) return id;
  return seed_name_has_unroll ? seed_name + std::to_string(unroll) : seed_name;
}

const std::vector<VariantInfo>& catalog() {
  static const std::vector<VariantInfo> table = build_catalog();
  return table;
}

const VariantInfo* find_variant_by_id(std::string_view id) {
  for (const auto& v : catalog())
    if (v.id == id) return &v;
  return find_user_variant(id);
}

const VariantInfo* find_variant_by_kernel(KernelId k) {
  for (const auto& v : catalog())
    if (v.kernel == k) return &v;
  return nullptr;
}

std::optional<VariantRef> resolve_variant(std::string_view name) {
  if (const VariantInfo* v = find_variant_by_id(name)) return VariantRef{v, std::nullopt};
  for (const auto& v : catalog()) {
    if (v.seed_name.empty()) continue;
    if (!v.seed_name_has_unroll) {
      if (name == v.seed_name) return VariantRef{&v, std::nullopt};
      continue;
    }
    // "reduceUnroll8": the classic name followed by the unroll factor, digits only.
    if (name.size() <= v.seed_name.size() || name.substr(0, v.seed_name.size()) != v.seed_name)
      continue;
    const std::string_view digits = name.substr(v.seed_name.size());
    int u = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), u);
    if (ec == std::errc() && p == digits.data() + digits.size()) return VariantRef{&v, u};
  }
  return std::nullopt;
}

std::string_view to_string(VariantFamily f) {
  switch (f) {
    case VariantFamily::SeedLadder:
      return "classic ladder";
    case VariantFamily::Modern:
      return "past the classic ladder";
    case VariantFamily::CubReference:
      return "CUB reference";
    case VariantFamily::RowsAndColumns:
      return "rows and columns of a matrix";
    case VariantFamily::DivergenceLab:
      return "divergence lab";
    case VariantFamily::PredicateLab:
      return "block-wide predicates lab";
    case VariantFamily::UnrollLab:
      return "#pragma unroll lab";
    case VariantFamily::User:
      return "your kernel";
  }
  return "?";
}

const std::vector<FamilyHeading>& family_headings() {
  static const std::vector<FamilyHeading> headings = {
      {VariantFamily::SeedLadder, "The classic ladder"},
      {VariantFamily::Modern, "Past the classic ladder"},
      {VariantFamily::CubReference, "CUB references"},
      {VariantFamily::RowsAndColumns, "Rows and columns of a matrix"},
      {VariantFamily::DivergenceLab, "Divergence lab"},
      {VariantFamily::PredicateLab, "Block-wide predicates lab"},
      {VariantFamily::UnrollLab, "#pragma unroll lab"},
      {VariantFamily::User, "Your kernels"}};
  return headings;
}

std::string_view to_string(Reduces r) {
  switch (r) {
    case Reduces::Whole:
      return "whole";
    case Reduces::Rows:
      return "rows";
    case Reduces::Columns:
      return "columns";
  }
  return "?";
}

bool is_lab(VariantFamily f) {
  return f == VariantFamily::DivergenceLab || f == VariantFamily::PredicateLab ||
         f == VariantFamily::UnrollLab;
}

}  // namespace rl
