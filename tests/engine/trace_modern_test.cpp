// Traces of the warp-level kernels past the classic ladder: the traced partial equals the modern
// host model's bit for bit, the block needs one barrier, and shuffles are counted per lane.
#include <gtest/gtest.h>

#include <bit>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"
#include "engine/trace/trace.h"

namespace rl {
namespace {

TEST(TraceModern, PartialsEqualTheModernModelBitForBit) {
  int checked = 0;
  for (const char* id : {"warp_shuffle", "reduce_add_sync", "cg_reduce"}) {
    const VariantInfo* v = find_variant_by_id(id);
    ASSERT_NE(v, nullptr) << id;
    ASSERT_TRUE(has_trace(*v));
    for (int b : {32, 64, 256, 1024})
      for (int u : {1, 8})
        for (DType type : v->types) {
          const std::uint64_t tile = std::uint64_t(b) * u, n = 2 * tile + tile / 3 + 1;
          const PointSpec p{id, Workspace::Registers, b, u, n, type};
          const auto out = model_reduce(p, make_input(n, type));
          ASSERT_TRUE(out.has_value()) << p.label();
          for (unsigned block : {0u, 2u}) {
            // The default (global) workspace maps to the variant's only one, registers.
            const Trace t = make_trace({id, b, u, Workspace::Global, n, type, block});
            EXPECT_EQ(t.workspace, Workspace::Registers);
            const double want = type == DType::Int32 ? double(out->partials_i64[block])
                                                     : double(out->partials_f32[block]);
            ASSERT_EQ(std::bit_cast<std::uint64_t>(t.partial), std::bit_cast<std::uint64_t>(want))
                << p.label() << " block " << block;
            ++checked;
          }
        }
  }
  EXPECT_GT(checked, 40);
}

TEST(TraceModern, OneBarrierAndShufflesPerLane) {
  const Trace t = make_trace({"warp_shuffle", 1024, 1, Workspace::Registers, 0, DType::Float32, 0});
  EXPECT_EQ(t.block_totals.barriers, 1u);
  EXPECT_EQ(t.block_totals.shuffles, 5u * 1024 + 5u * 32);
  // load, 5 shuffles, warp sums, gather, 5 shuffles in warp 0, the partial.
  ASSERT_EQ(t.steps.size(), 1u + 5 + 1 + 1 + 5 + 1);
  EXPECT_EQ(t.steps[1].kind, "shuffle");
  EXPECT_EQ(t.steps[1].stride, 16u);
  EXPECT_EQ(t.steps[6].kind, "warp_sums");
  EXPECT_EQ(t.steps[6].masks[5], 1u);  // lane 0 of every warp
  EXPECT_TRUE(t.steps[6].barrier);
  EXPECT_EQ(t.steps[8].masks[0], 0xffffffffu);
  EXPECT_EQ(t.steps[8].exited[1], 0xffffffffu);  // after the only barrier, warps 1.. are done
  const Trace one = make_trace({"warp_shuffle", 32, 1, Workspace::Registers, 0, DType::Int32, 0});
  EXPECT_EQ(one.block_totals.barriers, 0u);  // a single warp needs no barrier at all
  const Trace redux =
      make_trace({"reduce_add_sync", 256, 1, Workspace::Registers, 0, DType::Int32, 0});
  EXPECT_EQ(redux.block_totals.shuffles, 256u + 32u);
  EXPECT_EQ(redux.steps[1].kind, "warp_reduce");
  // Launch totals: 2^24 with B = 1024, U = 8 -> 2048 blocks, one barrier each.
  const Trace big =
      make_trace({"warp_shuffle", 1024, 8, Workspace::Registers, 1u << 24, DType::Int32, 0});
  EXPECT_EQ(big.launch_totals.barriers, 2048u);
  EXPECT_EQ(big.launch_totals.loads, (1u << 24) + 2048u * 32);
}

TEST(TraceModern, RefusesWhatTheKernelDoesNotTake) {
  EXPECT_THROW(make_trace({"reduce_add_sync", 256, 1, Workspace::Registers, 0, DType::Float32, 0}),
               Error);
  EXPECT_THROW(make_trace({"warp_shuffle", 256, 1, Workspace::Shared, 0, DType::Int32, 0}), Error);
  EXPECT_THROW(make_trace({"cub_device_reduce", 256}), Error);
}

}  // namespace
}  // namespace rl
