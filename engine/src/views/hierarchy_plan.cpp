// The hierarchy plan: the levels above the block, in the order a multi-GPU run does them
// (docs/multi-gpu.md, "What runs"). Grids come from the kernels' own launch planning where
// that needs no GPU; shards from multi_spec's split; bytes from the partial's size.
#include "engine/views/hierarchy_plan.h"

#include <algorithm>

#include "kernels/launch.h"

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"

namespace rl {

namespace {

std::string n(std::uint64_t v) {
  return std::to_string(v);
}

std::string bytes(std::uint64_t b) {
  if (b < 4096) return n(b) + " bytes";
  if (b < (std::uint64_t(1) << 30)) return n(b >> 20) + " MiB";
  return std::to_string(double(b) / double(std::uint64_t(1) << 30)).substr(0, 4) + " GiB";
}

// The blocks of the first kernel for `elements`, or 0 where the GPU (or CUB) chooses.
kernels::LaunchPlan plan_of(const HierarchyPlan& p, const VariantInfo& v, std::uint64_t elements) {
  kernels::LaunchPlan plan;
  if (v.kernel == KernelId::VectorizedGridStride || v.kernel == KernelId::CubDeviceReduce) {
    plan.grid = 0;
    plan.partial_count = v.kernel == KernelId::CubDeviceReduce ? 0 : 1;
    plan.needs_finish = v.kernel != KernelId::CubDeviceReduce;
    return plan;
  }
  kernels::LaunchArgs a;
  a.kernel = v.kernel == KernelId::ClusterSinglePass ? KernelId::SinglePass : v.kernel;
  a.type = p.request.type;
  a.workspace =
      v.kernel == KernelId::ClusterSinglePass ? Workspace::Registers : p.request.workspace;
  a.block_size = p.request.block_size;
  a.unroll = p.request.unroll;
  a.n = elements;
  if (kernels::plan_launch(a, &plan) != cudaSuccess)
    throw Error(p.label + ": no launch of N = " + n(elements) + " elements");
  if (v.kernel == KernelId::ClusterSinglePass) plan.grid = (plan.grid + 7) / 8 * 8;
  return plan;
}

HierarchyShard shard_of(const HierarchyPlan& p, const VariantInfo& v, int rank, std::uint64_t first,
                        std::uint64_t elements, std::uint64_t reduced) {
  HierarchyShard s;
  s.rank = rank;
  s.first = first;
  s.elements = elements;
  if (reduced == 0) return s;  // gather_shards: only the root reduces
  const kernels::LaunchPlan plan = plan_of(p, v, reduced);
  s.grid = plan.grid;
  s.partials = plan.needs_finish ? plan.partial_count : 0;
  s.finishing_pass = plan.needs_finish && plan.partial_count > 1;
  return s;
}

std::string grid_sentence(const HierarchyPlan& p, const HierarchyShard& s, std::uint64_t elements) {
  if (s.grid == 0) return p.grid_note;
  std::string out = n(s.grid) + " blocks over " + n(elements) + " elements";
  if (s.partials == 0)
    return out +
           "; each hands its sum on with an atomic and the last block writes the result: "
           "no partials array, no second kernel";
  out += " write " + n(s.partials) + " partial" + (s.partials == 1 ? "" : "s");
  return out + (s.finishing_pass ? "; a finishing pass (one block) adds them" : "");
}

void add(HierarchyPlan& p, HierarchyLevel level, std::string title, std::string caption,
         std::string phase = "", std::uint64_t moved = 0) {
  p.steps.push_back({level, std::move(title), std::move(caption), std::move(phase), moved});
}

void add_exchange(HierarchyPlan& p) {
  const int G = p.request.gpus;
  const std::string part = n(p.partial_bytes) + "-byte partial";
  switch (p.request.exchange) {
    case Exchange::NcclAllReduce:
      p.exchange_bytes = std::uint64_t(G) * p.partial_bytes;
      add(p, HierarchyLevel::Exchange, "ncclAllReduce",
          "Each GPU's one " + part +
              " enters ncclAllReduce; every GPU ends with the total. Moved "
              "between GPUs: " +
              n(G) + " partials, " + bytes(p.exchange_bytes) + ".",
          "exchange", p.exchange_bytes);
      return;
    case Exchange::NcclReduce:
      p.exchange_bytes = std::uint64_t(G - 1) * p.partial_bytes;
      add(p, HierarchyLevel::Exchange, "ncclReduce to GPU 0",
          "ncclReduce adds the " + n(G) + " partials on the root, GPU 0. Moved between GPUs: " +
              n(G - 1) + " partials, " + bytes(p.exchange_bytes) + ".",
          "exchange", p.exchange_bytes);
      return;
    case Exchange::PeerPartials:
      p.exchange_bytes = std::uint64_t(G - 1) * p.partial_bytes;
      add(p, HierarchyLevel::Exchange, "Peer copies of the partials",
          "cudaMemcpyPeerAsync copies each other GPU's " + part + " to GPU 0 (" +
              bytes(p.exchange_bytes) + " in all), which adds the " + n(G) +
              " with the finishing kernel: as little data as NCCL moves, without NCCL.",
          "exchange", p.exchange_bytes);
      return;
    case Exchange::GatherShards:
      break;  // before the local reduction: add_gather
  }
}

void add_gather(HierarchyPlan& p) {
  const std::size_t elem = dtype_size(p.request.type);
  std::uint64_t moved = 0;
  for (const HierarchyShard& s : p.shards)
    if (s.rank != 0) moved += s.elements * elem;
  p.exchange_bytes = moved;
  add(p, HierarchyLevel::Exchange, "Gather of the shards to GPU 0",
      "The naive way: cudaMemcpyPeerAsync copies every other GPU's whole shard to GPU 0: " +
          bytes(moved) +
          " over the link instead of a few partials, so the link, not DRAM, "
          "bounds it, and GPU 0 then reads all N again.",
      "exchange", moved);
}

}  // namespace

const char* to_string(HierarchyLevel l) {
  switch (l) {
    case HierarchyLevel::Block:
      return "block";
    case HierarchyLevel::Shards:
      return "shards";
    case HierarchyLevel::Grid:
      return "grid";
    case HierarchyLevel::Exchange:
      return "exchange";
    case HierarchyLevel::Total:
      return "total";
  }
  return "?";
}

HierarchyPlan make_hierarchy_plan(const HierarchyRequest& r) {
  const std::optional<VariantRef> ref = resolve_variant(r.variant);
  if (!ref) throw Error("unknown variant " + echo(r.variant) + " (reductionlab-cli variants)");
  const VariantInfo& v = *ref->variant;
  HierarchyPlan p;
  p.request = r;
  p.request.variant = v.id;
  if (ref->unroll) p.request.unroll = *ref->unroll;
  if (!v.takes_workspace(p.request.workspace) && v.workspaces.size() == 1)
    p.request.workspace = v.workspaces.front();
  p.label = v.seed_label(p.request.unroll) + " B=" + n(r.block_size) +
            " U=" + n(std::uint64_t(p.request.unroll));
  if (r.gpus < 1 || r.gpus > HierarchyRequest::kMaxGpus)
    throw Error("GPUs: " + std::to_string(r.gpus) + "; give 1 to " +
                std::to_string(HierarchyRequest::kMaxGpus));
  if (r.size < std::uint64_t(r.gpus))
    throw Error("N = " + n(r.size) + " cannot be split over " + std::to_string(r.gpus) +
                " GPUs: each shard needs at least one element");
  if (!v.types.empty() && std::find(v.types.begin(), v.types.end(), r.type) == v.types.end())
    throw Error(v.id + " does not take " + std::string(to_string(r.type)));
  if (!v.takes_block_size(r.block_size) && !v.block_sizes.empty())
    throw Error(v.id + " does not take block size " + std::to_string(r.block_size));
  if (!v.takes_unroll(p.request.unroll))
    throw Error(v.id + " does not take unroll " + std::to_string(p.request.unroll));
  p.partial_bytes = kernels::accum_size(r.type);
  if (v.kernel == KernelId::VectorizedGridStride)
    p.grid_note = "as many blocks as the GPU holds at once (chosen on the GPU)";
  if (v.kernel == KernelId::CubDeviceReduce) p.grid_note = "CUB picks its own grid and passes";

  const int G = r.gpus;
  const bool gather = G > 1 && r.exchange == Exchange::GatherShards;
  std::uint64_t first = 0;
  const std::vector<std::uint64_t> sizes = shard_sizes(r.size, G);
  for (int rank = 0; rank < G; ++rank) {
    const std::uint64_t reduced = gather ? (rank == 0 ? r.size : 0) : sizes[rank];
    p.shards.push_back(shard_of(p, v, rank, first, sizes[rank], reduced));
    first += sizes[rank];
  }

  const HierarchyShard& root = p.shards.front();
  const std::uint64_t root_n = gather ? r.size : root.elements;
  const std::string per_block =
      root.grid == 0 ? "its share"
                     : "about " + n((root_n + root.grid - 1) / root.grid) + " elements";
  add(p, HierarchyLevel::Block, "One block",
      "One block of " + n(r.block_size) + " threads reduces " + per_block +
          " to one partial: the block the animation steps through.");
  if (G == 1) {
    add(p, HierarchyLevel::Grid, "The grid", "The grid: " + grid_sentence(p, root, r.size) + ".",
        "local");
    add(p, HierarchyLevel::Total, "The total",
        "One GPU: its result is the total; there is nothing to exchange.");
    return p;
  }
  std::string split = "N = " + n(r.size) + " split into " + n(G) + " contiguous shards";
  split += r.size % G ? " (the first " + n(r.size % G) + " one element larger): " : ": ";
  for (const HierarchyShard& s : p.shards) {
    if (s.rank == 3 && G > 4) {
      split += "..., ";
      continue;
    }
    if (s.rank > 3 && s.rank + 1 < G) continue;
    split += "GPU " + n(s.rank) + " [" + n(s.first) + ", " + n(s.first + s.elements) + ")" +
             (s.rank + 1 < G ? ", " : "");
  }
  add(p, HierarchyLevel::Shards, "Shards",
      split + ". Each GPU receives its own before the timing; GPU 0 is the root.");
  if (gather) {
    add_gather(p);
    add(p, HierarchyLevel::Grid, "Grid on GPU 0",
        "GPU 0 reduces all N: " + grid_sentence(p, root, r.size) + ".", "local");
  } else {
    add(p, HierarchyLevel::Grid, "Grid on each GPU",
        "Every GPU at once, each its own shard: GPU 0 " + grid_sentence(p, root, root.elements) +
            "; one local partial per GPU (" + n(p.partial_bytes) + " bytes).",
        "local");
    add_exchange(p);
  }
  add(p, HierarchyLevel::Total, "The total",
      r.exchange == Exchange::NcclAllReduce ? "Every GPU holds the total."
                                            : "GPU 0, the root, holds the total.");
  return p;
}

std::optional<MeasuredPhases> measured_phases(const MultiSession& s, const HierarchyPlan& p) {
  for (const MultiPoint& m : s.points) {
    if (m.status != PointStatus::Ok || m.point.exchange != p.request.exchange ||
        m.point.gpu_count != p.request.gpus || m.point.size != p.request.size ||
        m.point.type != p.request.type || m.times.total.empty())
      continue;
    MeasuredPhases out;
    out.local_ms = m.times.local.median_ms;
    out.exchange_ms = m.times.exchange.median_ms;
    out.total_ms = m.times.total.median_ms;
    out.samples = m.times.total.samples;
    out.noisy = m.noisy;
    for (std::size_t i = 0; i < m.devices.size(); ++i)
      out.devices += (i ? ", cuda:" : "cuda:") + std::to_string(m.devices[i]);
    out.local_label = s.spec.variant + " B=" + std::to_string(s.spec.block_size) +
                      " U=" + std::to_string(s.spec.unroll);
    return out;
  }
  return std::nullopt;
}

}  // namespace rl
