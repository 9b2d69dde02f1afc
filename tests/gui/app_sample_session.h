// A small hand-made session for chart tests: a test GPU (not a real measurement), the classic
// ladder's first three rungs at two unroll factors, one wrong result. Times are round numbers
// chosen to make the expected speed-ups obvious.
#pragma once

#include "engine/session/results.h"

namespace rl::gui::test {

inline PointResult sample_point(const std::string& variant, int unroll, int block,
                                std::uint64_t size, double median_ms,
                                PointStatus status = PointStatus::Ok) {
  PointResult r;
  r.point = PointSpec{variant, Workspace::Global, block, unroll, size, DType::Int32};
  r.status = status;
  if (status == PointStatus::Wrong) r.message = "value 41 differs from the host's 42";
  r.grid = unsigned(size / std::uint64_t(block * unroll));
  r.total.samples = 10;
  r.total.median_ms = r.total.mean_ms = median_ms;
  r.total.min_ms = median_ms * 0.9;
  r.total.max_ms = median_ms * 1.2;
  r.total_samples_ms.assign(10, median_ms);
  r.first_kernel = r.total;
  r.value = status == PointStatus::Wrong ? "41" : "42";
  r.expected = "42";
  return r;
}

inline Session sample_session(const std::string& device_name = "Test GPU") {
  Session s;
  s.tool_version = "test";
  s.created_utc = "2025-01-01T00:00:00Z";
  s.device.backend = "cuda";
  s.device.index = 0;
  s.device.name = device_name;
  s.device.cc_major = 9;
  s.device.theoretical_gbps = 1000;
  s.device.measured_copy_gbps = 800;
  s.spec.variants = {"neighbored", "interleaved", "unroll"};
  s.spec.unroll_factors = {1, 2, 4};
  const std::uint64_t n = 1u << 20;
  s.results.push_back(sample_point("neighbored", 1, 1024, n, 4.0));
  s.results.push_back(sample_point("interleaved", 1, 1024, n, 2.0));
  s.results.push_back(sample_point("unroll", 2, 1024, n, 1.0));
  s.results.push_back(sample_point("unroll", 4, 1024, n, 0.5, PointStatus::Wrong));
  s.results.push_back(sample_point("unroll", 8, 1024, n, 0.4));
  compute_speedups(s.results, "neighbored");
  return s;
}

}  // namespace rl::gui::test
