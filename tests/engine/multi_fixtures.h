// A multi-GPU session with every field set, for the exporter and app tests. The numbers are
// made up for the tests and appear nowhere else (never as data in docs or resources).
#pragma once

#include <string>

#include "engine/session/multi_results.h"

namespace rl::testing {

inline Summary multi_summary(double median, int samples) {
  Summary s;
  s.samples = samples;
  s.median_ms = median;
  s.mean_ms = median * 1.01;
  s.min_ms = median * 0.97;
  s.max_ms = median * 1.2;
  s.stddev_ms = median / 300.0;
  s.noise = 0.002;
  return s;
}

// Points of every exchange over one and two made-up GPUs at two sizes; the last NCCL point of
// the larger size SKIPPED, as where NCCL is missing.
inline MultiSession make_multi_session() {
  MultiSession s;
  s.tool_version = "test";
  s.git_commit = "abc123";
  s.created_utc = "2025-01-01T00:00:00Z";
  for (int i = 0; i < 2; ++i) {
    DeviceInfo d;
    d.backend = "cuda";
    d.index = i;
    d.name = "Test GPU";
    d.cc_major = 9;
    d.sm_count = 100;
    d.l2_bytes = 1 << 20;
    d.total_memory = std::size_t(1) << 34;
    d.theoretical_gbps = 1000;
    s.devices.push_back(d);
  }
  s.links = {{0, 1, true, 0, true, 100.0}, {1, 0, true, 0, true, 99.5}};
  for (PeerLink& l : s.links) {  // as NVML names an H200 pair's NV18
    l.nvlinks = 18;
    l.nvlink_version = "4.0";
    l.nvlink_gbps = 450;
    l.link_source = "NVML";
  }
  s.nccl_available = true;
  s.nccl = "NCCL 2.0.0 (test)";
  s.spec.devices = {0, 1};
  s.spec.sizes = {1 << 20, 1 << 22};
  s.read_floors = {{0, 4 << 20, 0.005}, {0, 2 << 20, 0.003}, {1, 2 << 20, 0.003}};
  for (std::uint64_t n : s.spec.sizes)
    for (int g : {1, 2})
      for (Exchange e : all_exchanges()) {
        MultiPoint p;
        p.point = {e, g, n, DType::Int32};
        for (int r = 0; r < g; ++r) p.devices.push_back(r);
        const double scale = double(n) / double(1 << 20);
        const double local = 0.004 * scale / g, exchange = uses_nccl(e) ? 0.02 : 0.01 * g;
        p.times = {multi_summary(local, 5), multi_summary(exchange, 5),
                   multi_summary(local + exchange, 5)};
        p.local_samples_ms = {local, local, local, local, local};
        p.exchange_samples_ms = {exchange, exchange, exchange, exchange, exchange};
        p.total_samples_ms = {local + exchange, local + exchange, local + exchange,
                              local + exchange, local + exchange};
        p.read_roof_gbps = 1200.0 * g;
        p.value = p.expected = std::to_string(n * 127);
        for (int r = 0; r < g; ++r) {
          GpuShare share;
          share.device = r;
          share.elements = n / g;
          share.times = p.times;
          share.local_samples_ms = p.local_samples_ms;
          share.exchange_samples_ms = p.exchange_samples_ms;
          share.total_samples_ms = p.total_samples_ms;
          share.partial = share.expected_partial = std::to_string(n / g * 127);
          p.gpus.push_back(share);
        }
        s.points.push_back(p);
      }
  MultiPoint& skipped = s.points.back();
  skipped.point.exchange = Exchange::NcclReduce;
  skipped.status = PointStatus::Skipped;
  skipped.message = "NCCL is unavailable: \"quoted\", with a comma";
  return s;
}

}  // namespace rl::testing
