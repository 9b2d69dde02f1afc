// Host models of the kernels past the classic ladder (engine/block_model_modern.cpp), without a
// GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {
namespace {

// Test data with the engine's value ranges (int32 in [0, 255], float32 in [0, 1)), made here so
// these tests depend on nothing but the model.
InputData lcg_input(std::uint64_t n, DType type, std::uint32_t seed = 12345) {
  InputData in;
  in.type = type;
  std::uint32_t s = seed;
  auto next = [&s] {
    s = s * 1664525u + 1013904223u;
    return s >> 8;  // 24 random bits
  };
  if (type == DType::Int32) {
    in.i32.resize(n);
    for (auto& v : in.i32) v = static_cast<std::int32_t>(next() & 0xff);
  } else {
    in.f32.resize(n);
    for (auto& v : in.f32) v = static_cast<float>(next()) / 16777216.0f;
  }
  return in;
}

PointSpec point(const char* variant, int block, int unroll, std::uint64_t n, DType type) {
  PointSpec p;
  p.variant = variant;
  p.workspace = Workspace::Registers;
  p.block_size = block;
  p.unroll = unroll;
  p.size = n;
  p.type = type;
  return p;
}

const char* const kModelled[] = {"warp_shuffle", "reduce_add_sync", "cg_reduce"};

TEST(ModernBlockModel, Int32PartialsAreTileSumsAndTheTotalIsExact) {
  for (const char* variant : kModelled) {
    for (std::uint64_t n : {1ull, 2ull, 31ull, 33ull, 1000ull, 100003ull}) {
      const InputData in = lcg_input(n, DType::Int32);
      const std::int64_t exact = std::accumulate(in.i32.begin(), in.i32.end(), std::int64_t(0));
      for (int block : {32, 64, 256, 1024}) {
        for (int unroll : {1, 2, 16}) {
          SCOPED_TRACE(point(variant, block, unroll, n, DType::Int32).label());
          const auto out = model_reduce_modern(point(variant, block, unroll, n, DType::Int32), in);
          ASSERT_TRUE(out.has_value());
          const std::uint64_t tile = std::uint64_t(block) * unroll;
          ASSERT_EQ(out->partials_i64.size(), (n + tile - 1) / tile);
          for (std::size_t b = 0; b < out->partials_i64.size(); ++b) {
            const auto first = in.i32.begin() + b * tile;
            const auto last = in.i32.begin() + std::min<std::uint64_t>(n, (b + 1) * tile);
            ASSERT_EQ(out->partials_i64[b], std::accumulate(first, last, std::int64_t(0)));
          }
          EXPECT_EQ(out->total_i64, exact);
          EXPECT_TRUE(out->has_partials);
        }
      }
    }
  }
}

// The pairs the GPU adds, spelled out for one warp: x[i] + x[i + 16], then + 8, 4, 2, 1.
float shuffle_tree_by_hand(std::vector<float> v) {
  for (int offset = 16; offset > 0; offset /= 2)
    for (int i = 0; i < offset; ++i) v[i] = v[i] + v[i + offset];
  return v[0];
}

TEST(ModernBlockModel, FloatFollowsTheShuffleTreeNotASequentialSum) {
  // One warp, one element per thread: the partial is the warp tree over x[0..31].
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i) x[i] = (i % 2 ? 1.0f : 3.0e-8f) * (1.0f + float(i) / 7.0f);
  InputData in;
  in.type = DType::Float32;
  in.f32 = x;
  const float tree = shuffle_tree_by_hand(x);
  float sequential = 0;
  for (float v : x) sequential += v;
  ASSERT_NE(tree, sequential) << "the test data should tell the two orders apart";
  for (const char* variant : {"warp_shuffle", "cg_reduce"}) {
    const auto out = model_reduce_modern(point(variant, 32, 1, 32, DType::Float32), in);
    ASSERT_TRUE(out.has_value());
    ASSERT_EQ(out->partials_f32.size(), 1u);
    EXPECT_EQ(out->partials_f32[0], tree) << variant;
    EXPECT_EQ(out->total_f32, tree) << variant;  // finish: 0 + p, then + 0 at every level
  }
}

TEST(ModernBlockModel, FloatTwoLevelBlockSumAndPreReduction) {
  // Block of 64 threads, unroll 2: thread t adds x[t] + x[t + 64]; warp trees; then warp 0
  // reduces the two warp sums padded with zeros.
  const InputData in = lcg_input(128, DType::Float32, 7);
  std::vector<float> lanes(64);
  for (int t = 0; t < 64; ++t) lanes[t] = in.f32[t] + in.f32[t + 64];
  std::vector<float> sums(32, 0.0f);
  sums[0] = shuffle_tree_by_hand({lanes.begin(), lanes.begin() + 32});
  sums[1] = shuffle_tree_by_hand({lanes.begin() + 32, lanes.end()});
  const float expected = shuffle_tree_by_hand(sums);
  const auto out = model_reduce_modern(point("warp_shuffle", 64, 2, 128, DType::Float32), in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->partials_f32.at(0), expected);
}

TEST(ModernBlockModel, FloatTotalIsCloseToTheDoubleSumAndWarpKernelsAgreeBitForBit) {
  const std::uint64_t n = 1000003;
  const InputData in = lcg_input(n, DType::Float32);
  const double exact = std::accumulate(in.f32.begin(), in.f32.end(), 0.0);
  for (int block : {32, 256, 1024}) {
    for (int unroll : {1, 8}) {
      const auto shfl =
          model_reduce_modern(point("warp_shuffle", block, unroll, n, DType::Float32), in);
      const auto cg = model_reduce_modern(point("cg_reduce", block, unroll, n, DType::Float32), in);
      ASSERT_TRUE(shfl && cg);
      EXPECT_EQ(shfl->partials_f32, cg->partials_f32);
      EXPECT_EQ(shfl->total_f32, cg->total_f32);
      EXPECT_NEAR(shfl->total_f32, exact, exact * 1e-5) << "B=" << block << " U=" << unroll;
    }
  }
}

TEST(ModernBlockModel, VariantsWithoutAModelGiveNullopt) {
  const InputData in = lcg_input(1000, DType::Int32);
  for (const char* variant : {"vectorized", "single_pass", "cub_block_reduce_raking",
                              "cub_block_reduce_warp_reductions"}) {
    EXPECT_FALSE(model_reduce_modern(point(variant, 256, 4, 1000, DType::Int32), in)) << variant;
  }
  EXPECT_FALSE(model_reduce_modern(point("cub_device_reduce", 0, 1, 1000, DType::Int32), in));
  EXPECT_FALSE(model_reduce_modern(point("interleaved", 256, 1, 1000, DType::Int32), in));
}

TEST(ModernBlockModel, RefusesPointsTheKernelsDoNotTakeWithTheValueInTheMessage) {
  const InputData ints = lcg_input(100, DType::Int32);
  const InputData floats = lcg_input(100, DType::Float32);
  auto message = [](const PointSpec& p, const InputData& in) -> std::string {
    try {
      model_reduce_modern(p, in);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message(point("warp_shuffle", 48, 1, 100, DType::Int32), ints).find("block size 48"),
            std::string::npos);
  EXPECT_NE(message(point("cg_reduce", 256, 3, 100, DType::Int32), ints).find("unroll 3"),
            std::string::npos);
  EXPECT_NE(message(point("reduce_add_sync", 256, 1, 100, DType::Float32), floats).find("float32"),
            std::string::npos);
  EXPECT_NE(message(point("warp_shuffle", 256, 1, 99, DType::Int32), ints).find("does not match"),
            std::string::npos);
}

}  // namespace
}  // namespace rl
