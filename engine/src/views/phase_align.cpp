// Phase alignment of two traces (engine/views/phase_align.h).
#include "engine/views/phase_align.h"

#include <algorithm>

namespace rl {

namespace {

struct Segment {
  TracePhase phase;
  int first_step = 0, steps = 0;
};

std::vector<Segment> segments(const Trace& t) {
  std::vector<Segment> out;
  for (int i = 0; i < int(t.steps.size()); ++i) {
    const TracePhase p = phase_of(t.steps[i].kind);
    if (out.empty() || out.back().phase != p)
      out.push_back({p, i, 1});
    else
      ++out.back().steps;
  }
  return out;
}

}  // namespace

std::string_view phase_name(TracePhase p) {
  switch (p) {
    case TracePhase::Start:
      return "start";
    case TracePhase::Load:
      return "load";
    case TracePhase::Map:
      return "per-element work";
    case TracePhase::Vote:
      return "vote";
    case TracePhase::Tree:
      return "tree";
    case TracePhase::LastWarp:
      return "last warp";
    case TracePhase::Write:
      return "write partial";
    case TracePhase::Other:
      return "other";
  }
  return "other";
}

TracePhase phase_of(std::string_view k) {
  if (k == "load") return TracePhase::Load;
  if (k == "map" || k == "path_a" || k == "path_b" || k == "select") return TracePhase::Map;
  if (k == "vote" || k == "ballot") return TracePhase::Vote;
  if (k == "tree" || k == "skipped" || k == "warp_sums" || k == "gather") return TracePhase::Tree;
  if (k == "last_warp" || k == "shuffle" || k == "warp_reduce") return TracePhase::LastWarp;
  if (k == "write_partial" || k == "atomic" || k == "cluster") return TracePhase::Write;
  return TracePhase::Other;
}

std::vector<AlignedFrame> align_by_phase(const Trace& a, const Trace& b) {
  const std::vector<Segment> sa = segments(a), sb = segments(b);
  const std::size_t na = sa.size(), nb = sb.size();
  // lcs[i][j]: the longest common run of phases of sa[i..] and sb[j..].
  std::vector<std::vector<int>> lcs(na + 1, std::vector<int>(nb + 1, 0));
  for (std::size_t i = na; i-- > 0;)
    for (std::size_t j = nb; j-- > 0;)
      lcs[i][j] = sa[i].phase == sb[j].phase ? lcs[i + 1][j + 1] + 1
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<AlignedFrame> out{AlignedFrame{}};
  int fa = 0, fb = 0;
  // Emits one phase: `x` and `y` are the segments shown (nullptr: that view holds).
  const auto emit = [&](const Segment* x, const Segment* y) {
    const int len = std::max(x ? x->steps : 0, y ? y->steps : 0);
    for (int k = 0; k < len; ++k) {
      AlignedFrame f;
      f.phase = x ? x->phase : y->phase;
      f.a_holds = !x || k >= x->steps;
      f.b_holds = !y || k >= y->steps;
      if (!f.a_holds) fa = x->first_step + k + 1;
      if (!f.b_holds) fb = y->first_step + k + 1;
      f.frame_a = fa;
      f.frame_b = fb;
      out.push_back(f);
    }
  };
  std::size_t i = 0, j = 0;
  while (i < na || j < nb) {
    if (i < na && j < nb && sa[i].phase == sb[j].phase) {
      emit(&sa[i++], &sb[j++]);
    } else if (j == nb || (i < na && lcs[i + 1][j] >= lcs[i][j + 1])) {
      emit(&sa[i++], nullptr);
    } else {
      emit(nullptr, &sb[j++]);
    }
  }
  return out;
}

}  // namespace rl
