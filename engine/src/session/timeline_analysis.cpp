#include "engine/session/timeline_analysis.h"

#include <algorithm>
#include <map>

#include "engine/core/error.h"
#include "session/timeline_checks.h"

namespace rl {
namespace {

using timeline_detail::TimeBase;

// The time base of t, after checking every warp's marks: throws naming the block and warp.
TimeBase checked_time_base(const MeasuredTimeline& t) {
  for (std::size_t slot = 0; slot < t.blocks.size(); ++slot)
    for (const WarpTimeline& w : t.blocks[slot].warps)
      if (auto p = timeline_detail::warp_marks_problem(w); !p.empty())
        throw Error("measured timeline of " + t.label + ": " +
                    timeline_detail::warp_place(t, slot, w.warp) + ": " + p);
  TimeBase base;
  if (auto p = timeline_detail::read_time_base(t, base); !p.empty())
    throw Error("measured timeline of " + t.label + ": " + p);
  return base;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

std::vector<TimelineSpan> spans_with(const MeasuredTimeline& t, const TimeBase& base) {
  std::vector<TimelineSpan> out;
  for (std::size_t slot = 0; slot < t.blocks.size(); ++slot) {
    const BlockTimeline& b = t.blocks[slot];
    for (const WarpTimeline& w : b.warps) {
      std::string phase;
      unsigned phase_index = 0;
      for (std::size_t i = 0; i + 1 < w.marks.size(); ++i) {
        const TimelineMark& from = w.marks[i];
        const TimelineMark& to = w.marks[i + 1];
        if (from.kind == MarkKind::Phase) phase = from.phase, phase_index = from.index;
        TimelineSpan s;
        s.block_slot = unsigned(slot);
        s.warp = w.warp;
        if (from.kind == MarkKind::Arrive && to.kind == MarkKind::Release) {
          s.kind = TimelineSpan::Kind::BarrierWait;
          s.index = from.index;
        } else {
          s.phase = phase;
          s.index = phase_index;
        }
        s.start_clock = from.clock;
        s.end_clock = to.clock;
        s.start_ns = base.at(b.sm, from.clock);
        s.end_ns = base.at(b.sm, to.clock);
        out.push_back(std::move(s));
      }
    }
  }
  return out;
}

// One barrier of one block while its warps' marks are gathered (clocks: one SM, exact).
struct BarrierGather {
  BarrierTiming timing;
  std::uint64_t first_arrival = 0, last_arrival = 0, last_release = 0;
  bool any_release = false;
};

std::vector<BarrierTiming> barriers_with(const MeasuredTimeline& t, const TimeBase& base) {
  std::vector<BarrierTiming> out;
  for (std::size_t slot = 0; slot < t.blocks.size(); ++slot) {
    const BlockTimeline& b = t.blocks[slot];
    std::map<unsigned, BarrierGather> by_ordinal;
    for (const WarpTimeline& w : b.warps)
      for (std::size_t i = 0; i < w.marks.size(); ++i) {
        const TimelineMark& m = w.marks[i];
        if (m.kind != MarkKind::Arrive) continue;
        auto [it, fresh] = by_ordinal.try_emplace(m.index);
        BarrierGather& g = it->second;
        if (fresh || m.clock < g.first_arrival) g.first_arrival = m.clock;
        if (fresh || m.clock > g.last_arrival)
          g.last_arrival = m.clock, g.timing.slowest_warp = w.warp;
        ++g.timing.warps;
        if (i + 1 < w.marks.size()) {  // a truncated warp may end waiting
          const TimelineMark& release = w.marks[i + 1];
          g.timing.wait_sum_ns += double(release.clock - m.clock) / base.cycles_per_ns;
          if (!g.any_release || release.clock > g.last_release) g.last_release = release.clock;
          g.any_release = true;
        }
      }
    for (auto& [ordinal, g] : by_ordinal) {
      g.timing.block_slot = unsigned(slot);
      g.timing.ordinal = ordinal;
      g.timing.first_arrival_ns = base.at(b.sm, g.first_arrival);
      g.timing.last_arrival_ns = base.at(b.sm, g.last_arrival);
      g.timing.last_release_ns = g.any_release ? base.at(b.sm, g.last_release) : 0;
      out.push_back(g.timing);
    }
  }
  return out;
}

void add_phase(std::vector<std::pair<std::string, double>>& totals, const std::string& phase,
               double ns) {
  auto it = std::find_if(totals.begin(), totals.end(),
                         [&](const auto& entry) { return entry.first == phase; });
  if (it == totals.end())
    totals.emplace_back(phase, ns);
  else
    it->second += ns;
}

}  // namespace

std::vector<TimelineSpan> timeline_spans(const MeasuredTimeline& t) {
  return spans_with(t, checked_time_base(t));
}

std::vector<BarrierTiming> barrier_timings(const MeasuredTimeline& t) {
  return barriers_with(t, checked_time_base(t));
}

TimelineSummary summarize_timeline(const MeasuredTimeline& t) {
  const TimeBase base = checked_time_base(t);
  TimelineSummary s;
  s.cycles_per_ns = base.cycles_per_ns;
  if (t.twin_median_ms > 0 && t.real_median_ms > 0)
    s.instrumentation_cost = t.twin_median_ms / t.real_median_ms;
  std::vector<double> block_ns;
  for (const BlockTimeline& b : t.blocks) {
    double first_start = 0, last_end = 0;
    bool any = false;
    for (const WarpTimeline& w : b.warps) {
      if (w.truncated) ++s.truncated_warps;
      // A truncated warp counts up to its last kept mark.
      const double start = base.at(b.sm, w.marks.front().clock);
      const double end = base.at(b.sm, w.marks.back().clock);
      s.warp_time_sum_ns += end - start;
      s.span_ns = std::max(s.span_ns, end);
      first_start = any ? std::min(first_start, start) : start;
      last_end = any ? std::max(last_end, end) : end;
      any = true;
    }
    if (any) block_ns.push_back(last_end - first_start);
  }
  s.block_median_ns = median_of(std::move(block_ns));
  if (t.twin_median_ms > 0 && t.sm_count > 0 && t.resident_blocks_per_sm > 0 && t.grid > 0) {
    const double at_once = double(t.sm_count) * t.resident_blocks_per_sm;
    s.twin_block_share_ns = t.twin_median_ms * 1e6 * std::min(at_once, double(t.grid)) / t.grid;
  }
  for (const TimelineSpan& span : spans_with(t, base)) {
    const double ns = span.end_ns - span.start_ns;
    if (span.kind == TimelineSpan::Kind::BarrierWait)
      s.barrier_wait_sum_ns += ns;
    else
      add_phase(s.phase_ns, span.phase, ns);
  }
  if (s.warp_time_sum_ns > 0) s.barrier_wait_share = s.barrier_wait_sum_ns / s.warp_time_sum_ns;
  return s;
}

}  // namespace rl
