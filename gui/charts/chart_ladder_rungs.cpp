// A ladder chart's analysis (chart_ladder_rungs.h): the setting with the most steps, the rungs
// and bar sets there, and the point each set's speed-ups are against. The drawing is
// chart_ladder.cpp.
#include "charts/chart_ladder_rungs.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "engine/catalog/catalog.h"

namespace rl::gui::detail {

QString other_settings_note(const ShownSession& s) {
  const std::size_t n = ladder_settings_of(s)->size();
  return n > 1 ? QString("1 of %1 settings in the session").arg(n) : QString();
}

namespace {

// The point each speed-up of a set is against: the baseline variant's point in this set; for
// a workspace the baseline does not run in (kernels past the classic ladder keep their work in
// registers), the baseline in the classic ladder's global workspace, so the last bar compares with
// the first; else the first rung.
const PointResult* reference_of(const LadderBars& b, const std::vector<PointResult>& results,
                                const std::string& baseline, const auto& in_setting) {
  const PointResult* ref = nullptr;
  for (const PointResult* r : b.at)
    if (r && r->status == PointStatus::Ok && r->point.variant == baseline && !ref) ref = r;
  if (!ref)
    for (const PointResult& r : results)
      if (!ref && in_setting(r) && r.status == PointStatus::Ok && r.point.variant == baseline &&
          r.point.workspace == Workspace::Global)
        ref = &r;
  if (!ref)
    for (const PointResult* r : b.at)
      if (r && r->status == PointStatus::Ok && !ref) ref = r;
  return ref;
}

}  // namespace

Ladder ladder_points(const std::vector<ShownSession>& ss, const LadderSetting& chosen,
                     const std::string& baseline, TimeBasis basis, BasisNotes& notes) {
  auto at_setting = [&](const PointResult& r) { return chosen.holds(r); };
  auto in_setting = [&](const PointResult& r) { return at_setting(r) && basis_time(r, basis); };
  // Rungs: every (variant, unroll) in catalog order; bar sets: (session, workspace).
  std::set<std::tuple<int, std::string, int>> rungs;
  std::set<std::pair<int, int>> sets;
  Ladder l;
  for (int si = 0; si < int(ss.size()); ++si)
    for (const PointResult& r : ss[si].session->results)
      if (at_setting(r) && notes.time_of(r)) {
        rungs.insert({catalog_index(r.point.variant), r.point.variant, r.point.unroll});
        sets.insert({si, int(r.point.workspace)});
      } else if (at_setting(r) && r.point.variant == baseline) {
        l.baseline_lacks = true;
      }
  for (const auto& [idx, v, u] : rungs) l.rungs.push_back({v, u});
  for (const auto& s : ss)
    for (const PointResult& r : s.session->results)
      if (in_setting(r)) l.max_ms = std::max(l.max_ms, basis_time(r, basis)->median_ms);
  for (const auto& [si, ws] : sets) {
    LadderBars b;
    b.session = si;
    b.workspace = ws;
    b.at.assign(l.rungs.size(), nullptr);
    for (const PointResult& r : ss[si].session->results) {
      if (!in_setting(r) || int(r.point.workspace) != ws) continue;
      for (size_t k = 0; k < l.rungs.size(); ++k)
        if (l.rungs[k].first == r.point.variant && l.rungs[k].second == r.point.unroll)
          b.at[k] = &r;
    }
    b.ref = reference_of(b, ss[si].session->results, baseline, in_setting);
    l.bars.push_back(std::move(b));
  }
  return l;
}

}  // namespace rl::gui::detail
