// Captions for trace steps, in the classic ladder's terms: the stride, which threads work, and why
// warps diverge (mixed lanes in one warp) or wait (whole warps idle at a barrier).
#include <bit>
#include <string>

#include "trace/trace_internal.h"

namespace rl {

namespace {

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

std::string plural(std::uint64_t n, const std::string& word) {
  return num(n) + " " + word + (n == 1 ? "" : "s");
}

std::string threads_from_0(unsigned count) {
  return count == 1 ? std::string("thread 0") : "threads 0.." + num(count - 1);
}

std::string value_text(double v, DType type) {
  if (type == DType::Int32) return num(static_cast<std::int64_t>(v));
  std::string s = std::to_string(v);
  return s;
}

// "3 warps work (1 of them diverges: 16 lanes idle), 28 idle warps wait at __syncthreads()"
std::string warp_story(const TraceStep& ts, bool barrier_follows) {
  const StepCounters& c = ts.counters;
  unsigned working = 0, diverging = 0;
  for (std::uint32_t m : ts.masks) {
    if (m == 0) continue;
    ++working;
    if (m != 0xffffffffu) ++diverging;
  }
  std::string s = plural(working, "warp") + (working == 1 ? " works" : " work");
  if (diverging == working && working > 1) {
    s += ", every one of them diverges (" + num(c.divergent_lanes) + " idle lanes ride along)";
  } else if (diverging > 0) {
    s += " (" + num(diverging) + " diverge" + (diverging == 1 ? "s" : "") + ": " +
         num(c.divergent_lanes) + " idle lanes inside working warps)";
  } else {
    s += " with every lane busy: no divergence";
  }
  if (c.idle_warps > 0)
    s += "; " + plural(c.idle_warps, "warp") + " ha" + (c.idle_warps == 1 ? "s" : "ve") +
         " nothing to do" +
         (barrier_follows ? (c.idle_warps == 1 ? " but still waits at __syncthreads()"
                                               : " but still wait at __syncthreads()")
                          : "");
  if (c.exited_warps > 0) s += "; " + plural(c.exited_warps, "warp") + " already finished";
  return s;
}

std::string tree_caption(const ladder::BlockPlan& plan, const ladder::Step& s,
                         const TraceStep& ts) {
  const unsigned B = plan.block_size, st = s.stride;
  std::string head = "stride " + num(st) + ": ";
  switch (plan.kernel) {
    case KernelId::Neighbored:
      head += "thread tid adds ws[tid + " + num(st) + "] into ws[tid] when tid % " + num(2 * st) +
              " == 0, i.e. " +
              (s.pairs == 1 ? std::string("thread 0 alone")
                            : plural(s.pairs, "thread") + " spaced " + num(2 * st) + " apart") +
              ". ";
      break;
    case KernelId::NeighboredLess:
      head += "thread tid works on index = " + num(2 * st) + " * tid (ws[index] += ws[index + " +
              num(st) + "]) while index < " + num(B) + ": " + threads_from_0(s.pairs) +
              ", packed into the first warps. ";
      break;
    default:
      head += threads_from_0(s.pairs) + " (tid < " + num(st) + ") add" + (s.pairs == 1 ? "s" : "") +
              " ws[tid + " + num(st) + "] into ws[tid]: contiguous threads, contiguous addresses. ";
      break;
  }
  // The barrier is named in the story when idle warps wait at it.
  return head + warp_story(ts, true) + (ts.counters.idle_warps > 0 ? "." : ". __syncthreads().");
}

std::string last_warp_caption(const ladder::BlockPlan& plan, const ladder::Step& s,
                              const TraceStep& ts) {
  std::string c = "last warp, offset " + num(s.stride) + ": threads 0..31 add ws[tid + " +
                  num(s.stride) +
                  "] into ws[tid] with no __syncthreads() (only one warp is left). ";
  if (s.stride < 32)
    c += "Lanes " + num(s.stride) + "..31 compute sums nobody reads: cheaper than a branch. ";
  c += plan.volatile_last_warp
           ? "volatile: every read and write goes to memory; correct only if the warp runs in "
             "lock-step (not promised since Volta; racecheck flags it)."
           : "__syncwarp() between the reads and the writes orders them: race-free.";
  if (ts.counters.exited_warps > 0)
    c.append(" ")
        .append(plural(ts.counters.exited_warps, "other warp"))
        .append(" already finished.");
  return c;
}

std::string load_caption(const ladder::BlockPlan& plan, const Trace& t) {
  const unsigned U = plan.unroll, B = plan.block_size;
  const std::string where =
      plan.workspace == Workspace::Shared ? "shared-memory ws[tid]" : "ws[tid] (in place, global)";
  std::string c;
  if (U == 1) {
    c = "load: every thread copies its element x[base + tid] into " + where + ". ";
  } else {
    c = "pre-reduce: every thread adds the " + num(U) + " elements x[base + tid + k*" + num(B) +
        "], k = 0.." + num(U - 1) + ", into " + where + ": this block covers " + num(U) +
        " tiles, so the launch needs " + num(U) + "x fewer blocks and barriers. ";
  }
  if (t.size < (std::uint64_t(t.block_index) + 1) * plan.tile())
    c += "Elements past N = " + num(t.size) + " read as 0. ";
  return c + "All " + plural(t.warps(), "warp") + " busy. __syncthreads().";
}

}  // namespace

std::string trace_caption(const ladder::BlockPlan& plan, const ladder::Step& s, const TraceStep& ts,
                          bool is_partial, const Trace& t) {
  if (is_partial) {
    return "thread 0 writes ws[0] = " + value_text(ts.values.at(0), t.type) + " to partials[" +
           num(t.block_index) + "]: the block's partial sum (one lane of one warp works).";
  }
  switch (s.kind) {
    case ladder::StepKind::Load:
      return load_caption(plan, t);
    case ladder::StepKind::Tree:
      return tree_caption(plan, s, ts);
    case ladder::StepKind::SkippedTree:
      return "if (blockDim.x >= " + num(2 * s.stride) + " && tid < " + num(s.stride) +
             "): false for blockDim.x = " + num(plan.block_size) +
             ", so nobody adds, but the __syncthreads() after it still runs (the template "
             "version deletes this step and its barrier).";
    case ladder::StepKind::LastWarp:
      return last_warp_caption(plan, s, ts);
  }
  return {};
}

}  // namespace rl
