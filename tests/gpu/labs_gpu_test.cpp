// The lab kernels (kernels/lab_*.cu) on the GPU, through the real CUDA backend: every lab
// variant x block size x accepted factor at awkward sizes, partials and total equal to the host
// model's (block_model_labs.cpp) exactly. Two samples per point: the partitioned branch
// partitions again each time and must give the same answer.
#include <gtest/gtest.h>

#include "engine/catalog/catalog.h"
#include "engine/model/block_model.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

std::vector<PointSpec> lab_points() {
  const std::vector<std::uint64_t> sizes{1, 33, 1000003, (std::uint64_t(1) << 22) + 5};
  std::vector<PointSpec> out;
  for (const auto& v : catalog()) {
    if (!is_lab(v.family)) continue;
    for (int b : {32, 128, 256, 1024})
      for (int u : v.unroll_factors)
        for (auto n : sizes) out.push_back({v.id, v.workspaces.front(), b, u, n, DType::Int32});
  }
  return out;
}

class LabsOnGpu : public ::testing::TestWithParam<PointSpec> {};

TEST_P(LabsOnGpu, PartialsAndTotalEqualTheHostModel) {
  RL_REQUIRE_GPU();
  const PointSpec& p = GetParam();
  Backend& gpu = *testing::GpuEnvironment::get().backend;
  if (const std::string why = gpu.unsupported_reason(p); !why.empty()) GTEST_SKIP() << why;
  const InputData& in = testing::cached_input(p.size, p.type);
  const std::optional<ReductionOutput> model = model_reduce(p, in);
  ASSERT_TRUE(model.has_value());
  gpu.prepare(p, in);
  for (int sample = 0; sample < 2; ++sample) {
    gpu.run_sample(sample == 1);
    const ReductionOutput got = gpu.read_output();
    EXPECT_EQ(got.total_i64, model->total_i64) << "sample " << sample;
    ASSERT_EQ(got.partials_i64.size(), model->partials_i64.size());
    for (std::size_t i = 0; i < got.partials_i64.size(); ++i)
      ASSERT_EQ(got.partials_i64[i], model->partials_i64[i]) << "block " << i;
  }
  gpu.release();
}

INSTANTIATE_TEST_SUITE_P(Labs, LabsOnGpu, ::testing::ValuesIn(lab_points()), [](const auto& info) {
  const PointSpec& p = info.param;
  return p.variant + "_B" + std::to_string(p.block_size) + "_U" + std::to_string(p.unroll) + "_N" +
         std::to_string(p.size);
});

}  // namespace
}  // namespace rl
