#include "engine/session/results.h"

#include <cmath>
#include <cstdlib>

#include "engine/catalog/catalog.h"

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

const ReadFloor* find_read_floor(const std::vector<ReadFloor>& floors, std::uint64_t bytes) {
  for (const ReadFloor& f : floors)
    if (f.bytes == bytes) return &f;
  return nullptr;
}

int count_noisy(const std::vector<PointResult>& results) {
  int n = 0;
  for (const PointResult& r : results) n += r.noisy ? 1 : 0;
  return n;
}

namespace {

// Whether candidate q is a better baseline for p than the best so far (null: none yet). Against
// another variant: the same workspace, then block size, then unroll factor (like with like).
// Against its own variant only the same workspace and block size qualify, and the lowest unroll
// factor wins: U=2, 4, 8 are then compared with U=1, the classic ladder's unrolling experiment.
bool better_baseline(const PointSpec& q, const PointSpec* best, const PointSpec& p) {
  const bool own = q.variant == p.variant;
  const bool same_ws = q.workspace == p.workspace, same_block = q.block_size == p.block_size;
  if (own && !(same_ws && same_block)) return false;
  auto score = [&](const PointSpec& c) {
    return (c.workspace == p.workspace ? 4 : 0) + (c.block_size == p.block_size ? 2 : 0) +
           (!own && c.unroll == p.unroll ? 1 : 0);
  };
  if (!best) return true;
  const int a = score(q), b = score(*best);
  return a > b || (a == b && q.unroll < best->unroll);
}

bool usable_baseline(const PointResult& r, const std::string& baseline) {
  return r.status == PointStatus::Ok && r.point.variant == baseline;
}

std::string baseline_id(const std::string& name) {
  const auto ref = resolve_variant(name);
  return ref ? ref->variant->id : name;
}

}  // namespace

BaselineIndex::DataKey BaselineIndex::data_key(const PointSpec& p) {
  return {p.size, p.rows, p.cols, int(p.type)};  // what same_data() compares
}

BaselineIndex::BaselineIndex(const std::vector<PointResult>& results, const std::string& baseline)
    : baseline_(baseline_id(baseline)) {
  for (const PointResult& r : results)
    if (usable_baseline(r, baseline_)) by_data_[data_key(r.point)].push_back(&r);
}

const PointResult* BaselineIndex::find(const PointSpec& p) const {
  const auto it = by_data_.find(data_key(p));
  if (it == by_data_.end()) return nullptr;
  const PointResult* best = nullptr;
  for (const PointResult* r : it->second)
    if (better_baseline(r->point, best ? &best->point : nullptr, p)) best = r;
  return best;
}

const PointResult* find_baseline(const std::vector<PointResult>& results, const PointSpec& p,
                                 const std::string& baseline) {
  // One look-up: a scan, no index to build (compute_speedups indexes once for every point).
  const std::string base = baseline_id(baseline);
  const PointResult* best = nullptr;
  for (const PointResult& r : results)
    if (usable_baseline(r, base) && same_data(r.point, p) &&
        better_baseline(r.point, best ? &best->point : nullptr, p))
      best = &r;
  return best;
}

void compute_speedups(std::vector<PointResult>& results, const std::string& baseline_variant) {
  const BaselineIndex index(results, baseline_variant);
  for (auto& r : results) {
    r.speedup.reset();
    if (r.status != PointStatus::Ok || r.total.empty()) continue;
    const PointResult* b = index.find(r.point);
    if (b && r.total.median_ms > 0) r.speedup = b->total.median_ms / r.total.median_ms;
  }
}

}  // namespace rl
