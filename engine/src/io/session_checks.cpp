#include "engine/io/session_checks.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/core/error.h"

namespace rl {

namespace {

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(path + ": " + what);
}

// A time: not NaN and, unless it is a difference (the GPU time, the timestamps' cost taken
// out, can dip below zero), not negative. Infinity stays: a sum past the double range is real.
void check_time(double x, const std::string& path, bool may_be_negative) {
  if (std::isnan(x)) fail(path, "NaN is not a time");
  if (!may_be_negative && x < 0) fail(path, number(x) + " is not a time (negative)");
}

void check_summary(const Summary& s, const std::string& path, bool may_be_negative) {
  if (s.samples < 0) fail(path + ".samples", std::to_string(s.samples) + " is not a count");
  const std::pair<double, const char*> times[] = {{s.median_ms, "median_ms"},
                                                  {s.mean_ms, "mean_ms"},
                                                  {s.min_ms, "min_ms"},
                                                  {s.max_ms, "max_ms"}};
  for (const auto& [x, key] : times) check_time(x, path + "." + key, may_be_negative);
  if (std::isnan(s.stddev_ms) || s.stddev_ms < 0)
    fail(path + ".stddev_ms", number(s.stddev_ms) + " is not a standard deviation");
  if (std::isnan(s.noise) || s.noise < 0)
    fail(path + ".noise", number(s.noise) + " is not a relative error");
  if (s.samples > 0 && !(s.min_ms <= s.median_ms && s.median_ms <= s.max_ms))
    fail(path, "median_ms " + number(s.median_ms) + " is not between min_ms " + number(s.min_ms) +
                   " and max_ms " + number(s.max_ms));
}

void check_samples(const std::vector<double>& v, const Summary& s, const std::string& path,
                   const std::string& summary_path) {
  for (std::size_t i = 0; i < v.size(); ++i)
    check_time(v[i], path + "[" + std::to_string(i) + "]", false);
  // A session may leave the raw samples out (the summary stands); when it has them, their
  // count is the summary's.
  if (!v.empty() && v.size() != std::size_t(s.samples))
    fail(path, std::to_string(v.size()) + " samples, but " + summary_path + ".samples says " +
                   std::to_string(s.samples));
}

}  // namespace

void check_plausible(const PointResult& r, const std::string& path) {
  const PointSpec& p = r.point;
  const int b = p.block_size;
  if (b != 0 && (b < 32 || b > 1024 || (b & (b - 1)) != 0))
    fail(path + ".block_size",
         std::to_string(b) + " is not a block size (0, or a power of two from 32 to 1024)");
  if (p.unroll < 1 || p.unroll > 1024)
    fail(path + ".unroll", std::to_string(p.unroll) + " is not an unroll factor (1 or more)");
  if (p.size == 0) fail(path + ".size", "0 is not a size (N is at least 1)");
  check_summary(r.first_kernel, path + ".first_kernel", false);
  check_summary(r.total, path + ".total", false);
  check_summary(r.timestamp_floor, path + ".timestamp_floor", false);
  check_summary(r.gpu_time, path + ".gpu_time", true);
  check_samples(r.first_samples_ms, r.first_kernel, path + ".first_samples_ms", "first_kernel");
  check_samples(r.total_samples_ms, r.total, path + ".total_samples_ms", "total");
  check_samples(r.floor_samples_ms, r.timestamp_floor, path + ".floor_samples_ms",
                "timestamp_floor");
  if (r.gpu_time.samples != 0 && r.gpu_time.samples != r.total.samples)
    fail(path + ".gpu_time.samples", std::to_string(r.gpu_time.samples) +
                                         ", but total.samples says " +
                                         std::to_string(r.total.samples));
}

void check_plausible(const ReadFloor& f, const std::string& path) {
  if (f.bytes == 0) fail(path + ".bytes", "0 is not a size");
  check_summary(f.time, path + ".time", false);
  check_summary(f.gpu_time, path + ".gpu_time", true);
}

}  // namespace rl
