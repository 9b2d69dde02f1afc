// The kernels past the classic ladder on the GPU, through the real CUDA backend: every variant x
// type x block size x unroll factor at awkward sizes, against the exact host sum (int32 exactly,
// float32 within a bound derived from N) and, where a host model exists, bit for bit against
// its partials and total. Two samples per point: the single-pass counter must reset itself.
//
// RL_GPU_TEST_MAX_SIZE=N (environment) leaves out larger sizes, for compute-sanitizer runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "engine/catalog/catalog.h"
#include "engine/experiment/spec.h"
#include "engine/model/block_model.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

std::uint64_t max_test_size() {
  const char* text = std::getenv("RL_GPU_TEST_MAX_SIZE");
  if (text == nullptr || *text == '\0') return UINT64_MAX;
  std::uint64_t n = 0;
  std::string error;
  return parse_size(text, &n, &error) ? n : UINT64_MAX;
}

std::vector<PointSpec> modern_points() {
  const std::uint64_t big = (std::uint64_t(1) << 24) + 7;
  const std::vector<std::uint64_t> sizes{1, 2, 31, 33, 1000, 1000003, big};
  const std::uint64_t cap = max_test_size();
  std::vector<PointSpec> out;
  for (const auto& v : catalog()) {
    if (v.family == VariantFamily::SeedLadder || is_lab(v.family)) continue;
    // The rows and columns kernels sum a matrix per row or column (segmented_gpu_test.cpp).
    if (kernels::is_segmented_kernel(v.kernel)) continue;
    const std::vector<int> blocks = v.block_sizes.empty() ? std::vector<int>{0} : v.block_sizes;
    for (DType t : v.types)
      for (int b : blocks)
        for (int u : v.unroll_factors)
          for (auto n : sizes) {
            if (n > cap) continue;
            // 2^24 + 7: every shape of the grid-stride and CUB device kernels (cheap to check);
            // for the tiled kernels, whose host model replays every block, B = 128 and 1024.
            const bool tiled = v.has_block_model || v.kernel == KernelId::CubBlockReduceRaking ||
                               v.kernel == KernelId::CubBlockReduceWarpReductions;
            if (n == big && tiled && b != 128 && b != 1024) continue;
            out.push_back({v.id, Workspace::Registers, b, u, n, t});
          }
  }
  return out;
}

// Float error bound: n roundings, each at most 2^-24 of a partial sum <= the total, add up like
// a random walk (4 sigma: 4 sqrt(n)); the fixed-depth trees add a few dozen more.
double float_tolerance(std::uint64_t n, double exact) {
  return std::abs(exact) * 0x1p-24 * (4.0 * std::sqrt(double(n)) + 32.0) + 1e-6;
}

class ModernOnGpu : public ::testing::TestWithParam<PointSpec> {};

TEST_P(ModernOnGpu, SumsExactlyAndMatchesTheModelWhereThereIsOne) {
  RL_REQUIRE_GPU();
  const PointSpec& p = GetParam();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  if (const std::string why = gpu.unsupported_reason(p); !why.empty()) GTEST_SKIP() << why;
  const InputData& in = testing::cached_input(p.size, p.type);
  gpu.prepare(p, in);
  gpu.run_sample(false);
  const ReductionOutput first = gpu.read_output();
  gpu.run_sample(true);
  const ReductionOutput got = gpu.read_output();
  if (p.type == DType::Int32) {
    EXPECT_EQ(first.total_i64, in.exact_i64()) << "first sample";
    EXPECT_EQ(got.total_i64, in.exact_i64()) << "second sample";
  } else {
    const double exact = in.exact_double();
    EXPECT_NEAR(got.total_f32, exact, float_tolerance(p.size, exact));
    // The order of additions is fixed by the plan: two samples give the same bits.
    EXPECT_EQ(0, std::memcmp(&first.total_f32, &got.total_f32, sizeof(float)))
        << first.total_f32 << " then " << got.total_f32;
  }
  const std::optional<ReductionOutput> want = model_reduce(p, in);
  const VariantInfo* v = find_variant_by_id(p.variant);
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(want.has_value(), v->has_block_model);
  if (!want) return;
  if (p.type == DType::Int32) {
    EXPECT_EQ(got.partials_i64, want->partials_i64);
    EXPECT_EQ(got.total_i64, want->total_i64);
  } else {
    ASSERT_EQ(got.partials_f32.size(), want->partials_f32.size());
    EXPECT_EQ(0, std::memcmp(got.partials_f32.data(), want->partials_f32.data(),
                             got.partials_f32.size() * sizeof(float)))
        << "partials differ from the host model";
    EXPECT_EQ(0, std::memcmp(&got.total_f32, &want->total_f32, sizeof(float)))
        << "GPU " << got.total_f32 << " vs model " << want->total_f32;
  }
}

// The single pass with fewer blocks than tiles: it takes at most 16384 blocks, so at
// N = 2^24 + 2^22 + 7 (5242881 vectors) tiles of 128 vectors (B = 128, U = 1) are 40961 and
// tiles of 256 (B = 128, U = 2; B = 256, U = 1) are 20481: each block walks two or three tiles
// and the partial last tile (40960 or 20480) falls to block 8192 or 4096, not block 0.
TEST(ModernSinglePassOnGpu, SumsExactlyWhenBlocksWalkSeveralTiles) {
  RL_REQUIRE_GPU();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  const std::uint64_t n = (std::uint64_t(1) << 24) + (std::uint64_t(1) << 22) + 7;
  if (n > max_test_size()) GTEST_SKIP() << "RL_GPU_TEST_MAX_SIZE leaves out N = " << n;
  for (DType t : {DType::Int32, DType::Float32})
    for (const auto [b, u] : {std::pair{128, 1}, std::pair{128, 2}, std::pair{256, 1}}) {
      const PointSpec p{"single_pass", Workspace::Registers, b, u, n, t};
      SCOPED_TRACE(p.label());
      const InputData& in = testing::cached_input(n, t);
      gpu.prepare(p, in);
      gpu.run_sample(true);
      gpu.run_sample(true);
      const ReductionOutput got = gpu.read_output();
      if (t == DType::Int32) {
        EXPECT_EQ(got.total_i64, in.exact_i64());
      } else {
        const double exact = in.exact_double();
        EXPECT_NEAR(got.total_f32, exact, float_tolerance(n, exact));
      }
    }
}

// 100 launches of the prepared point (every tenth with a cold L2): the first within float32's
// tolerance of the exact sum, every other one the same bits.
void expect_the_same_bits_over_100_runs(Backend& gpu, const InputData& in) {
  const double exact = in.exact_double();
  std::uint32_t first = 0;
  for (int run = 0; run < 100; ++run) {
    gpu.run_sample(run % 10 == 0);
    const float got = gpu.read_output().total_f32;
    std::uint32_t bits = 0;
    std::memcpy(&bits, &got, sizeof bits);
    if (run == 0) {
      first = bits;
      EXPECT_NEAR(got, exact, float_tolerance(in.size(), exact));
    } else {
      ASSERT_EQ(bits, first) << "run " << run;
    }
  }
}

// The one-launch kernels hand float32 sums on as exact integers (kernels/modern_finish.cuh,
// modern_epoch.cuh), so the same input gives the same bits on every run, per-warp and per-block
// finishes alike (the epoch pass: its two accumulators in turn, 100 launches).
TEST(ModernSinglePassOnGpu, Float32GivesTheSameBitsOnEveryRun) {
  RL_REQUIRE_GPU();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  const std::uint64_t cap = max_test_size();
  for (const char* variant : {"single_pass", "cluster_single_pass", "epoch_pass"})
    for (std::uint64_t n :
         {std::uint64_t(1) << 16, (std::uint64_t(1) << 20) + 13, std::uint64_t(1) << 24}) {
      if (n > cap) continue;
      const PointSpec p{variant, Workspace::Registers, 512, 4, n, DType::Float32};
      if (!gpu.unsupported_reason(p).empty()) continue;
      SCOPED_TRACE(p.label());
      const InputData& in = testing::cached_input(n, DType::Float32);
      gpu.prepare(p, in);
      expect_the_same_bits_over_100_runs(gpu, in);
    }
}

// Slot sums in many exponent windows (each stretch of `stretch` elements 2^12 times the one
// before, over a range of 2^48): the last slot cannot finish from its own window word and reads
// them all (kernels/modern_finish.cuh, the slow way). Stretches of 128 elements (one warp's
// loads at U = 1) put the warps of one block in different windows: the epoch pass's block then
// hands on an entry per warp (modern_epoch.cuh block_window_hand_on). Same bits on every run,
// and as close to the exact sum.
TEST(ModernSinglePassOnGpu, Float32SumsAcrossWindowsGiveTheSameBitsOnEveryRun) {
  RL_REQUIRE_GPU();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  const std::uint64_t n = (std::uint64_t(1) << 17) + 5;
  // Every case's input stays alive to the end: the backend skips the upload when the data
  // pointer is the one it uploaded last, and a freed buffer's address comes back.
  std::deque<InputData> inputs;
  for (std::uint64_t stretch : {8192, 128}) {
    InputData in;
    in.type = DType::Float32;
    in.f32.resize(n);
    for (std::uint64_t i = 0; i < n; ++i)
      in.f32[i] = std::ldexp(float(i % 255 + 1), int((i / stretch) % 5) * 12 - 24);
    for (const char* variant : {"single_pass", "cluster_single_pass", "epoch_pass"})
      for (int b : {128, 1024}) {
        const PointSpec p{variant, Workspace::Registers, b, 1, n, DType::Float32};
        if (!gpu.unsupported_reason(p).empty()) continue;
        SCOPED_TRACE(p.label() + " stretch " + std::to_string(stretch));
        gpu.prepare(p, inputs.emplace_back(in));
        expect_the_same_bits_over_100_runs(gpu, in);
      }
  }
}

// Inputs whose every partial sum is exact (multiples of 2^-10 below 2^13, signs mixed): the
// windows add exactly, so the total is the exact sum, to the bit. And NaN and infinities come
// through as IEEE addition says.
TEST(ModernSinglePassOnGpu, Float32ExactInputsGiveTheExactTotalAndSpecialsComeThrough) {
  RL_REQUIRE_GPU();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  const std::uint64_t n = 1000003;
  InputData in;
  in.type = DType::Float32;
  in.f32.resize(n);
  std::int64_t units = 0;  // the exact total in units of 2^-10
  for (std::uint64_t i = 0; i < n; ++i) {
    const int v = int(i * 7919 % 2001) - 1000;
    in.f32[i] = float(v) * 0x1p-10f;
    units += v;
  }
  const float exact = float(double(units) * 0x1p-10);
  for (const char* variant : {"single_pass", "cluster_single_pass", "epoch_pass"})
    for (int b : {128, 1024}) {
      const PointSpec p{variant, Workspace::Registers, b, 2, n, DType::Float32};
      if (!gpu.unsupported_reason(p).empty()) continue;
      SCOPED_TRACE(p.label());
      // A new InputData per case: the backend keeps the input it uploaded last (same object).
      InputData plus_inf = in, both_inf = in, nan = in;
      plus_inf.f32[n / 3] = INFINITY;
      both_inf.f32[n / 3] = INFINITY;
      both_inf.f32[n / 2] = -INFINITY;
      nan.f32[n / 2] = NAN;
      gpu.prepare(p, in);
      gpu.run_sample(true);
      EXPECT_EQ(gpu.read_output().total_f32, exact);
      gpu.prepare(p, plus_inf);
      gpu.run_sample(true);
      EXPECT_EQ(gpu.read_output().total_f32, INFINITY);
      gpu.prepare(p, both_inf);
      gpu.run_sample(true);
      EXPECT_TRUE(std::isnan(gpu.read_output().total_f32)) << gpu.read_output().total_f32;
      gpu.prepare(p, nan);
      gpu.run_sample(true);
      EXPECT_TRUE(std::isnan(gpu.read_output().total_f32)) << gpu.read_output().total_f32;
      const InputData again = in;  // and the scratch is clean again after the NaN
      gpu.prepare(p, again);
      gpu.run_sample(true);
      EXPECT_EQ(gpu.read_output().total_f32, exact);
    }
}

std::string point_name(const ::testing::TestParamInfo<PointSpec>& info) {
  const PointSpec& p = info.param;
  return p.variant + "_" + std::string(to_string(p.type)) + "_B" + std::to_string(p.block_size) +
         "_U" + std::to_string(p.unroll) + "_N" + std::to_string(p.size);
}

INSTANTIATE_TEST_SUITE_P(AllModernPoints, ModernOnGpu, ::testing::ValuesIn(modern_points()),
                         point_name);

}  // namespace
}  // namespace rl
