// The host model of the classic ladder: totals against exact sums, partials against per-tile
// sums, volatile and __syncwarp twins bit-identical, and every variant against a literal
// thread-by-thread transcription of the CUDA kernels (float bits included).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {
namespace {

const std::vector<std::uint64_t> kSizes{1, 2, 31, 33, 1000, 1000003};

std::vector<PointSpec> ladder_points(std::uint64_t n, DType type) {
  std::vector<PointSpec> out;
  for (const VariantInfo& v : catalog()) {
    if (v.family != VariantFamily::SeedLadder) continue;
    for (Workspace w : v.workspaces)
      for (int b : v.block_sizes)
        for (int u : v.unroll_factors) out.push_back(PointSpec{v.id, w, b, u, n, type});
  }
  return out;
}

const InputData& input_for(std::uint64_t n, DType type) {
  static std::map<std::pair<std::uint64_t, DType>, InputData> cache;
  auto it = cache.find({n, type});
  if (it == cache.end()) it = cache.emplace(std::pair{n, type}, make_input(n, type)).first;
  return it->second;
}

TEST(ModelLadder, Int32TotalsAndPartialsAreExact) {
  for (std::uint64_t n : kSizes) {
    const InputData& in = input_for(n, DType::Int32);
    const std::int64_t exact = in.exact_i64();
    for (const PointSpec& p : ladder_points(n, DType::Int32)) {
      const auto out = model_reduce(p, in);
      ASSERT_TRUE(out.has_value()) << p.label();
      EXPECT_EQ(out->total_i64, exact) << p.label();
      const std::uint64_t tile = std::uint64_t(p.block_size) * p.unroll;
      ASSERT_EQ(out->partials_i64.size(), (n + tile - 1) / tile) << p.label();
      for (std::size_t b = 0; b < out->partials_i64.size(); ++b) {
        std::int64_t sum = 0;
        for (std::uint64_t i = b * tile; i < std::min(n, (b + 1) * tile); ++i) sum += in.i32[i];
        ASSERT_EQ(out->partials_i64[b], sum) << p.label() << " block " << b;
      }
    }
  }
}

TEST(ModelLadder, Float32TotalsAreCloseToTheDoubleSum) {
  for (std::uint64_t n : kSizes) {
    const InputData& in = input_for(n, DType::Float32);
    const double exact = in.exact_double();
    for (const PointSpec& p : ladder_points(n, DType::Float32)) {
      const auto out = model_reduce(p, in);
      ASSERT_TRUE(out.has_value()) << p.label();
      EXPECT_NEAR(out->total(), exact, 1e-5 * exact + 1e-6) << p.label();
    }
  }
}

TEST(ModelLadder, VolatileAndSyncTwinsGiveIdenticalBits) {
  for (std::uint64_t n : {std::uint64_t(1000), std::uint64_t(1000003)}) {
    const InputData& in = input_for(n, DType::Float32);
    for (const PointSpec& p : ladder_points(n, DType::Float32)) {
      const VariantInfo* v = find_variant_by_id(p.variant);
      if (!v->volatile_last_warp) continue;
      PointSpec twin = p;
      twin.variant =
          p.variant.substr(0, p.variant.size() - std::string("_volatile").size()) + "_sync";
      ASSERT_NE(find_variant_by_id(twin.variant), nullptr) << twin.variant;
      const auto a = model_reduce(p, in);
      const auto b = model_reduce(twin, in);
      ASSERT_EQ(a->partials_f32.size(), b->partials_f32.size());
      EXPECT_EQ(0, std::memcmp(a->partials_f32.data(), b->partials_f32.data(),
                               sizeof(float) * a->partials_f32.size()))
          << p.label();
      EXPECT_EQ(std::bit_cast<std::uint32_t>(a->total_f32),
                std::bit_cast<std::uint32_t>(b->total_f32));
    }
  }
}

// --- A literal transcription of the kernels, thread by thread, for cross-checking the closed
// forms. Each "parallel statement" reads for all threads first, then writes (lock-step).
struct LiteralBlock {
  std::vector<float> ws;
  unsigned B;
  void step(auto cond, auto dst, unsigned stride) {
    std::vector<std::pair<unsigned, float>> writes;
    for (unsigned tid = 0; tid < B; ++tid)
      if (cond(tid)) writes.push_back({dst(tid), ws[dst(tid)] + ws[dst(tid) + stride]});
    for (auto [d, v] : writes) ws[d] = v;
  }
  void interleaved_from(unsigned start, unsigned stop) {
    for (unsigned s = start; s > stop; s >>= 1)
      step([&](unsigned t) { return t < s; }, [](unsigned t) { return t; }, s);
  }
  void last_warp() {
    for (unsigned off = 32; off > 0; off >>= 1)
      step([](unsigned t) { return t < 32; }, [](unsigned t) { return t; }, off);
  }
};

float literal_partial(KernelId k, const std::vector<float>& x, std::uint64_t b, unsigned B,
                      unsigned U) {
  LiteralBlock blk{std::vector<float>(B), B};
  const std::uint64_t base = b * B * U;
  for (unsigned tid = 0; tid < B; ++tid) {
    auto at = [&](std::uint64_t i) { return i < x.size() ? x[i] : 0.0f; };
    float sum = at(base + tid);
    for (unsigned k2 = 1; k2 < U; ++k2) sum += at(base + tid + std::uint64_t(k2) * B);
    blk.ws[tid] = sum;
  }
  switch (k) {
    case KernelId::Neighbored:
      for (unsigned s = 1; s < B; s *= 2)
        blk.step([&](unsigned t) { return t % (2 * s) == 0; }, [](unsigned t) { return t; }, s);
      break;
    case KernelId::NeighboredLess:
      for (unsigned s = 1; s < B; s *= 2)
        blk.step([&](unsigned t) { return 2 * s * t < B; }, [&](unsigned t) { return 2 * s * t; },
                 s);
      break;
    case KernelId::Interleaved:
    case KernelId::Unroll:
      blk.interleaved_from(B / 2, 0);
      break;
    default:  // every last-warp kernel: tree while stride > 32 (if-chains give the same pairs)
      blk.interleaved_from(B / 2, 32);
      blk.last_warp();
  }
  return blk.ws[0];
}

TEST(ModelLadder, FloatPartialsEqualALiteralTranscriptionBitForBit) {
  const std::uint64_t n = 3 * 1024 * 16 + 777;
  const InputData& in = input_for(n, DType::Float32);
  for (const PointSpec& p : ladder_points(n, DType::Float32)) {
    const VariantInfo* v = find_variant_by_id(p.variant);
    const auto out = model_reduce(p, in);
    for (std::size_t b = 0; b < out->partials_f32.size(); ++b) {
      const float lit = literal_partial(v->kernel, in.f32, b, p.block_size, p.unroll);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(lit),
                std::bit_cast<std::uint32_t>(out->partials_f32[b]))
          << p.label() << " block " << b;
    }
  }
}

TEST(ModelLadder, FinishPassFollowsFinishCu) {
  // 2500 partials: thread t sums t, t+1024, t+2048 in order, then an interleaved tree.
  ReductionOutput out;
  out.type = DType::Float32;
  for (int i = 0; i < 2500; ++i) out.partials_f32.push_back(1.0f / float(i + 1));
  model_finish(out);
  std::vector<float> s(1024, 0.0f);
  for (std::size_t i = 0; i < out.partials_f32.size(); ++i) s[i % 1024] += out.partials_f32[i];
  for (unsigned st = 512; st > 0; st >>= 1)
    for (unsigned t = 0; t < st; ++t) s[t] += s[t + st];
  EXPECT_EQ(std::bit_cast<std::uint32_t>(s[0]), std::bit_cast<std::uint32_t>(out.total_f32));
}

TEST(ModelLadder, BadPointsGiveClearErrors) {
  const InputData in = make_input(100, DType::Int32);
  auto msg = [&](PointSpec p) {
    try {
      model_reduce(p, in);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(
      msg({"interleaved", Workspace::Global, 100, 1, 100, DType::Int32}).find("block size 100"),
      std::string::npos);
  EXPECT_NE(
      msg({"unroll_warp_sync", Workspace::Global, 32, 8, 100, DType::Int32}).find("block size 32"),
      std::string::npos);
  EXPECT_NE(msg({"unroll", Workspace::Global, 256, 3, 100, DType::Int32}).find("unroll 3"),
            std::string::npos);
  EXPECT_NE(msg({"nope", Workspace::Global, 256, 1, 100, DType::Int32}).find("unknown variant"),
            std::string::npos);
  EXPECT_NE(msg({"interleaved", Workspace::Global, 256, 1, 99, DType::Int32}).find("100 elements"),
            std::string::npos);
}

}  // namespace
}  // namespace rl

#include "engine/model/block_model_ladder.h"

namespace rl {
namespace {

unsigned barriers(const char* id, Workspace w, int b, int u) {
  return ladder::make_plan(*find_variant_by_id(id), w, b, u).barriers_per_block();
}

TEST(ModelLadderPlan, BarriersPerBlockFollowTheCountingRule) {
  // The classic ladder: reduceInterleaved 10 per block (no load phase), reduceUnroll2 11 (1 + 10).
  EXPECT_EQ(barriers("interleaved", Workspace::Global, 1024, 1), 10u);
  EXPECT_EQ(barriers("unroll", Workspace::Global, 1024, 2), 11u);
  EXPECT_EQ(barriers("neighbored", Workspace::Global, 1024, 1), 10u);
  EXPECT_EQ(barriers("neighbored_less", Workspace::Global, 256, 1), 8u);
  // The shared workspace always has a load phase and its barrier.
  EXPECT_EQ(barriers("interleaved", Workspace::Shared, 1024, 1), 11u);
  // Last warp: 6 fewer (the classic ladder's "每个block减少了6轮").
  EXPECT_EQ(barriers("unroll_warp_volatile", Workspace::Global, 1024, 8), 5u);
  EXPECT_EQ(barriers("unroll_warp_sync", Workspace::Global, 64, 8), 1u);
  // The blockDim.x if-chain keeps all four barriers; the template form drops false steps.
  EXPECT_EQ(barriers("complete_unroll_warp_volatile", Workspace::Global, 256, 8), 5u);
  EXPECT_EQ(barriers("complete_unroll_volatile", Workspace::Global, 256, 8), 3u);
  EXPECT_EQ(barriers("complete_unroll_sync", Workspace::Global, 64, 8), 1u);
  for (int b = 32; b <= 1024; b *= 2) {
    int log2b = std::countr_zero(unsigned(b));
    EXPECT_EQ(barriers("interleaved", Workspace::Global, b, 1), unsigned(log2b));
    EXPECT_EQ(barriers("unroll", Workspace::Shared, b, 4), unsigned(log2b + 1));
  }
}

}  // namespace
}  // namespace rl
