// The host backend: a host DeviceInfo labelled as emulation, two timings per sample, outputs
// equal to the block model, and a reason for variants without a host model.
#include <gtest/gtest.h>

#include <bit>

#include "engine/backend/backend.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {
namespace {

TEST(ModelHostBackend, DescribesTheHostAsEmulation) {
  auto b = make_host_backend();
  EXPECT_FALSE(b->is_gpu());
  EXPECT_EQ(b->device().backend, "host");
  EXPECT_FALSE(b->device().name.empty());
  EXPECT_NE(b->device().note.find("host emulation"), std::string::npos);
  EXPECT_NE(b->device().note.find("not GPU times"), std::string::npos);
}

TEST(ModelHostBackend, RunsASampleWithBothTimesAndTheModelsOutput) {
  auto b = make_host_backend();
  const PointSpec p{"unroll", Workspace::Global, 256, 4, 100003, DType::Float32};
  const InputData in = make_input(p.size, p.type);
  b->prepare(p, in);
  EXPECT_EQ(b->grid(), (100003u + 1023u) / 1024u);
  const SampleTimes t = b->run_sample(true);
  ASSERT_TRUE(t.first_ms.has_value());
  EXPECT_GT(*t.first_ms, 0.0);
  EXPECT_GE(t.total_ms, *t.first_ms);
  const ReductionOutput got = b->read_output();
  const auto want = model_reduce(p, in);
  EXPECT_EQ(got.partials_f32, want->partials_f32);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(got.total_f32),
            std::bit_cast<std::uint32_t>(want->total_f32));
  b->release();
  EXPECT_THROW(b->run_sample(false), Error);
}

TEST(ModelHostBackend, SaysWhichVariantsItCannotRun) {
  auto b = make_host_backend();
  const PointSpec cub{"cub_device_reduce", Workspace::Registers, 0, 1, 1000, DType::Int32};
  EXPECT_NE(b->unsupported_reason(cub).find("no host model for"), std::string::npos);
  const PointSpec ok{"interleaved", Workspace::Global, 1024, 1, 1000, DType::Int32};
  EXPECT_EQ(b->unsupported_reason(ok), "");
  const InputData in = make_input(1000, DType::Int32);
  EXPECT_THROW(b->prepare(cub, in), Error);
  EXPECT_THROW(b->read_output(), Error);
}

}  // namespace
}  // namespace rl
