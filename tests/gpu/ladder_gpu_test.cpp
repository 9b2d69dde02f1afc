// The classic ladder on the GPU: every variant x workspace x type x block size x unroll factor at
// awkward sizes, against the host block model's partials (bit for bit, float included) and the
// exact total.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/catalog/catalog.h"
#include "engine/experiment/spec.h"
#include "engine/model/block_model.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

std::vector<PointSpec> ladder_points() {
  const std::vector<std::uint64_t> small_sizes{1, 2, 31, 33, 1000, 1000003};
  const std::uint64_t big = (std::uint64_t(1) << 24) + 7;
  std::vector<PointSpec> out;
  for (const auto& v : catalog()) {
    if (v.family != VariantFamily::SeedLadder) continue;
    for (Workspace w : v.workspaces)
      for (DType t : v.types)
        for (int b : v.block_sizes)
          for (int u : v.unroll_factors) {
            for (auto n : small_sizes) out.push_back({v.id, w, b, u, n, t});
            // 2^24 + 7 at the classic ladder's block size and one smaller, every unroll.
            if (b == 1024 || b == 128) out.push_back({v.id, w, b, u, big, t});
          }
  }
  return out;
}

class LadderOnGpu : public ::testing::TestWithParam<PointSpec> {};

TEST_P(LadderOnGpu, MatchesHostModel) {
  RL_REQUIRE_GPU();
  const PointSpec& p = GetParam();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  const InputData& in = testing::cached_input(p.size, p.type);
  gpu.prepare(p, in);
  // Two samples: the in-place (global) workspace must be restored between them.
  gpu.run_sample(false);
  gpu.run_sample(true);
  const ReductionOutput got = gpu.read_output();
  const auto want = model_reduce(p, in);
  ASSERT_TRUE(want.has_value()) << "the classic ladder must have a host model";
  if (p.type == DType::Int32) {
    EXPECT_EQ(got.total_i64, in.exact_i64());
    EXPECT_EQ(got.total_i64, want->total_i64);
    ASSERT_EQ(got.partials_i64.size(), want->partials_i64.size());
    EXPECT_EQ(got.partials_i64, want->partials_i64);
  } else {
    EXPECT_EQ(0, std::memcmp(&got.total_f32, &want->total_f32, sizeof(float)))
        << "GPU " << got.total_f32 << " vs model " << want->total_f32;
    ASSERT_EQ(got.partials_f32.size(), want->partials_f32.size());
    EXPECT_EQ(0, std::memcmp(got.partials_f32.data(), want->partials_f32.data(),
                             got.partials_f32.size() * sizeof(float)));
    EXPECT_NEAR(got.total_f32, in.exact_double(), 1e-4 * in.exact_double() + 1e-6);
  }
}

std::string point_name(const ::testing::TestParamInfo<PointSpec>& info) {
  const PointSpec& p = info.param;
  std::string s = p.variant + "_" + std::string(to_string(p.workspace)) + "_" +
                  std::string(to_string(p.type)) + "_B" + std::to_string(p.block_size) + "_U" +
                  std::to_string(p.unroll) + "_N" + std::to_string(p.size);
  return s;
}

INSTANTIATE_TEST_SUITE_P(AllLadderPoints, LadderOnGpu, ::testing::ValuesIn(ladder_points()),
                         point_name);

}  // namespace
}  // namespace rl
