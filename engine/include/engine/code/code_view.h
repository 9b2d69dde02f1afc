// The Code view's questions: source, PTX, SASS, resource usage and the diff for
// variant X at block size B, unroll U, type T, answered from the data embedded at build time
// (code_data.h). Plain C++, no Qt, no CUDA calls: the app, the CLI and the tests share it.
#pragma once

#include <algorithm>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/code/line_diff.h"
#include "engine/code/occupancy.h"
#include "engine/code/sass_counts.h"
#include "engine/experiment/spec.h"

namespace rl::code {

struct CodeQuery {
  std::string variant;  // catalog id or classic name ("reduceUnroll8" also sets the unroll)
  int block_size = 0;   // 0: 256, or the variant's own when it takes none
  int unroll = 0;       // 0: the variant's default
  DType type = DType::Int32;
  std::optional<Workspace> workspace;  // default: the variant's first
};

struct SourceLine {
  std::string text;
  std::string file;   // "kernels/seed_ladder.cu"; "" for the header line of a span
  int file_line = 0;  // 1-based line in that file
  bool in_kernel = false;
  std::string phase;  // the catalog phase this line belongs to (kernel lines only), or ""
};

struct Resources {
  int registers = 0;      // per thread
  int static_shared = 0;  // bytes per block
  int local = 0;          // bytes per thread of local memory (spills, stack arrays)
  int stack = 0;
};

// Where the instructions from `offset` on (to the next entry) came from: a source line, from the
// build's line table (nvdisasm -g of the -lineinfo kernels). file "" where the compiler gave none.
struct LinePosition {
  std::uint64_t offset = 0;
  std::string file;  // "kernels/seed_ladder.cu"
  int line = 0;
};

struct CodeEntry {
  const VariantInfo* variant = nullptr;
  CodeQuery query;  // resolved: every field set
  std::vector<SourceLine> source;
  std::map<std::string, std::string> sass;     // "sm_90" -> text, every function of the key
  std::map<std::string, std::string> ptx;      // "compute_90" -> text
  std::map<std::string, Resources> resources;  // "sm_90" -> the largest of its functions
  std::vector<std::string> functions;          // demangled names of the kernels
  std::vector<std::string> mangled;            // the same, as the binary names them
  // "sm_90" -> mangled function -> its line table, by offset.
  std::map<std::string, std::map<std::string, std::vector<LinePosition>>> lines;
  int dynamic_shared = 0;  // bytes per block the launch adds
  std::string missing;     // why SASS/PTX are absent for this instantiation, or ""

  std::string source_text() const;
  std::optional<Occupancy> occupancy(const std::string& arch) const;
  // The kernel's own static shared memory on `arch`: cuobjdump's SHARED less the 1 KB the
  // system reserves per block on sm_80 and later, which it counts in (the CUDA runtime's
  // cudaFuncAttributes::sharedSizeBytes leaves it out: 0 for a kernel with no __shared__).
  int static_shared(const std::string& arch) const;
};

// Resolves defaults and checks the query against the catalog; throws rl::Error when the
// variant does not take the block size, unroll, type or workspace.
CodeQuery resolve_query(const CodeQuery& q);
// The entry for a query (throws rl::Error as resolve_query does).
CodeEntry find_code(const CodeQuery& q);

// The catalog phase of v that a code-view mark kind ("load", "tree", "last warp", "block sum",
// "write", ...: scripts/code_view_sources.py) stands for: SourceLine::phase holds it.
std::string mark_phase(const VariantInfo* v, const std::string& kind);

// The rung before a variant in the ladder: the catalog's order, where a classic variant with the
// classic volatile last warp steps back over the race-free twins (the classic ladder's own chain).
const VariantInfo* previous_rung(const VariantInfo& v);

std::vector<DiffLine> source_diff(const CodeEntry& from, const CodeEntry& to);
// The same for the kernels of two measured points (a story's "what changed", views/story.h:
// SourceDiffer); nullopt with *why where either has no source in this build.
std::optional<std::vector<DiffLine>> point_source_diff(const PointSpec& from, const PointSpec& to,
                                                       std::string* why);

// Architectures in the order of their number: "sm_75" before "sm_90" before "sm_100" (a string
// order puts "sm_100" first). Every list of architectures people see is in this order.
bool arch_before(const std::string& a, const std::string& b);
// The keys of a per-architecture map (SASS, resources) in that order.
template <typename Map>
std::vector<std::string> archs_in_order(const Map& by_arch) {
  std::vector<std::string> out;
  for (const auto& [arch, value] : by_arch) out.push_back(arch);
  std::sort(out.begin(), out.end(), arch_before);
  return out;
}

// Architectures with SASS ("sm_75", "sm_90") and PTX ("compute_90") in this build, in order.
std::vector<std::string> sass_archs();
std::vector<std::string> ptx_archs();
// Why this build has no SASS at all, or "".
std::string sass_unavailable_reason();
// Why this build has no line tables (no nvdisasm), or "".
std::string lines_unavailable_reason();
// Variant ids with a source span (every catalog variant, when the build is whole).
std::vector<std::string> variants_with_source();
// Number of instantiation keys with SASS.
std::size_t instance_count();

}  // namespace rl::code
