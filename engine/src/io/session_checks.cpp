#include "engine/io/session_checks.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "io/json_read.h"

namespace rl {

namespace {

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

using json::fail;

// A time: not NaN and, unless it is a difference (the GPU time, the timestamps' cost taken
// out, can dip below zero), not negative. Infinity stays in a summary: a sum past the double
// range is real.
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
  // A sample is one clock reading: finite, as no clock measures an infinite time.
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    check_time(v[i], at, false);
    if (std::isinf(v[i])) fail(at, number(v[i]) + " is not a time (infinite)");
  }
  // A session may leave the raw samples out (the summary stands); when it has them, their
  // count is the summary's.
  if (!v.empty() && v.size() != std::size_t(s.samples))
    fail(path, std::to_string(v.size()) + " samples, but " + summary_path + ".samples says " +
                   std::to_string(s.samples));
}

// A rate or ratio measured or derived from a measurement: never below zero. NaN stays (a point
// that measured nothing has no rate).
void check_rate(double x, const std::string& path, const char* what) {
  if (x < 0 || std::isinf(x)) fail(path, number(x) + " is not " + what);
}

void check_count(long long x, const std::string& path) {
  if (x < 0) fail(path, std::to_string(x) + " is not a count (negative)");
}

}  // namespace

void check_plausible(const DeviceInfo& d, const std::string& path) {
  if (d.index < -1) fail(path + ".index", std::to_string(d.index) + " is not a device index");
  check_count(d.cc_major, path + ".cc_major");
  check_count(d.cc_minor, path + ".cc_minor");
  check_count(d.sm_count, path + ".sm_count");
  check_count(d.max_threads_per_block, path + ".max_threads_per_block");
  check_count(d.memory_clock_khz, path + ".memory_clock_khz");
  check_count(d.memory_bus_bits, path + ".memory_bus_bits");
  check_rate(d.theoretical_gbps, path + ".theoretical_gbps", "a bandwidth (GB/s)");
  check_rate(d.measured_copy_gbps, path + ".measured_copy_gbps", "a bandwidth (GB/s)");
  check_rate(d.measured_read_gbps, path + ".measured_read_gbps", "a bandwidth (GB/s)");
}

void check_plausible(const PointResult& r, const std::string& path) {
  const PointSpec& p = r.point;
  const int b = p.block_size;
  if (b != 0 && !is_block_size(b))
    fail(path + ".block_size",
         std::to_string(b) + " is not a block size (0, or a power of two from 32 to 1024)");
  if (p.unroll < 1 || p.unroll > 1024)
    fail(path + ".unroll", std::to_string(p.unroll) + " is not an unroll factor (1 or more)");
  if (p.size == 0) fail(path + ".size", "0 is not a size (N is at least 1)");
  if (p.size > kMaxPointSize)
    fail(path + ".size", std::to_string(p.size) + " is not a size (at most 2^40)");
  // 0 is "the variant picks" (CUB DeviceReduce records 0 for both): a variant with block sizes
  // of its own ran with one of them, on a grid of at least one block.
  const VariantInfo* v = find_variant_by_id(p.variant);
  if (v && !v->block_sizes.empty()) {
    if (b == 0)
      fail(path + ".block_size", "0, but " + p.variant + " runs with a block size of its list");
    const bool ran = r.status == PointStatus::Ok || r.status == PointStatus::Wrong;
    // The host's model of a rows and columns variant has no blocks (grid 0).
    if (ran && r.grid == 0 && !v->is_segmented())
      fail(path + ".grid", "0 blocks, but the point ran");
  }
  check_summary(r.first_kernel, path + ".first_kernel", false);
  check_summary(r.total, path + ".total", false);
  check_summary(r.timestamp_floor, path + ".timestamp_floor", false);
  check_summary(r.gpu_time, path + ".gpu_time", true);
  check_samples(r.first_samples_ms, r.first_kernel, path + ".first_samples_ms", "first_kernel");
  check_samples(r.total_samples_ms, r.total, path + ".total_samples_ms", "total");
  check_samples(r.floor_samples_ms, r.timestamp_floor, path + ".floor_samples_ms",
                "timestamp_floor");
  if (r.speedup) check_rate(*r.speedup, path + ".speedup", "a speed-up");
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

void check_session(const Session& s) {
  // Each point of a spec runs once: a second copy would count twice in every chart and table.
  // Size and rows together give a matrix point's shape.
  std::set<std::tuple<std::string, int, int, int, std::uint64_t, std::uint64_t, int>> seen;
  for (std::size_t i = 0; i < s.results.size(); ++i) {
    const PointSpec& p = s.results[i].point;
    if (!seen.emplace(p.variant, int(p.workspace), p.block_size, p.unroll, p.size, p.rows,
                      int(p.type))
             .second)
      fail("results[" + std::to_string(i) + "]",
           p.label() + " appears twice (each point of a run is measured once)");
  }
}

}  // namespace rl
