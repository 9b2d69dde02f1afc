#include "engine/report/compare.h"

#include <cmath>
#include <map>
#include <tuple>

#include "engine/report/time_basis.h"

namespace rl {

namespace {

using Key = std::tuple<std::string, int, int, int, std::uint64_t, std::uint64_t, int>;

Key key_of(const PointSpec& p) {  // size and rows give the shape (cols = size / rows)
  return {p.variant, int(p.workspace), p.block_size, p.unroll, p.size, p.rows, int(p.type)};
}

// The spread of a measurement, relative: what one more run could differ by.
double relative_spread(const Summary& s) {
  return s.mean_ms > 0 ? s.stddev_ms / s.mean_ms : 0;
}

PointComparison compare_point(const PointResult& a, const PointResult& b, TimeBasis basis) {
  PointComparison c;
  c.point = a.point;
  for (const auto& [side, r] : {std::pair{"A", &a}, std::pair{"B", &b}})
    if (r->status != PointStatus::Ok) {
      c.why = std::string(side) + ": " + std::string(to_string(r->status));
      return c;
    }
  const Summary* ta = basis_time(a, basis);
  const Summary* tb = basis_time(b, basis);
  if (!ta || !tb || ta->median_ms <= 0 || tb->median_ms <= 0) {
    c.why =
        std::string(!ta || ta->median_ms <= 0 ? "A" : "B") + " has no " + time_basis_name(basis);
    return c;
  }
  c.a_ms = ta->median_ms;
  c.b_ms = tb->median_ms;
  c.ratio = c.b_ms / c.a_ms;
  c.noise = std::max(relative_spread(*ta), relative_spread(*tb));
  const double change = std::abs(c.ratio - 1);
  c.verdict = change <= c.noise ? Verdict::Same : c.ratio < 1 ? Verdict::Faster : Verdict::Slower;
  return c;
}

}  // namespace

bool same_kind_of_time(const DeviceInfo& a, const DeviceInfo& b) {
  return (a.backend == "host") == (b.backend == "host");
}

std::string kinds_of_time_note(const DeviceInfo& a, const DeviceInfo& b) {
  if (same_kind_of_time(a, b)) return {};
  auto kind = [](const DeviceInfo& d) {
    return d.backend == "host" ? std::string("CPU times (host emulation)") : "GPU times";
  };
  return "different kinds of time: A has " + kind(a) + ", B " + kind(b) +
         "; the ratios compare an emulation on the CPU with a GPU, not the kernels";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Faster:
      return "faster";
    case Verdict::Slower:
      return "slower";
    case Verdict::Same:
      return "same";
    case Verdict::NotComparable:
      return "not comparable";
  }
  return "?";
}

int SessionComparison::count(Verdict v) const {
  int n = 0;
  for (const PointComparison& p : points) n += p.verdict == v;
  return n;
}

std::string SessionComparison::summary() const {
  std::string s = std::to_string(count(Verdict::Faster)) + " faster, " +
                  std::to_string(count(Verdict::Slower)) + " slower, " +
                  std::to_string(count(Verdict::Same)) + " same (B against A, " +
                  time_basis_name(basis) + ")";
  if (const int n = count(Verdict::NotComparable))
    s += "; " + std::to_string(n) + " not comparable";
  if (!only_a.empty()) s += "; " + std::to_string(only_a.size()) + " only in A";
  if (!only_b.empty()) s += "; " + std::to_string(only_b.size()) + " only in B";
  return s;
}

SessionComparison compare_sessions(const Session& a, const Session& b, TimeBasis basis) {
  SessionComparison out;
  out.basis = basis;
  out.kinds_of_time = kinds_of_time_note(a.device, b.device);
  // Indexed: sessions of 100k points compare in one pass each, not in quadratic time.
  std::map<Key, const PointResult*> in_b;
  for (const PointResult& r : b.results) in_b.emplace(key_of(r.point), &r);
  std::map<Key, bool> matched;
  for (const PointResult& r : a.results) {
    const Key k = key_of(r.point);
    const auto it = in_b.find(k);
    if (it == in_b.end() || matched.count(k)) {
      if (it == in_b.end()) out.only_a.push_back(r.point);
      continue;
    }
    matched[k] = true;
    out.points.push_back(compare_point(r, *it->second, basis));
  }
  for (const PointResult& r : b.results)
    if (!matched.count(key_of(r.point))) out.only_b.push_back(r.point);
  return out;
}

}  // namespace rl
