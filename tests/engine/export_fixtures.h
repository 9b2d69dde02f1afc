// A session with every field set to a value that is not the default, for the exporter tests:
// one point of each status, float32 errors that are NaN and infinite, doubles that need all 17
// digits, sizes beyond 32 bits and messages that need CSV quoting.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/session/results.h"

namespace rl::testing {

// The message session_from_json / spec_from_json gives for text, or "" when it reads.
inline std::string session_error(const std::string& text) {
  try {
    session_from_json(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
inline std::string spec_error(const std::string& text) {
  try {
    spec_from_json(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline Summary make_summary(double base, int samples) {
  Summary s;
  s.samples = samples;
  s.median_ms = base;
  s.mean_ms = base * (1.0 + 1.0 / 3.0);
  s.min_ms = base * 0.9;
  s.max_ms = base * 1.7;
  s.stddev_ms = base / 7.0;
  s.noise = 0.1 / 3.0;
  return s;
}

inline PointResult make_point(std::string variant, Workspace w, int block, int unroll,
                              std::uint64_t n, DType type, PointStatus status) {
  PointResult r;
  r.point = PointSpec{std::move(variant), w, block, unroll, n, type};
  r.status = status;
  return r;
}

inline Session make_full_session() {
  Session s;
  s.tool_version = "0.1.0";
  s.git_commit = "0123456789ab";
  s.created_utc = "2025-01-02T03:04:05Z";
  s.cancelled = true;

  DeviceInfo& d = s.device;
  d.backend = "cuda";
  d.index = 1;
  d.name = "NVIDIA H200 \"test\", sm_90";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.l2_bytes = std::size_t(60) << 20;
  d.total_memory = std::size_t(150) << 30;
  d.free_memory = (std::size_t(149) << 30) + 12345;
  d.max_threads_per_block = 1024;
  d.memory_clock_khz = 2619000;
  d.memory_bus_bits = 6144;
  d.theoretical_gbps = 4823.1234567890123;
  d.measured_copy_gbps = 4011.0 / 3.0;
  d.measured_read_gbps = 4567.0 / 7.0;
  d.read_floor_bytes = std::uint64_t(1) << 30;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  d.note = "note with, comma";

  ExperimentSpec& sp = s.spec;
  sp.variants = {"interleaved", "reduceUnroll8", "neighbored"};
  sp.workspaces = {Workspace::Global, Workspace::Shared};
  sp.block_sizes = {256, 1024};
  sp.unroll_factors = {2, 4};
  sp.sizes = {1000003, std::uint64_t(1) << 40};
  sp.types = {DType::Float32, DType::Int32};
  sp.timing = TimingOptions{0.005, 123.25, 3, 7, 99, false};
  sp.baseline = "interleaved";

  PointResult ok = make_point("unroll", Workspace::Shared, 1024, 8, std::uint64_t(1) << 24,
                              DType::Int32, PointStatus::Ok);
  ok.grid = 2048;
  ok.first_kernel = make_summary(0.123456789012345, 40);
  ok.total = make_summary(0.2, 40);
  for (int i = 0; i < 40; ++i) {
    ok.first_samples_ms.push_back(0.1 + i / 3.0);
    ok.total_samples_ms.push_back(0.2 + i / 7.0);
    ok.floor_samples_ms.push_back(0.00128 + (i % 3) * 0.000032);
  }
  ok.timestamp_floor = summarize(ok.floor_samples_ms);
  ok.event_spans = 2;
  ok.gpu_time = gpu_time_of(ok.total_samples_ms, ok.timestamp_floor, ok.event_spans);
  ok.noisy = true;
  ok.speedup = 3.75;
  ok.value = "2139095040";
  ok.expected = "2139095040";
  // The block model's counts: every field distinct, sums beyond 32 bits.
  ModelCounts counts;
  counts.grid = 2048;
  counts.launches = 2;
  counts.first_kernel = StepCounters{
      4458496, 63488, 123, 456, 10240, 789, 1011, 21497856, (std::uint64_t(1) << 40) + 1};
  counts.finish = StepCounters{2047, 3, 4, 5, 11, 6, 7, 4095, 2048};
  ok.counts = counts;
  s.results.push_back(ok);

  PointResult wrong = make_point("interleaved", Workspace::Global, 256, 1, 1000003, DType::Float32,
                                 PointStatus::Wrong);
  wrong.message = "got 1.5, expected 2.5 \"off by one\"\nsecond line";
  wrong.grid = 3907;
  wrong.first_kernel = make_summary(1e-300, 5);
  wrong.total = make_summary(std::numeric_limits<double>::max(), 5);
  wrong.first_samples_ms = {1, 2, 3, 4, 5};
  wrong.total_samples_ms = {1.5, 2.5, 3.5, 4.5, 5.5};
  wrong.value = "1.5";
  wrong.expected = "2.5";
  wrong.abs_error = std::numeric_limits<double>::infinity();
  wrong.rel_error = std::numeric_limits<double>::quiet_NaN();
  s.results.push_back(wrong);

  PointResult failed =
      make_point("neighbored", Workspace::Shared, 64, 1, 1, DType::Int32, PointStatus::Failed);
  failed.message = "cudaMalloc(input, 4 bytes) failed: out of memory, really";
  s.results.push_back(failed);

  PointResult skipped = make_point("neighbored_less", Workspace::Global, 32, 1, 33, DType::Float32,
                                   PointStatus::Skipped);
  skipped.message = "needs compute capability 8.0; this GPU is 7.5";
  skipped.abs_error = -0.0;
  s.results.push_back(skipped);

  ReadFloor floor;
  floor.bytes = std::uint64_t(1) << 26;
  floor.shape = "B=256 U=1 grid=65536";
  floor.time = make_summary(0.0172, 31);
  floor.gpu_time = make_summary(0.0159, 31);
  floor.noisy = true;
  s.read_floors.push_back(floor);
  return s;
}

}  // namespace rl::testing
