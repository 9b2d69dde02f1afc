// Traces of the labs: make_lab_trace checks the request for every lab kernel and builds the
// divergence lab's here; the predicates and the unroll lab are trace_labs_predicates.cpp and
// trace_labs_unroll.cpp.
// The divergence lab (kernels/lab_divergence.cu): one block, registers as values.
//   load      every thread reads its element (tail threads: nothing, value 0)
//   path A    the lanes on path A run its 64 steps; in a warp that also holds path-B lanes the
//   path B    others wait (divergent lanes), and the warp then runs the other path: a warp
//             holding both issues both steps, a uniform warp one
//             (select_costly: every lane runs both, then a select; the one-body kernels: a
//             single "map" step)
//   block sum the warp-shuffle block sum (trace_warp_builder.h), then thread 0's partial
// The masks of the two path steps depend on the data for the data-dependent kernels, so the
// launch totals add every block's path steps (elements generated one by one, input_i32_at);
// the other steps are the same in every block and scale with the grid.
#include <algorithm>
#include <functional>

#include "kernels/lab.h"

#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model.h"
#include "trace/trace_internal.h"
#include "trace/trace_warp_builder.h"

namespace rl {

namespace {
namespace lab = kernels::lab;
using warp_trace::Builder;
using warp_trace::kFull;
using warp_trace::num;

bool two_paths(KernelId k) {
  switch (k) {
    case KernelId::BranchDivergent:
    case KernelId::BranchUniform:
    case KernelId::BranchData:
    case KernelId::BranchPartitioned:
    case KernelId::IfElseCostly:
    case KernelId::SelectCostly:
      return true;
    default:
      return false;
  }
}

bool is_path_step(const TraceStep& s) {
  return s.kind == "path_a" || s.kind == "path_b";
}

std::string path_caption(KernelId k, bool b, int knob) {
  const std::string path = b ? "path B" : "path A";
  const std::string steps = path + ", 64 dependent steps (counted as 64 warp-steps): ";
  switch (k) {
    case KernelId::BranchDivergent:
      return steps +
             (b ? "the odd lanes of every warp; the even ones wait. "
                : "the even lanes of every warp; the odd ones wait. ") +
             "Every warp holds both paths, so every warp runs both, one after the other.";
    case KernelId::BranchUniform:
      return steps +
             (b ? "the odd warps, all 32 lanes; the even warps skip it. "
                : "the even warps, all 32 lanes; the odd warps skip it. ") +
             "No warp holds both paths: nothing waits inside a warp.";
    case KernelId::BranchData:
      return steps + "lanes whose value is " + (b ? ">= " : "< ") + num(256 - knob) +
             ". A warp holding both kinds of value runs both paths.";
    case KernelId::BranchPartitioned:
      return steps + "lanes whose value is " + (b ? ">= " : "< ") + num(256 - knob) +
             ". After the partition the values taking path B sit together: at most one warp "
             "of the launch holds both.";
    case KernelId::SelectCostly:
      return steps + "every lane, whatever its bit: the select form runs both paths for all.";
    default:  // IfElseCostly
      return steps + "lanes whose value is " + (b ? "odd" : "even") +
             ": random bits, so nearly every warp runs both paths.";
  }
}

std::string map_caption(KernelId k) {
  switch (k) {
    case KernelId::IfElseCheap:
    case KernelId::SelectCheap:
      return "map: v = (x & 1) ? (x >> 1) ^ 85 : x * 3 + 7, for every lane at once: with bodies "
             "this cheap the compiler predicates the branch (both bodies, one select), so no "
             "warp diverges whichever way the source is written.";
    case KernelId::LoopInvariantInside:
    case KernelId::LoopInvariantHoisted:
      return "map: 64 steps of path A for every lane. The branch on the kernel argument is the "
             "same for every thread, so it never splits a warp; whether it is tested once or 64 "
             "times is the compiler's choice (it hoists it: loop unswitching).";
    default:
      return "map: |x - 128| for every lane: the compiler's form has no branch, whichever way "
             "the source is written.";
  }
}

// Per warp: bit l set when lane l of block b holds an element (below n) on path `b_path`.
std::vector<std::uint32_t> path_masks(const Trace& t, std::uint64_t block,
                                      const std::function<std::int32_t(std::uint64_t)>& value_at,
                                      KernelId k, bool b_path) {
  std::vector<std::uint32_t> m(t.warps(), 0);
  const std::uint64_t base = block * std::uint64_t(t.block_size);
  for (unsigned tid = 0; tid < unsigned(t.block_size) && base + tid < t.size; ++tid) {
    const bool on_b =
        k != KernelId::SelectCostly && lab::branch_takes_b(k, value_at(base + tid), tid, t.unroll);
    if (k == KernelId::SelectCostly || on_b == b_path) m[tid / 32] |= 1u << (tid % 32);
  }
  return m;
}

void build(Trace& t, KernelId k, const std::function<std::int32_t(std::uint64_t)>& value_at) {
  const unsigned B = t.block_size, W = t.warps();
  const std::uint64_t base = std::uint64_t(t.block_index) * B;
  Builder<std::int32_t> b(t, warp_trace::WarpOp::ShuffleDown);
  std::vector<std::int32_t> x(B, 0);
  t.initial_values.assign(B, 0.0);
  std::vector<std::uint32_t> in_range(W, 0);
  for (unsigned i = 0; i < B && base + i < t.size; ++i) {
    x[i] = value_at(base + i);
    t.initial_values[i] = x[i];
    in_range[i / 32] |= 1u << (i % 32);
  }
  b.regs() = x;
  TraceStep& load = b.push("load",
                           "load: every thread reads its element x[base + tid] into a "
                           "register (threads past N read nothing).");
  load.masks = in_range;
  b.snapshot(load);
  const auto finish_map = [&](TraceStep& s) {
    for (unsigned i = 0; i < B; ++i)
      if (in_range[i / 32] >> (i % 32) & 1u) b.regs()[i] = lab::branch_value(k, x[i], i, t.unroll);
    b.snapshot(s);
  };
  if (!two_paths(k)) {
    TraceStep& map = b.push("map", map_caption(k));
    map.masks = in_range;
    finish_map(map);
  } else {
    for (bool on_b : {false, true}) {
      TraceStep& s = b.push(on_b ? "path_b" : "path_a", path_caption(k, on_b, t.unroll));
      s.masks = path_masks(t, t.block_index, value_at, k, on_b);
      for (unsigned i = 0; i < B; ++i)
        if ((s.masks[i / 32] >> (i % 32) & 1u) && k != KernelId::SelectCostly)
          b.regs()[i] = on_b ? lab::costly_b(x[i]) : lab::costly_a(x[i]);
      b.snapshot(s);
    }
    if (k == KernelId::SelectCostly) {
      TraceStep& sel = b.push("select",
                              "select: v = (x & 1) ? b : a keeps one of the two "
                              "results in every lane; half the work was thrown away.");
      sel.masks = in_range;
      finish_map(sel);
    }
  }
  warp_trace::block_reduce_steps(b, W);
  TraceStep& partial = b.push("write_partial", "");
  partial.masks[0] = 1u;
  partial.counters.stores = 1;
  b.snapshot(partial);
  t.partial = double(b.regs()[0]);
  partial.caption = "thread 0 writes its register (" + num(std::int64_t(t.partial)) +
                    ") to partials[" + num(t.block_index) + "]: the block's partial sum.";
}

// Every block's path steps, exactly: their masks differ from block to block with the data.
StepCounters launch_path_counters(const Trace& t, KernelId k,
                                  const std::function<std::int32_t(std::uint64_t)>& value_at) {
  StepCounters sum;
  for (std::uint64_t block = 0; block < t.grid; ++block)
    for (bool on_b : {false, true}) {
      TraceStep s;
      s.masks = path_masks(t, block, value_at, k, on_b);
      s.exited.assign(s.masks.size(), 0);
      recount_lanes(s);
      sum += s.counters;
    }
  sum.scale(lab::kPathSteps);
  return sum;
}

std::uint64_t reads_of_block(const Trace& t, std::uint64_t b) {
  const std::uint64_t base = b * std::uint64_t(t.block_size);
  return base >= t.size ? 0 : std::min<std::uint64_t>(t.block_size, t.size - base);
}

void fill_lab_launch_totals(Trace& t, KernelId k,
                            const std::function<std::int32_t(std::uint64_t)>& value_at) {
  const std::uint64_t traced = reads_of_block(t, t.block_index);
  fill_launch_totals(t, reads_of_block(t, 0), reads_of_block(t, t.grid - 1), traced);
  if (!two_paths(k)) return;
  // Put every block's own path steps in place of the traced block's times the grid.
  StepCounters traced_paths;
  for (const TraceStep& s : t.steps)
    if (is_path_step(s)) traced_paths += s.counters;
  traced_paths.scale(t.grid);
  StepCounters c = t.launch_totals;
  c.active_lanes -= traced_paths.active_lanes;
  c.divergent_lanes -= traced_paths.divergent_lanes;
  c.idle_warps -= traced_paths.idle_warps;
  c.exited_warps -= traced_paths.exited_warps;
  c += launch_path_counters(t, k, value_at);
  t.launch_totals = c;
}

}  // namespace

void finish_tiled_lab_trace(Trace& t) {
  mark_exited_lanes(t.steps);
  t.block_totals = StepCounters{};
  for (TraceStep& s : t.steps) {
    recount_lanes(s);
    t.block_totals += s.counters;
  }
}

bool has_lab_trace(KernelId k) {
  return kernels::is_lab_kernel(k) && find_variant_by_kernel(k) != nullptr;
}

bool is_divergence_lab(KernelId k) {
  const int v = static_cast<int>(k);
  return v >= static_cast<int>(KernelId::BranchDivergent) &&
         v <= static_cast<int>(KernelId::AbsBitTrick);
}

namespace {

// "1 only" or "1, 2, 4, ..., 16 (U: tiles per block)": what the variant's unroll axis takes.
std::string unrolls_taken(const VariantInfo& v) {
  if (v.unroll_factors.size() <= 1) return "1 only";
  std::string s = num(std::uint64_t(v.unroll_factors.front())) + ", " +
                  num(std::uint64_t(v.unroll_factors[1])) + ", ..., " +
                  num(std::uint64_t(v.unroll_factors.back()));
  return s + " (" + (v.unroll_meaning.empty() ? "the unroll factor" : v.unroll_meaning) + ")";
}

// Elements one block owns: the N of a trace asked for "one block's tile".
std::uint64_t lab_tile(KernelId k, int block_size, int unroll) {
  if (k == KernelId::UnrollPragma) return std::uint64_t(block_size) * lab::kUnrollTrip;
  if (k == KernelId::TreeLoopRolled || k == KernelId::TreeLoopUnrolled || is_divergence_lab(k))
    return std::uint64_t(block_size);
  return std::uint64_t(block_size) * unroll;  // the predicates: U tiles
}

}  // namespace

Trace make_lab_trace(const TraceRequest& r, const VariantInfo& v, int unroll) {
  if (!has_lab_trace(v.kernel)) throw Error("no step-by-step trace for " + v.id);
  if (!v.takes_block_size(r.block_size))
    throw Error("block size " + num(std::uint64_t(std::max(r.block_size, 0))) + ": " + v.id +
                " takes powers of two from 32 to 1024");
  if (!v.takes_unroll(unroll))
    throw Error("unroll " + std::to_string(unroll) + ": " + v.id + " takes " + unrolls_taken(v));
  if (!v.takes_workspace(r.workspace))
    throw Error("workspace " + std::string(to_string(r.workspace)) + ": " + v.id + " works in " +
                (v.workspaces.front() == Workspace::Registers ? "registers" : "shared memory"));
  if (r.type != DType::Int32) throw Error("type float32: the labs take int32 only");
  Trace t = trace_shell(r, v, unroll);
  t.size = r.size == 0 ? lab_tile(v.kernel, r.block_size, unroll) : r.size;
  if (kernels::is_lab_kernel(v.kernel) && !is_divergence_lab(v.kernel)) {
    const bool unroll_lab = v.family == VariantFamily::UnrollLab;
    return unroll_lab ? make_unroll_lab_trace(t, v.kernel) : make_predicate_lab_trace(t, v.kernel);
  }
  t.grid = (t.size + r.block_size - 1) / r.block_size;
  check_block_index(t);
  std::function<std::int32_t(std::uint64_t)> value_at = [](std::uint64_t i) {
    return input_i32_at(i);
  };
  std::vector<std::int32_t> sorted;
  if (v.kernel == KernelId::BranchPartitioned) {
    sorted =
        cub_partitioned(trace_input(t.size, DType::Int32, r.block_index, r.block_size).i32, unroll);
    value_at = [&sorted](std::uint64_t i) { return sorted[i]; };
  }
  build(t, v.kernel, value_at);
  total_block_steps(t, reads_of_block(t, t.block_index));
  // A path step stands for its 64 instructions: count each as 64 warp-steps, so the lanes
  // issued on the paths outweigh the block sum's few, as they do on the GPU.
  t.block_totals = StepCounters{};
  for (TraceStep& s : t.steps) {
    if (is_path_step(s)) s.counters.scale(lab::kPathSteps);
    t.block_totals += s.counters;
  }
  fill_lab_launch_totals(t, v.kernel, value_at);
  return t;
}

}  // namespace rl
