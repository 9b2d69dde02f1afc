#include "trace/timeline_marks_read.h"

#include <algorithm>

#include "kernels/timeline_marks.cuh"

namespace rl {

namespace {

std::string phase_name(unsigned phase, unsigned arg, const std::map<unsigned, std::string>& user) {
  switch (phase) {
    case RL_TL_PHASE_LOAD:
      return "load";
    case RL_TL_PHASE_TREE:
      return "tree";
    case RL_TL_PHASE_LAST_WARP:
      return "last warp";
    case RL_TL_PHASE_WRITE:
      return "write";
    case RL_TL_PHASE_WARP:
      return "warp";
    case RL_TL_PHASE_HAND_ON:
      return "hand on";
    case RL_TL_PHASE_CLUSTER:
      return "cluster";
    default:
      if (auto it = user.find(arg); it != user.end()) return it->second;
      return "phase #" + std::to_string(arg);
  }
}

// A 32-bit word stamped after the warp's start, widened: the counters only go forward, so the
// distance from the start's low word is the (wrapped) elapsed count.
std::uint64_t widen(std::uint64_t start, std::uint32_t low) {
  return start + std::uint32_t(low - std::uint32_t(start));
}

TimelineMark read_mark(const std::uint32_t* m, const kernels::WarpMarksRecord& r,
                       const std::map<unsigned, std::string>& user) {
  TimelineMark out;
  const unsigned kind = m[0] >> 24, phase = (m[0] >> 16) & 0xffu, arg = m[0] & 0xffffu;
  out.clock = widen(r.start_clock, m[1]);
  out.ns = widen(r.start_ns, m[2]);
  switch (kind) {
    case RL_TL_START:
      out.kind = MarkKind::Start;
      break;
    case RL_TL_PHASE:
      out.kind = MarkKind::Phase;
      out.phase = phase_name(phase, arg, user);
      out.index = phase == RL_TL_PHASE_USER ? 0 : arg;
      break;
    case RL_TL_ARRIVE:
      out.kind = MarkKind::Arrive;
      out.index = arg;
      break;
    case RL_TL_RELEASE:
      out.kind = MarkKind::Release;
      out.index = arg;
      break;
    default:
      out.kind = MarkKind::End;
      break;
  }
  return out;
}

}  // namespace

std::vector<BlockTimeline> blocks_from_records(const std::vector<kernels::WarpMarksRecord>& records,
                                               unsigned warps_per_block,
                                               const std::map<unsigned, std::string>& user) {
  std::vector<BlockTimeline> blocks;
  for (const kernels::WarpMarksRecord& r : records) {
    if (r.warp >= warps_per_block) continue;
    auto b = std::find_if(blocks.begin(), blocks.end(),
                          [&](const BlockTimeline& x) { return x.block == r.block; });
    if (b == blocks.end()) {
      blocks.push_back(BlockTimeline{r.block, r.sm, {}});
      b = blocks.end() - 1;
    }
    WarpTimeline w;
    w.warp = r.warp;
    w.truncated = r.count > RL_TL_MAX_MARKS;
    for (std::size_t i = 0; i + RL_TL_WORDS_PER_MARK <= r.stage.size(); i += RL_TL_WORDS_PER_MARK)
      w.marks.push_back(read_mark(r.stage.data() + i, r, user));
    b->warps.push_back(std::move(w));
  }
  for (BlockTimeline& b : blocks)
    std::sort(b.warps.begin(), b.warps.end(),
              [](const WarpTimeline& x, const WarpTimeline& y) { return x.warp < y.warp; });
  return blocks;
}

}  // namespace rl
