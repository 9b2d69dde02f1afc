// The multi-GPU run on real GPUs: on one GPU (G = 1) wherever there is a GPU, on two where two
// exist; each test skips saying why otherwise. Small sizes with odd shards (N not a multiple of
// G, nor of a tile), both types, every exchange, verified against the host by the run itself.
#include <gtest/gtest.h>

#include <cstdio>

#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/multi/multi_run.h"
#include "engine/report/link_text.h"
#include "multi/shard_gpu.h"  // measure_peer_copy_gbps

namespace rl::testing {
namespace {

// The GPUs there are, or the reason the test cannot run.
std::string skip_reason(std::size_t gpus_needed) {
  const Discovery d = discover_devices();
  if (d.gpus.empty()) return "no usable GPU: " + d.no_gpu_reason;
  if (d.gpus.size() < gpus_needed)
    return "needs " + std::to_string(gpus_needed) + " GPUs; this machine has " +
           std::to_string(d.gpus.size());
  return "";
}

MultiSpec small_spec(std::vector<int> devices) {
  MultiSpec s;
  s.devices = std::move(devices);
  s.sizes = {1000003, (std::uint64_t(1) << 22) + 5};
  s.types = {DType::Int32, DType::Float32};
  s.timing.min_samples = 3;
  s.timing.max_samples = 10;
  s.timing.budget_ms = 20;
  return s;
}

// Every point verified; the NCCL ones SKIPPED only where NCCL is unavailable, saying so.
void expect_every_point_verified(const MultiSession& s, std::size_t expected_points) {
  ASSERT_FALSE(s.cancelled);
  ASSERT_EQ(s.points.size(), expected_points);
  for (const MultiPoint& p : s.points) {
    SCOPED_TRACE(p.point.label());
    if (uses_nccl(p.point.exchange) && !s.nccl_available) {
      EXPECT_EQ(p.status, PointStatus::Skipped);
      EXPECT_NE(p.message.find("NCCL is unavailable"), std::string::npos) << p.message;
      continue;
    }
    EXPECT_EQ(p.status, PointStatus::Ok) << p.message;
    // int32 totals are exact; float32 ones are within the engine's tolerance (status Ok) and
    // printed at float precision against the double reference.
    if (p.point.type == DType::Int32) EXPECT_EQ(p.value, p.expected);
    EXPECT_GT(p.times.total.median_ms, 0);
    EXPECT_GE(p.times.total.samples, 3);
    EXPECT_NEAR(p.times.local.median_ms + p.times.exchange.median_ms, p.times.total.median_ms,
                0.5 * p.times.total.median_ms);
    ASSERT_EQ(p.gpus.size(), std::size_t(p.point.gpu_count));
    if (p.point.exchange != Exchange::GatherShards)
      for (const GpuShare& g : p.gpus) {
        EXPECT_FALSE(g.times.local.empty());
        if (p.point.type == DType::Int32) EXPECT_EQ(g.partial, g.expected_partial);
      }
    EXPECT_GT(p.total_gbps(), 0);
  }
}

TEST(MultiGpu, OneGpuRunsEveryExchange) {
  if (const std::string why = skip_reason(1); !why.empty()) GTEST_SKIP() << why;
  const MultiSession s = run_multi(small_spec({0}), {}, nullptr);
  expect_every_point_verified(s, 2 * 2 * 4);
  EXPECT_TRUE(s.links.empty());
  EXPECT_FALSE(s.read_floors.empty());
}

TEST(MultiGpu, TwoGpusSplitTheInputAndScaleFromOne) {
  if (const std::string why = skip_reason(2); !why.empty()) GTEST_SKIP() << why;
  const MultiSession s = run_multi(small_spec({0, 1}), {}, nullptr);
  expect_every_point_verified(s, 2 * 2 * 2 * 4);  // sizes x types x G = 1, 2 x exchanges
  ASSERT_EQ(s.links.size(), 2u);
  for (const PeerLink& l : s.links) EXPECT_GT(l.measured_gbps, 0);
  for (const MultiPoint& p : s.points)
    if (p.point.gpu_count == 2 && p.status == PointStatus::Ok)
      EXPECT_EQ(p.gpus[0].elements + p.gpus[1].elements, p.point.size);
}

// What joins the pair as the driver's NVML says (printed, to compare with nvidia-smi topo -m):
// never an unnamed kind without a reason, both directions alike, the roof from links and
// version, and a measured peer copy no faster than that roof.
TEST(MultiGpu, TheDriverNamesTheLinkBetweenTwoGpus) {
  if (const std::string why = skip_reason(2); !why.empty()) GTEST_SKIP() << why;
  const std::vector<PeerLink> links = discover_links({0, 1});
  ASSERT_EQ(links.size(), 2u);
  for (const std::string& line : link_lines(links)) std::printf("link    %s\n", line.c_str());
  for (const PeerLink& l : links) {
    EXPECT_FALSE(l.link_source.empty());
    EXPECT_EQ(l.nvlinks, links[0].nvlinks);
    EXPECT_EQ(l.nvlink_version, links[0].nvlink_version);
    if (!l.nvml_answered() || l.nvlinks == 0) continue;
    EXPECT_FALSE(l.nvlink_version.empty()) << "NVML named no version for active links";
    EXPECT_EQ(l.nvlink_gbps, nvlink_roof_gbps(l.nvlinks, l.nvlink_version));
  }
  if (links[0].nvlink_gbps > 0) {
    const double copy = measure_peer_copy_gbps(0, 1, std::size_t(256) << 20);
    std::printf("peer copy cuda:0 -> cuda:1 %.1f GB/s against the NVLink roof %.0f GB/s\n", copy,
                links[0].nvlink_gbps);
    EXPECT_LE(copy, links[0].nvlink_gbps * 1.02);
  }
}

TEST(MultiGpu, TheRunRefusesABadSpecBeforeTouchingAGpu) {
  if (const std::string why = skip_reason(1); !why.empty()) GTEST_SKIP() << why;
  MultiSpec s = small_spec({0, 0});
  EXPECT_THROW(run_multi(s, {}, nullptr), Error);
}

TEST(MultiGpu, ACancelledRunKeepsWhatFinished) {
  if (const std::string why = skip_reason(1); !why.empty()) GTEST_SKIP() << why;
  std::atomic<bool> cancel{false};
  MultiCallbacks cb;
  cb.on_point = [&](const MultiPoint&, std::size_t, std::size_t) { cancel = true; };
  const MultiSession s = run_multi(small_spec({0}), cb, &cancel);
  EXPECT_TRUE(s.cancelled);
  EXPECT_EQ(s.points.size(), 1u);
}

}  // namespace
}  // namespace rl::testing
