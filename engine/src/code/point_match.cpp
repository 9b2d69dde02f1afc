#include "engine/code/point_match.h"

namespace rl::code {

const PointResult* matching_point(const Session& session, const CodeQuery& q,
                                  const std::function<bool(const PointResult&)>& has,
                                  std::optional<std::uint64_t> size) {
  const PointResult* best = nullptr;
  for (const PointResult& r : session.results) {
    const PointSpec& p = r.point;
    if (!has(r)) continue;
    if (p.variant != q.variant || p.type != q.type || p.unroll != q.unroll) continue;
    if (q.workspace && p.workspace != *q.workspace) continue;
    if (q.block_size > 0 && p.block_size != q.block_size) continue;
    if (size && p.size != *size) continue;
    if (!best || p.size > best->point.size) best = &r;
  }
  return best;
}

const PointResult* occupancy_point(const Session& session, const CodeQuery& q) {
  return matching_point(session, q, [](const PointResult& r) { return !r.occupancy.empty(); });
}

}  // namespace rl::code
