#include "results.h"

#include <cmath>
#include <cstdlib>

#include "catalog.h"

namespace rl {

std::string_view to_string(PointStatus s) {
  switch (s) {
    case PointStatus::Ok:
      return "ok";
    case PointStatus::Wrong:
      return "wrong";
    case PointStatus::Failed:
      return "failed";
    case PointStatus::Skipped:
      return "skipped";
  }
  return "?";
}

std::optional<PointStatus> parse_point_status(std::string_view s) {
  for (PointStatus v :
       {PointStatus::Ok, PointStatus::Wrong, PointStatus::Failed, PointStatus::Skipped})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

const PointResult* find_baseline(const std::vector<PointResult>& results, const PointSpec& p,
                                 const std::string& baseline) {
  const PointResult* best = nullptr;
  int best_score = -1;
  for (const auto& r : results) {
    const PointSpec& q = r.point;
    if (r.status != PointStatus::Ok || q.variant != baseline || q.size != p.size ||
        q.type != p.type)
      continue;
    const int score = (q.workspace == p.workspace ? 4 : 0) +
                      (q.block_size == p.block_size ? 2 : 0) + (q.unroll == p.unroll ? 1 : 0);
    if (score > best_score) {
      best = &r;
      best_score = score;
    }
  }
  return best;
}

void compute_speedups(std::vector<PointResult>& results, const std::string& baseline_variant) {
  std::string base = baseline_variant;
  if (auto ref = resolve_variant(baseline_variant)) base = ref->variant->id;
  for (auto& r : results) {
    r.speedup.reset();
    if (r.status != PointStatus::Ok || r.total.empty()) continue;
    const PointResult* b = find_baseline(results, r.point, base);
    if (b && r.total.median_ms > 0) r.speedup = b->total.median_ms / r.total.median_ms;
  }
}

}  // namespace rl
