// make_trace: runs one block through the ladder plan (block_model_ladder.h, the same plan
// model_reduce runs) and records, per step, the workspace, the (dst, src) pairs, each warp's
// lane states and counters; then the launch totals from the same plan.
#include "engine/trace/trace.h"

#include <algorithm>
#include <bit>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model_ladder.h"
#include "trace/trace_internal.h"

#include <type_traits>

namespace rl {

StepCounters& StepCounters::operator+=(const StepCounters& o) {
  active_lanes += o.active_lanes;
  divergent_lanes += o.divergent_lanes;
  idle_warps += o.idle_warps;
  exited_warps += o.exited_warps;
  barriers += o.barriers;
  warp_syncs += o.warp_syncs;
  loads += o.loads;
  stores += o.stores;
  shuffles += o.shuffles;
  return *this;
}

void StepCounters::scale(std::uint64_t k) {
  for (std::uint64_t* f : {&active_lanes, &divergent_lanes, &idle_warps, &exited_warps, &barriers,
                           &warp_syncs, &loads, &stores, &shuffles})
    *f *= k;
}

ResolvedVariant resolve_variant_unroll(const std::string& name, std::optional<int> unroll,
                                       std::uint64_t cols, int block) {
  const std::optional<VariantRef> ref = resolve_variant(name);
  if (!ref)
    throw Error("unknown variant " + echo(name) + " (reductionlab-cli variants lists them)");
  ResolvedVariant out{ref->variant, ref->variant->default_unroll_at(cols, block)};
  if (ref->unroll && unroll && *ref->unroll != *unroll)
    throw Error(echo(name) + " names unroll " + std::to_string(*ref->unroll) + " but unroll " +
                std::to_string(*unroll) + " was asked for");
  if (ref->unroll) out.unroll = *ref->unroll;
  if (unroll) out.unroll = *unroll;
  return out;
}

namespace {

using Resolved = ResolvedVariant;

Resolved resolve(const TraceRequest& r) {
  // No factor named: the one a run of this shape and block uses.
  const Resolved out = resolve_variant_unroll(r.variant, r.unroll, r.cols, r.block_size);
  if (!has_trace(*out.variant))
    throw Error("no step-by-step trace for " + out.variant->id +
                ": traces cover the classic ladder and warp_shuffle, reduce_add_sync, cg_reduce, "
                "single_pass, cluster_single_pass, epoch_pass, every lab kernel (divergence, "
                "block-wide predicates, #pragma unroll) and the matrix variants row_per_warp and "
                "row_per_block; not the vectorized grid-stride kernel, CUB's or the other rows "
                "and columns kernels");
  if (!out.variant->is_segmented() && (r.rows != 0 || r.cols != 0))
    throw Error("rows/cols: " + out.variant->id +
                " sums a whole array; only the rows and columns variants take a shape");
  return out;
}

// Per-lane bookkeeping of one step: which threads act.
std::vector<std::uint32_t> acting_masks(const ladder::Step& s, unsigned warps) {
  std::vector<std::uint32_t> m(warps, 0);
  for (unsigned k = 0; k < s.pairs; ++k) {
    const unsigned t = s.thread(k);
    m[t / 32] |= 1u << (t % 32);
  }
  return m;
}

// Loads of the load step of block b: each lane reads its U elements that lie below n (the
// kernel reads elements at or past n as 0 without touching memory).
std::uint64_t load_step_reads(const ladder::BlockPlan& plan, std::uint64_t b, std::uint64_t n) {
  const std::uint64_t base = b * plan.tile();
  if (base + plan.tile() <= n) return plan.tile();
  return n > base ? n - base : 0;
}

// The lane counters of one step from its masks (see StepCounters).
void count_lanes(const std::vector<std::uint32_t>& masks, const std::vector<std::uint32_t>& exited,
                 StepCounters& c) {
  c.active_lanes = c.divergent_lanes = c.idle_warps = c.exited_warps = 0;
  for (std::size_t w = 0; w < masks.size(); ++w) {
    const unsigned active = std::popcount(masks[w]);
    c.active_lanes += active;
    if (active > 0)
      c.divergent_lanes += 32 - active;
    else if (exited[w] == 0xffffffffu)
      ++c.exited_warps;
    else
      ++c.idle_warps;
  }
}

// The counters of one step of block b (only the load step's reads depend on the block).
StepCounters count_step(const ladder::Step& s, const std::vector<std::uint32_t>& masks,
                        const std::vector<std::uint32_t>& exited, std::uint64_t load_reads) {
  StepCounters c;
  count_lanes(masks, exited, c);
  for (std::uint32_t m : masks)
    if (m != 0) c.warp_syncs += s.syncwarps;
  c.barriers = s.syncthreads_after ? 1 : 0;
  c.loads =
      s.kind == ladder::StepKind::Load ? load_reads : std::uint64_t(s.pairs) * s.loads_per_pair;
  c.stores = s.pairs;
  return c;
}

// The block's final step: thread 0 copies ws[0] to partials[blockIdx.x].
ladder::Step write_partial_step() {
  ladder::Step s;
  s.kind = ladder::StepKind::Tree;  // one guarded thread, no barrier
  s.pairs = 1;
  s.loads_per_pair = 1;
  return s;
}

template <typename T>
void run_trace(const ladder::BlockPlan& plan, const InputData& input, std::uint64_t n, Trace& out) {
  const unsigned B = plan.block_size, W = out.warps();
  const T* x = nullptr;
  if constexpr (std::is_same_v<T, float>)
    x = input.f32.data();
  else
    x = input.i32.data();
  std::vector<T> ws(B);
  const std::uint64_t base = std::uint64_t(out.block_index) * plan.tile();
  out.initial_values.resize(B);
  for (unsigned t = 0; t < B; ++t) out.initial_values[t] = base + t < n ? double(x[base + t]) : 0.0;
  // The workspace as the tree starts: the tile itself (global, U = 1) or after the load step.
  ladder::load_block(x, n, out.block_index, plan, ws.data());

  std::vector<ladder::Step> steps = plan.steps;
  steps.push_back(write_partial_step());
  out.steps.resize(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    out.steps[i].masks = acting_masks(steps[i], W);
    out.steps[i].barrier = steps[i].syncthreads_after;
  }
  mark_exited_lanes(out.steps);

  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ladder::Step& s = steps[i];
    TraceStep& ts = out.steps[i];
    const bool is_partial = i + 1 == steps.size();
    ts.stride = s.stride;
    if (is_partial) {
      ts.kind = "write_partial";
    } else {
      switch (s.kind) {
        case ladder::StepKind::Load:
          ts.kind = "load";
          break;
        case ladder::StepKind::Tree:
          ts.kind = "tree";
          break;
        case ladder::StepKind::SkippedTree:
          ts.kind = "skipped";
          break;
        case ladder::StepKind::LastWarp:
          ts.kind = "last_warp";
          break;
      }
      if (s.kind != ladder::StepKind::Load) {
        for (unsigned k = 0; k < s.pairs; ++k) {
          ts.ops.emplace_back(s.dst(k), s.dst(k) + s.stride);
          ts.threads.push_back(s.thread(k));
        }
        ladder::apply_step(s, ws.data());
      }
    }
    ts.values.assign(ws.begin(), ws.end());
    ts.counters = count_step(s, ts.masks, ts.exited, load_step_reads(plan, out.block_index, n));
    ts.caption = trace_caption(plan, s, ts, is_partial, out);
    out.block_totals += ts.counters;
  }
  out.partial = double(ws[0]);

  // Launch totals: only the load step's reads depend on the block (the tail reads fewer).
  const std::uint64_t grid = out.grid;
  auto block_totals = [&](std::uint64_t b) {
    StepCounters c;
    for (std::size_t i = 0; i < steps.size(); ++i)
      c += count_step(steps[i], out.steps[i].masks, out.steps[i].exited,
                      load_step_reads(plan, b, n));
    return c;
  };
  const StepCounters full = block_totals(0), last = block_totals(grid - 1);
  out.launch_totals = last;
  StepCounters rest = full;
  rest.scale(grid - 1);
  out.launch_totals += rest;
}

}  // namespace

// A lane has exited when the block has passed its last __syncthreads() and the lane's warp
// acts in no step from this one on: nothing holds it, so it runs to the end and retires.
// Before the last barrier an idle warp is only idle (it must still reach the barriers).
void mark_exited_lanes(std::vector<TraceStep>& steps) {
  std::size_t after_last_barrier = 0;
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].barrier) after_last_barrier = i + 1;
  const std::size_t W = steps.empty() ? 0 : steps[0].masks.size();
  std::vector<std::uint32_t> works_later(W, 0);
  for (std::size_t i = steps.size(); i-- > 0;) {
    TraceStep& ts = steps[i];
    ts.exited.assign(W, 0);
    for (std::size_t w = 0; w < W; ++w) {
      works_later[w] |= ts.masks[w];
      if (i >= after_last_barrier && works_later[w] == 0) ts.exited[w] = 0xffffffffu;
    }
  }
}

void recount_lanes(TraceStep& s) {
  count_lanes(s.masks, s.exited, s.counters);
}

InputData trace_input(std::uint64_t needed, DType type, unsigned block_index, std::uint64_t tile) {
  constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 28;
  if (needed > kMaxElements)
    throw Error("block index " + std::to_string(block_index) +
                ": tracing it generates the input up to element " + std::to_string(needed) +
                ", more than 2^28; trace a block below " + std::to_string(kMaxElements / tile));
  return make_input(needed, type);
}

bool has_trace(const VariantInfo& v) {
  return ladder::is_ladder_kernel(v.kernel) || has_warp_family_trace(v.kernel) ||
         v.kernel == KernelId::SinglePass || v.kernel == KernelId::ClusterSinglePass ||
         v.kernel == KernelId::EpochPass || has_lab_trace(v.kernel) || has_rows_trace(v.kernel);
}

Trace trace_shell(const TraceRequest& r, const VariantInfo& v, int unroll) {
  Trace t;
  t.variant = v.id;
  t.label = v.seed_label(unroll);
  t.display_name = v.display_name;
  t.block_size = r.block_size;
  t.unroll = unroll;
  t.workspace = r.workspace;
  t.type = r.type;
  t.block_index = r.block_index;
  return t;
}

void check_block_index(const Trace& t) {
  if (t.block_index >= t.grid)
    throw Error("block index " + std::to_string(t.block_index) +
                ": the launch of N = " + std::to_string(t.size) + " has " + std::to_string(t.grid) +
                " block" + (t.grid == 1 ? "" : "s") + " (0.." + std::to_string(t.grid - 1) + ")");
}

void total_block_steps(Trace& t, std::uint64_t traced_reads) {
  mark_exited_lanes(t.steps);
  for (TraceStep& s : t.steps) {
    if (s.kind == "load") s.counters.loads = traced_reads;
    recount_lanes(s);
    t.block_totals += s.counters;
  }
}

void fill_launch_totals(Trace& t, std::uint64_t full_block_reads, std::uint64_t last_block_reads,
                        std::uint64_t traced_block_reads) {
  StepCounters per_block = t.block_totals;
  per_block.loads -= traced_block_reads;
  per_block.scale(t.grid);
  per_block.loads += (t.grid - 1) * full_block_reads + last_block_reads;
  t.launch_totals = per_block;
}

Trace make_trace(const TraceRequest& request) {
  const Resolved v = resolve(request);
  TraceRequest r = request;
  // The default workspace (global) means "the variant's own" for one that takes only one.
  if (r.workspace == Workspace::Global && !v.variant->takes_workspace(r.workspace) &&
      v.variant->workspaces.size() == 1)
    r.workspace = v.variant->workspaces.front();
  if (v.variant->kernel == KernelId::SinglePass ||
      v.variant->kernel == KernelId::ClusterSinglePass || v.variant->kernel == KernelId::EpochPass)
    return make_single_pass_trace(r, *v.variant, v.unroll);
  if (has_lab_trace(v.variant->kernel)) return make_lab_trace(r, *v.variant, v.unroll);
  if (has_rows_trace(v.variant->kernel)) return make_rows_trace(r, *v.variant, v.unroll);
  if (!ladder::is_ladder_kernel(v.variant->kernel))
    return make_warp_family_trace(r, *v.variant, v.unroll);
  const ladder::BlockPlan plan = ladder::make_plan(*v.variant, r.workspace, r.block_size, v.unroll);
  Trace t = trace_shell(r, *v.variant, v.unroll);
  t.size = r.size == 0 ? plan.tile() : r.size;
  t.grid = ladder::grid_for(plan, t.size);
  t.volatile_last_warp = plan.volatile_last_warp;
  check_block_index(t);
  // make_input's element i depends on i only, so the prefix up to the traced tile is enough.
  const std::uint64_t needed = std::min<std::uint64_t>(t.size, (r.block_index + 1) * plan.tile());
  const InputData input = trace_input(needed, r.type, r.block_index, plan.tile());
  if (r.type == DType::Int32)
    run_trace<std::int32_t>(plan, input, t.size, t);
  else
    run_trace<float>(plan, input, t.size, t);
  return t;
}

}  // namespace rl
