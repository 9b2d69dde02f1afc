// The block model's counts of a point (model_counts.h): make_trace's launch totals, the
// finishing pass, the launches; cached per point shape. Their JSON is model_counts_json.cpp.
#include "engine/trace/model_counts.h"

#include <map>
#include <mutex>
#include <tuple>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/trace/trace.h"
#include "kernels/launch.h"

namespace rl {

namespace {

using Key = std::tuple<std::string, int, int, int, std::uint64_t, int>;

Key key_of(const PointSpec& p) {
  return {p.variant, int(p.workspace), p.block_size, p.unroll, p.size, int(p.type)};
}

TraceRequest request_of(const PointSpec& p, std::uint64_t size) {
  TraceRequest r;
  r.variant = p.variant;
  r.block_size = p.block_size;
  r.unroll = p.unroll;
  r.workspace = p.workspace;
  r.size = size;
  r.type = p.type;
  return r;
}

// The single pass's first-kernel totals at N without generating N elements. Its grid is capped
// (each block then walks several tiles), and block 0 reads the n % 4 scalars past the last whole
// vector, so tracing block 0 at N generates the whole input (1 GiB at 2^28). But only the load
// step's reads depend on N: the other counters are per block times the grid. So trace N' = the
// grid's whole tiles (same grid, one tile to generate) and put N's reads in place of N''s.
// The cluster kernel plans as the single pass does, rounded up to whole clusters of 8 (the trace
// does the same).
StepCounters single_pass_totals(const PointSpec& p, bool cluster, std::uint64_t* grid) {
  kernels::LaunchArgs args;
  args.kernel = KernelId::SinglePass;
  args.type = p.type;
  args.workspace = Workspace::Registers;
  args.block_size = p.block_size;
  args.unroll = p.unroll;
  args.n = p.size;
  kernels::LaunchPlan plan;
  if (kernels::plan_launch(args, &plan) != cudaSuccess)
    throw Error(p.variant + ": no launch of N = " + std::to_string(p.size));
  if (cluster) plan.grid = (plan.grid + 7) / 8 * 8;
  const std::uint64_t tile_elements = 4ull * std::uint64_t(p.block_size) * std::uint64_t(p.unroll);
  const std::uint64_t whole_tiles = std::uint64_t(plan.grid) * tile_elements;
  const Trace t = make_trace(request_of(p, whole_tiles));
  if (t.grid != plan.grid) throw Error(p.variant + ": the grid of N' differs from N's");
  StepCounters c = t.launch_totals;
  c.loads = c.loads - whole_tiles + p.size;  // every element is read once, by whichever block
  *grid = t.grid;
  return c;
}

ModelCounts compute(const PointSpec& p) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  ModelCounts c;
  if (v->kernel == KernelId::SinglePass || v->kernel == KernelId::ClusterSinglePass ||
      v->kernel == KernelId::EpochPass) {
    c.first_kernel = single_pass_totals(p, v->kernel == KernelId::ClusterSinglePass, &c.grid);
    c.launches = 1;  // one kernel holds the total when it ends: no second kernel
    return c;
  }
  const Trace t = make_trace(request_of(p, p.size));
  c.grid = t.grid;
  c.first_kernel = t.launch_totals;
  c.launches = 2;
  c.finish = finish_pass_counts(t.grid);
  return c;
}

struct Cache {
  std::mutex mutex;
  std::map<Key, std::optional<ModelCounts>> entries;
};

Cache& cache() {
  static Cache c;
  return c;
}

constexpr std::size_t kMaxCached = 4096;

}  // namespace

StepCounters finish_pass_counts(std::uint64_t m) {
  // The finishing kernel is the interleaved tree in shared memory at B = 1024, whose load phase
  // reads the m partials (thread t adds partials t, t + 1024, ...) instead of one tile.
  static const StepCounters one_tile = [] {
    TraceRequest r;
    r.variant = "interleaved";
    r.block_size = kernels::kFinishBlockSize;
    r.workspace = Workspace::Shared;
    return make_trace(r).block_totals;  // size 0: one tile of 1024 elements, one block
  }();
  StepCounters c = one_tile;
  c.loads = c.loads - std::uint64_t(kernels::kFinishBlockSize) + m;
  return c;
}

std::optional<ModelCounts> model_counts(const PointSpec& p) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  // The rows traces draw a block of a matrix; a matrix point's counts (one kernel, no finishing
  // pass, its shape beside N) are not modelled here.
  if (v == nullptr || !has_trace(*v) || v->is_segmented() || p.size == 0) return std::nullopt;
  const Key key = key_of(p);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (auto it = c.entries.find(key); it != c.entries.end()) return it->second;
  }
  std::optional<ModelCounts> counts;
  try {
    counts = compute(p);
  } catch (const std::exception&) {
    counts.reset();  // a shape the model does not take: no counts, as for a variant without one
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.entries.size() >= kMaxCached) c.entries.clear();
  c.entries.emplace(key, counts);
  return counts;
}

std::optional<ModelCounts> counts_of(const PointResult& r) {
  return r.counts ? r.counts : model_counts(r.point);
}

}  // namespace rl
