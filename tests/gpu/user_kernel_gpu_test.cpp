// Kernels the user writes, on the GPU: the starters are timed and verified beside the built-in
// rungs; a wrong kernel is caught before it is timed, at the awkward size and input that shows it,
// with the expected total and what it gave; it never gets a speed-up. (A kernel that faults or
// never finishes is survived by the worker process: scripts/gpu-check.sh's user step.)
#include <gtest/gtest.h>

#include <cstdlib>

#include "engine/device/device.h"
#include "engine/measure/runner.h"
#include "engine/session/metrics.h"
#include "engine/user/user_kernel.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

// The source tree, as built or as copied to a GPU machine (RL_TEST_SOURCE_DIR).
std::string source_path(const std::string& compiled, const std::string& relative) {
  if (const char* root = std::getenv("RL_TEST_SOURCE_DIR"); root && *root)
    return std::string(root) + "/" + relative;
  return compiled;
}
std::string starter(const std::string& f) {
  return source_path(RL_RESOURCES_DIR "/kernels/" + f, "resources/kernels/" + f);
}
std::string test_kernel(const std::string& f) {
  return source_path(RL_USER_KERNELS_DIR "/" + f, "tests/data/user_kernels/" + f);
}

Session run_user(const UserKernelSource& k, std::vector<std::string> variants,
                 std::vector<int> blocks, std::vector<int> unrolls, std::vector<DType> types,
                 std::uint64_t n) {
  ExperimentSpec s;
  s.user_kernels = {k};
  s.variants = std::move(variants);
  s.variants.push_back(k.name);
  s.block_sizes = std::move(blocks);
  s.unroll_factors = std::move(unrolls);
  s.types = std::move(types);
  s.sizes = {n};
  s.baseline = s.variants.front();
  s.timing.budget_ms = 20;
  Runner runner(make_cuda_backend(discover_devices().gpus.front().index));
  return runner.run(s, {});
}

struct Starter {
  const char* file;
  std::vector<int> unrolls;  // the factors it is written for (RL_UNROLL, or its own grid)
};

class StarterOnGpu : public ::testing::TestWithParam<Starter> {};

TEST_P(StarterOnGpu, IsTimedAndVerifiedBesideTheBuiltInRungs) {
  RL_REQUIRE_GPU();
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const UserKernelSource k = read_user_kernel_file(starter(GetParam().file));
  const Session s = run_user(k, {"interleaved"}, {256, 1024}, GetParam().unrolls,
                             {DType::Int32, DType::Float32}, (1u << 20) + 3);
  int mine = 0;
  for (const PointResult& r : s.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
    if (r.point.variant != k.name) continue;
    ++mine;
    EXPECT_GT(r.total.median_ms, 0);
    EXPECT_GT(point_rates(r, s.device, s.read_floors).pct_of_read_floor, 0);
    EXPECT_TRUE(r.speedup.has_value());
    EXPECT_FALSE(r.occupancy.empty());
  }
  EXPECT_EQ(mine, 4 * int(GetParam().unrolls.size()));  // two block sizes, two types
}

// neighbored.cu and interleaved.cu reduce one tile per block: at a larger unroll factor the
// engine's grid leaves elements unread, and the check before timing says so (WrongAtUnroll4).
INSTANTIATE_TEST_SUITE_P(Starters, StarterOnGpu,
                         ::testing::Values(Starter{"neighbored.cu", {1}},
                                           Starter{"interleaved.cu", {1}},
                                           Starter{"unroll.cu", {1, 4}},
                                           Starter{"unroll_warp.cu", {1, 4}},
                                           Starter{"warp_shuffle.cu", {1, 4}}));

TEST(StarterOnGpuAtUnroll4, OneTilePerBlockIsWrongAndSaysWhere) {
  RL_REQUIRE_GPU();
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const UserKernelSource k = read_user_kernel_file(starter("interleaved.cu"));
  const Session s = run_user(k, {"interleaved"}, {256}, {4}, {DType::Int32}, 1u << 20);
  const PointResult& r = s.results.back();
  ASSERT_EQ(r.point.variant, k.name);
  EXPECT_EQ(r.status, PointStatus::Wrong);
  EXPECT_NE(r.message.find("block 0 is the first whose partial differs"), std::string::npos)
      << r.message;
}

// A kernel that adds the whole total itself (#define RL_WRITES_TOTAL): no finishing pass, and the
// total it leaves is checked and timed like any other.
TEST(WritesTotalOnGpu, IsVerifiedWithoutAFinishingPass) {
  RL_REQUIRE_GPU();
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const UserKernelSource k = read_user_kernel_file(test_kernel("writes_total.cu"));
  const Session s = run_user(k, {"interleaved"}, {256, 1024}, {1}, {DType::Int32, DType::Float32},
                             (1u << 20) + 3);
  int mine = 0;
  for (const PointResult& r : s.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
    if (r.point.variant != k.name) continue;
    ++mine;
    EXPECT_GT(r.total.median_ms, 0);
    EXPECT_TRUE(r.speedup.has_value());
  }
  EXPECT_EQ(mine, 4);
}

struct WrongKernel {
  const char* file;
  DType type;
  const char* says;  // a part of the message naming where it is wrong
};

class WrongKernelOnGpu : public ::testing::TestWithParam<WrongKernel> {};

TEST_P(WrongKernelOnGpu, IsCaughtBeforeItIsTimed) {
  RL_REQUIRE_GPU();
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const WrongKernel w = GetParam();
  const UserKernelSource k = read_user_kernel_file(test_kernel(w.file));
  const Session s = run_user(k, {"interleaved"}, {1024}, {1}, {w.type}, 1u << 22);
  ASSERT_EQ(s.results.size(), 2u);
  const PointResult& r = s.results.back();
  ASSERT_EQ(r.point.variant, k.name);
  EXPECT_EQ(r.status, PointStatus::Wrong) << r.message;
  EXPECT_NE(r.message.find(w.says), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("expected"), std::string::npos) << r.message;
  EXPECT_TRUE(r.total_samples_ms.empty()) << "a wrong kernel is never timed";
  EXPECT_FALSE(r.speedup.has_value());
}

INSTANTIATE_TEST_SUITE_P(
    Wrong, WrongKernelOnGpu,
    ::testing::Values(WrongKernel{"last_block_dropped.cu", DType::Int32,
                                  "at N=1025 int32, the run's input: expected"},
                      WrongKernel{"last_block_dropped.cu", DType::Int32,
                                  "block 1 is the first whose partial"},
                      WrongKernel{"last_block_dropped.cu", DType::Float32, "at N=1025 float32"},
                      WrongKernel{"int_accumulator.cu", DType::Int32, "the int32 extremes"},
                      WrongKernel{"last_element_skipped.cu", DType::Int32, "at N=1 int32"}));

}  // namespace
}  // namespace rl
