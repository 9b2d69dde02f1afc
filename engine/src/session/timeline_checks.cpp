// The checks a measured timeline passes before anything is derived from it, and
// timeline_problems(), which reports them for a timeline read from a file.
#include "session/timeline_checks.h"

#include <cmath>
#include <set>

#include "engine/session/timeline_analysis.h"

namespace rl::timeline_detail {
namespace {

std::string at_mark(std::size_t i) {
  return " at mark " + std::to_string(i);
}

// The problem with mark i given the mark before it; empty when the pair reads.
std::string pair_problem(const TimelineMark& prev, const TimelineMark& m, std::size_t i,
                         unsigned& next_barrier) {
  if (m.clock < prev.clock)
    return "clock64 goes backwards" + at_mark(i) + " (" + std::to_string(m.clock) + " after " +
           std::to_string(prev.clock) + ")";
  if (m.ns < prev.ns)
    return "%globaltimer goes backwards" + at_mark(i) + " (" + std::to_string(m.ns) + " after " +
           std::to_string(prev.ns) + ")";
  if (prev.kind == MarkKind::End) return "a mark comes after End" + at_mark(i);
  if (prev.kind == MarkKind::Arrive && m.kind != MarkKind::Release)
    return "Arrive at barrier " + std::to_string(prev.index) + at_mark(i - 1) + " is followed by " +
           std::string(mark_kind_name(m.kind)) + ", not its Release";
  switch (m.kind) {
    case MarkKind::Start:
      return "a second Start" + at_mark(i);
    case MarkKind::Release:
      if (prev.kind != MarkKind::Arrive)
        return "Release from barrier " + std::to_string(m.index) + at_mark(i) +
               " without an Arrive before it";
      if (prev.index != m.index)
        return "Release from barrier " + std::to_string(m.index) + at_mark(i) +
               " follows Arrive at barrier " + std::to_string(prev.index);
      return {};
    case MarkKind::Arrive:
      if (m.index != next_barrier)
        return "Arrive at barrier " + std::to_string(m.index) + at_mark(i) + ", expected barrier " +
               std::to_string(next_barrier) + " (ordinals count the warp's barriers from 0)";
      ++next_barrier;
      return {};
    default:
      return {};
  }
}

std::string name_problem(const TimelineMark& m, std::size_t i) {
  if (m.kind == MarkKind::Phase && m.phase.empty()) return "Phase" + at_mark(i) + " has no name";
  if (m.kind != MarkKind::Phase && !m.phase.empty())
    return std::string(mark_kind_name(m.kind)) + at_mark(i) + " carries a phase name (\"" +
           m.phase + "\"); only Phase marks do";
  return {};
}

}  // namespace

std::string_view mark_kind_name(MarkKind k) {
  switch (k) {
    case MarkKind::Start:
      return "Start";
    case MarkKind::Phase:
      return "Phase";
    case MarkKind::Arrive:
      return "Arrive";
    case MarkKind::Release:
      return "Release";
    case MarkKind::End:
      return "End";
  }
  return "?";
}

std::string warp_place(const MeasuredTimeline& t, std::size_t slot, unsigned warp) {
  return "block slot " + std::to_string(slot) + " (block " + std::to_string(t.blocks[slot].block) +
         "), warp " + std::to_string(warp);
}

std::string warp_marks_problem(const WarpTimeline& w) {
  if (w.marks.empty()) return "has no marks (no Start)";
  if (w.marks[0].kind != MarkKind::Start)
    return "its first mark is " + std::string(mark_kind_name(w.marks[0].kind)) + ", not Start";
  unsigned next_barrier = 0;
  for (std::size_t i = 0; i < w.marks.size(); ++i) {
    if (auto p = name_problem(w.marks[i], i); !p.empty()) return p;
    if (i == 0) continue;
    if (auto p = pair_problem(w.marks[i - 1], w.marks[i], i, next_barrier); !p.empty()) return p;
  }
  if (!w.truncated && w.marks.back().kind != MarkKind::End)
    return "ends with " + std::string(mark_kind_name(w.marks.back().kind)) +
           ", not End, and is not marked truncated";
  return {};
}

std::string read_time_base(const MeasuredTimeline& t, TimeBase& base) {
  base = {};
  for (const BlockTimeline& b : t.blocks)
    for (const WarpTimeline& w : b.warps)
      for (const TimelineMark& m : w.marks) {
        auto [it, fresh] = base.sms.try_emplace(b.sm, SmZero{m.clock, m.ns, m.clock, m.ns, 0});
        SmZero& z = it->second;
        if (fresh) continue;
        if (m.clock < z.clock0 || (m.clock == z.clock0 && m.ns < z.ns0))
          z.clock0 = m.clock, z.ns0 = m.ns;
        if (m.clock > z.clock_last || (m.clock == z.clock_last && m.ns > z.ns_last))
          z.clock_last = m.clock, z.ns_last = m.ns;
      }
  if (base.sms.empty()) return {};
  // The longest-running SM (by %globaltimer, whose resolution limits the rate's precision).
  const std::pair<const unsigned, SmZero>* longest = nullptr;
  auto ns_run = [](const SmZero& z) { return z.ns_last > z.ns0 ? z.ns_last - z.ns0 : 0; };
  std::uint64_t earliest = base.sms.begin()->second.ns0;
  for (const auto& entry : base.sms) {
    earliest = std::min(earliest, entry.second.ns0);
    if (!longest || ns_run(entry.second) > ns_run(longest->second)) longest = &entry;
  }
  const SmZero& z = longest->second;
  if (ns_run(z) == 0 || z.clock_last == z.clock0)
    return "the SM clock rate cannot be read from this recording: from the earliest to the latest "
           "mark of SM " +
           std::to_string(longest->first) + " clock64 advances " +
           std::to_string(z.clock_last - z.clock0) + " cycles and %globaltimer " +
           std::to_string(ns_run(z)) + " ns (both must advance)";
  base.cycles_per_ns = double(z.clock_last - z.clock0) / double(ns_run(z));
  for (auto& entry : base.sms) entry.second.offset_ns = double(entry.second.ns0 - earliest);
  return {};
}

}  // namespace rl::timeline_detail

namespace rl {
namespace {

using timeline_detail::warp_place;

void block_problems(const MeasuredTimeline& t, std::size_t slot, std::vector<std::string>& out) {
  const BlockTimeline& b = t.blocks[slot];
  const std::string where =
      "block slot " + std::to_string(slot) + " (block " + std::to_string(b.block) + ")";
  if (t.grid > 0 && b.block >= t.grid)
    out.push_back(where + ": block " + std::to_string(b.block) + " is past the grid of " +
                  std::to_string(t.grid) + " blocks");
  if (t.selection == "sm" && b.sm != t.sm)
    out.push_back(where + ": ran on SM " + std::to_string(b.sm) +
                  ", but the timeline records the blocks of SM " + std::to_string(t.sm));
  if (b.warps.empty()) out.push_back(where + ": has no warps");
  const unsigned warps_per_block = unsigned(std::max(t.block_size, 0) + 31) / 32;
  for (std::size_t i = 0; i < b.warps.size(); ++i) {
    const WarpTimeline& w = b.warps[i];
    if (w.warp >= warps_per_block)
      out.push_back(warp_place(t, slot, w.warp) + ": past the block size " +
                    std::to_string(t.block_size) + " (" + std::to_string(warps_per_block) +
                    " warps)");
    if (i > 0 && w.warp <= b.warps[i - 1].warp)
      out.push_back(warp_place(t, slot, w.warp) +
                    ": warps must be listed once each, by warp "
                    "index (it follows warp " +
                    std::to_string(b.warps[i - 1].warp) + ")");
    if (w.marks.size() > kTimelineMaxMarksPerWarp)
      out.push_back(warp_place(t, slot, w.warp) + ": " + std::to_string(w.marks.size()) +
                    " marks, more than the " + std::to_string(kTimelineMaxMarksPerWarp) +
                    " a warp keeps");
    if (auto p = timeline_detail::warp_marks_problem(w); !p.empty())
      out.push_back(warp_place(t, slot, w.warp) + ": " + p);
  }
}

void setting_problems(const MeasuredTimeline& t, std::vector<std::string>& out) {
  if (t.variant.empty()) out.push_back("variant: empty");
  if (!is_block_size(t.block_size))
    out.push_back("block_size: " + std::to_string(t.block_size) + " " + kBlockSizeRule);
  if (t.unroll < 1) out.push_back("unroll: " + std::to_string(t.unroll) + " must be at least 1");
  if (t.grid == 0) out.push_back("grid: must be at least 1");
  if (t.selection != "sm" && t.selection != "blocks")
    out.push_back("selection: \"" + t.selection + "\" must be \"sm\" or \"blocks\"");
  if (t.blocks.empty()) out.push_back("blocks: no block recorded");
  if (t.blocks.size() > kTimelineMaxBlocks)
    out.push_back("blocks: " + std::to_string(t.blocks.size()) + " recorded, more than the " +
                  std::to_string(kTimelineMaxBlocks) + " a timeline keeps");
  auto cost_ok = [](double v) { return std::isfinite(v) && v >= 0; };
  if (!cost_ok(t.twin_median_ms)) out.push_back("twin_median_ms: must be a finite time >= 0");
  if (!cost_ok(t.real_median_ms)) out.push_back("real_median_ms: must be a finite time >= 0");
  if (t.cost_runs < 0 || t.cost_runs > 1000)
    out.push_back("cost_runs: " + std::to_string(t.cost_runs) + " must be from 0 to 1000");
}

}  // namespace

std::vector<std::string> timeline_problems(const MeasuredTimeline& t) {
  std::vector<std::string> out;
  setting_problems(t, out);
  std::set<unsigned> seen;
  for (std::size_t slot = 0; slot < t.blocks.size(); ++slot) {
    if (!seen.insert(t.blocks[slot].block).second)
      out.push_back("block slot " + std::to_string(slot) + ": block " +
                    std::to_string(t.blocks[slot].block) + " is recorded twice");
    block_problems(t, slot, out);
  }
  timeline_detail::TimeBase base;
  if (auto p = timeline_detail::read_time_base(t, base); !p.empty()) out.push_back(p);
  return out;
}

}  // namespace rl
