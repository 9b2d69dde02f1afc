#include "engine/session/metrics.h"

#include <cstdio>

namespace rl {

std::uint64_t input_bytes(const PointSpec& p) {
  return p.size * std::uint64_t(dtype_size(p.type));
}

std::string format_bytes(std::uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  if (u == 0) return std::to_string(b) + " B";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

const Summary* basis_time(const PointResult& r, TimeBasis b) {
  const Summary& s = b == TimeBasis::Gpu           ? r.gpu_time
                     : b == TimeBasis::FirstKernel ? r.first_kernel
                                                   : r.total;
  return s.empty() ? nullptr : &s;
}

double basis_gbps(const PointResult& r, TimeBasis b) {
  const Summary* t = basis_time(r, b);
  return t ? gbps_of(input_bytes(r.point), t->median_ms) : 0;
}

const Summary* floor_time(const ReadFloor& f, TimeBasis b) {
  const Summary& s = b == TimeBasis::Gpu ? f.gpu_time : f.time;
  return s.empty() ? nullptr : &s;
}

std::optional<double> pct_of_read_floor(const PointResult& r, const ReadFloor& f, TimeBasis b) {
  const Summary* t = basis_time(r, b);
  const Summary* ft = floor_time(f, b);
  if (!t || !ft || t->median_ms <= 0 || ft->median_ms <= 0) return std::nullopt;
  return 100.0 * ft->median_ms / t->median_ms;
}

std::string above_floor_note() {
  return "above 100%: the read floor is itself measured (the best of a few read-only grid "
         "shapes, median), not a bound; a point within the floor's noise can pass it";
}

std::string noisy_note(const PointResult& r, double target) {
  if (!r.noisy) return {};
  char buf[96];
  std::snprintf(buf, sizeof buf, "noise %.1f%% > target %.1f%%", 100.0 * r.total.noise,
                100.0 * target);
  return buf;
}

PointRates point_rates(const PointResult& r, const DeviceInfo& d,
                       const std::vector<ReadFloor>& floors) {
  PointRates out;
  out.first_gbps = basis_gbps(r, TimeBasis::FirstKernel);
  out.total_gbps = basis_gbps(r, TimeBasis::Whole);
  out.pct_of_theoretical = pct_of_theoretical(out.total_gbps, d);
  if (const ReadFloor* f = find_read_floor(floors, input_bytes(r.point)))
    out.pct_of_read_floor = pct_of_read_floor(r, *f, TimeBasis::Whole).value_or(0);
  return out;
}

double pct_of_theoretical(double gbps, const DeviceInfo& d) {
  return d.theoretical_gbps > 0 && gbps > 0 ? 100.0 * gbps / d.theoretical_gbps : 0;
}

}  // namespace rl
