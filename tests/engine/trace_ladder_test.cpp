// Traces of the classic ladder: the final value equals the model and the host sum, counters match
// closed forms (barriers per block and per launch, active lanes per step, divergence), masks
// have the expected shapes, the JSON has the documented shape, and bad requests say what is wrong.
#include <gtest/gtest.h>

#include <bit>

#include <nlohmann/json.hpp>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"
#include "engine/trace/trace.h"

namespace rl {
namespace {

TEST(TraceLadder, FinalValueEqualsTheModelForEveryVariant) {
  for (const VariantInfo& v : catalog()) {
    if (v.family != VariantFamily::SeedLadder) continue;
    for (Workspace w : v.workspaces)
      for (int b : v.block_sizes)
        for (int u : v.unroll_factors)
          for (DType type : {DType::Int32, DType::Float32}) {
            const std::uint64_t n =
                std::uint64_t(b) * u * 2 + (b * u) / 3 + 1;  // 3 blocks, ragged tail
            const Trace t = make_trace({v.id, b, u, w, n, type, 2});
            const PointSpec p{v.id, w, b, u, n, type};
            const auto out = model_reduce(p, make_input(n, type));
            ASSERT_EQ(t.grid, 3u);
            ASSERT_EQ(t.steps.back().kind, "write_partial");
            const double want =
                type == DType::Int32 ? double(out->partials_i64[2]) : double(out->partials_f32[2]);
            ASSERT_EQ(t.partial, want) << p.label();
            ASSERT_EQ(t.steps.back().values[0], want) << p.label();
            for (const TraceStep& s : t.steps) {
              ASSERT_EQ(s.masks.size(), unsigned(b / 32));
              ASSERT_EQ(s.values.size(), unsigned(b));
              ASSERT_EQ(s.ops.size(), s.threads.size());
              ASSERT_FALSE(s.caption.empty());
            }
          }
  }
}

TEST(TraceLadder, ClassicBarrierTotalsAtTwoToThe24) {
  const std::uint64_t n = std::uint64_t(1) << 24;
  auto barriers = [&](const char* name) {
    return make_trace({name, 1024, std::nullopt, Workspace::Global, n, DType::Int32, 0})
        .launch_totals.barriers;
  };
  EXPECT_EQ(barriers("reduceInterleaved"), 163840u);  // 16384 blocks x 10
  EXPECT_EQ(barriers("reduceNeighbored"), 163840u);
  EXPECT_EQ(barriers("reduceUnroll2"), 90112u);  // 8192 x 11
  EXPECT_EQ(barriers("reduceUnroll4"), 45056u);  // 4096 x 11
  EXPECT_EQ(barriers("reduceUnroll8"), 22528u);  // 2048 x 11
  // reduceUnrollWarp8: 6 fewer per block, 12288 fewer in all (the classic ladder's numbers).
  EXPECT_EQ(barriers("reduceUnroll8") - barriers("reduceUnrollWarp8"), 12288u);
  EXPECT_EQ(barriers("reduceCompleteUnrollWarp8"), 2048u * 5);
}

TEST(TraceLadder, ActiveLanesAndDivergenceFollowClosedForms) {
  const int B = 256, W = B / 32;
  const Trace nb = make_trace({"neighbored", B, 1, Workspace::Global, 0, DType::Int32, 0});
  const Trace nl = make_trace({"neighbored_less", B, 1, Workspace::Global, 0, DType::Int32, 0});
  const Trace il = make_trace({"interleaved", B, 1, Workspace::Global, 0, DType::Int32, 0});
  ASSERT_EQ(nb.steps.size(), 9u);  // 8 tree steps + the partial
  for (int i = 0; i < 8; ++i) {
    const unsigned s = 1u << i;
    EXPECT_EQ(nb.steps[i].stride, s);
    EXPECT_EQ(nb.steps[i].counters.active_lanes, B / (2 * s));
    EXPECT_EQ(nl.steps[i].counters.active_lanes, B / (2 * s));
    EXPECT_EQ(il.steps[i].counters.active_lanes, B / 2 >> i);
    // neighbored: lanes 2s apart, so every warp works while 2s <= 32 and each working warp
    // keeps 32 - (its active lanes) idle; afterwards one lane per working warp.
    const unsigned nb_warps = 2 * s <= 32 ? W : B / (2 * s);
    EXPECT_EQ(nb.steps[i].counters.divergent_lanes, nb_warps * 32 - B / (2 * s)) << s;
    EXPECT_EQ(nb.steps[i].counters.idle_warps, W - nb_warps);
    // neighbored less: the same lanes packed into the first warps.
    const unsigned active = B / (2 * s), nl_warps = (active + 31) / 32;
    EXPECT_EQ(nl.steps[i].counters.divergent_lanes, nl_warps * 32 - active);
    EXPECT_EQ(nl.steps[i].counters.idle_warps, W - nl_warps);
    EXPECT_TRUE(nb.steps[i].barrier);
  }
  EXPECT_EQ(nb.steps[0].masks[0], 0x55555555u);  // tid % 2 == 0
  EXPECT_EQ(nb.steps[1].masks[3], 0x11111111u);  // tid % 4 == 0
  EXPECT_EQ(nl.steps[1].masks[1], 0xffffffffu);  // threads 0..63
  EXPECT_EQ(nl.steps[1].masks[2], 0u);
  EXPECT_EQ(il.steps[3].masks[0], 0xffffu);  // stride 16: lanes 0..15
  EXPECT_EQ(nb.block_totals.barriers, 8u);
  // The same pairs: neighbored and neighbored-less have identical workspaces at every step.
  for (int i = 0; i < 8; ++i) EXPECT_EQ(nb.steps[i].values, nl.steps[i].values);
}

TEST(TraceLadder, LastWarpLeavesOtherWarpsExitedAndCountsWarpSyncs) {
  const Trace vol =
      make_trace({"reduceUnrollWarp8", 256, std::nullopt, Workspace::Shared, 0, DType::Float32, 0});
  const Trace syn =
      make_trace({"unroll_warp_sync", 256, 8, Workspace::Shared, 0, DType::Float32, 0});
  // load, 256 -> 128 -> 64 (2 tree steps), 6 last-warp steps, the partial.
  ASSERT_EQ(vol.steps.size(), 1u + 2u + 6u + 1u);
  for (int i = 3; i < 9; ++i) {
    EXPECT_EQ(vol.steps[i].kind, "last_warp");
    EXPECT_FALSE(vol.steps[i].barrier);
    EXPECT_EQ(vol.steps[i].masks[0], 0xffffffffu);
    for (int w = 1; w < 8; ++w) EXPECT_EQ(vol.steps[i].exited[w], 0xffffffffu);
    EXPECT_EQ(vol.steps[i].counters.exited_warps, 7u);
    EXPECT_EQ(vol.steps[i].counters.warp_syncs, 0u);
    EXPECT_EQ(syn.steps[i].counters.warp_syncs, 2u);
    EXPECT_EQ(vol.steps[i].values, syn.steps[i].values);
  }
  // The partial: lane 0 acts, lanes 1..31 of warp 0 are masked, other warps have exited.
  EXPECT_EQ(vol.steps.back().masks[0], 1u);
  EXPECT_EQ(vol.steps.back().exited[0], 0u);
  EXPECT_EQ(vol.block_totals.barriers, 3u);
  EXPECT_EQ(syn.block_totals.warp_syncs, 12u);
  // volatile reads both operands every step; the __syncwarp form keeps its own in a register.
  EXPECT_EQ(vol.steps[4].counters.loads, 64u);
  EXPECT_EQ(syn.steps[4].counters.loads, 32u);
}

TEST(TraceLadder, IfChainKeepsBarriersTheTemplateDropsThem) {
  const Trace chain =
      make_trace({"complete_unroll_warp_sync", 128, 1, Workspace::Global, 0, DType::Int32, 0});
  const Trace tmpl =
      make_trace({"complete_unroll_sync", 128, 1, Workspace::Global, 0, DType::Int32, 0});
  EXPECT_EQ(chain.steps[0].kind, "skipped");
  EXPECT_EQ(chain.steps[0].counters.active_lanes, 0u);
  EXPECT_TRUE(chain.steps[0].barrier);
  EXPECT_EQ(chain.block_totals.barriers, 4u);  // 512, 256, 128 skipped; 64 works
  EXPECT_EQ(tmpl.block_totals.barriers, 1u);
  EXPECT_EQ(chain.partial, tmpl.partial);
}

TEST(TraceLadder, LaunchTotalsCountTheTailBlocksLoads) {
  // 1000 elements, unroll 4, B = 64: 4 blocks of 256, the last holds 232 elements.
  const Trace t = make_trace({"unroll", 64, 4, Workspace::Global, 1000, DType::Int32, 3});
  EXPECT_EQ(t.grid, 4u);
  EXPECT_EQ(t.steps[0].kind, "load");
  EXPECT_EQ(t.steps[0].counters.loads, 232u);
  EXPECT_EQ(t.launch_totals.barriers, 4u * 7u);
  EXPECT_EQ(t.launch_totals.active_lanes, 4 * t.block_totals.active_lanes);
  EXPECT_EQ(t.launch_totals.loads, 3 * (t.block_totals.loads - 232 + 256) + t.block_totals.loads);
}

TEST(TraceLadder, JsonHasTheIssuesShape) {
  const nlohmann::json j = nlohmann::json::parse(trace_json_text(
      {"reduceNeighbored", 64, std::nullopt, Workspace::Global, 0, DType::Int32, 0}));
  EXPECT_EQ(j["variant"], "neighbored");
  EXPECT_EQ(j["block_size"], 64);
  EXPECT_EQ(j["unroll"], 1);
  EXPECT_EQ(j["workspace"], "global");
  EXPECT_EQ(j["source"], "model");
  ASSERT_EQ(j["steps"].size(), 7u);
  const auto& s0 = j["steps"][0];
  EXPECT_TRUE(s0["barrier"].get<bool>());
  EXPECT_EQ(s0["masks"].size(), 2u);
  EXPECT_EQ(s0["masks"][0].get<std::uint32_t>(), 0x55555555u);
  EXPECT_EQ(s0["values"].size(), 64u);
  EXPECT_EQ(s0["ops"][1], nlohmann::json::array({2, 3}));
  EXPECT_TRUE(s0["caption"].is_string());
  EXPECT_EQ(s0["counters"]["active_lanes"], 32);
  EXPECT_EQ(j["totals"]["barriers"], 6);
  EXPECT_TRUE(j["steps"][6]["values"][0].is_number_integer());
}

std::string error_of(const TraceRequest& r) {
  try {
    make_trace(r);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(TraceLadder, BadRequestsSayWhatIsWrong) {
  auto has = [](const std::string& msg, const char* part) {
    return msg.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(error_of({"reduceNothing"}), "unknown variant 'reduceNothing'"));
  EXPECT_TRUE(has(error_of({"interleaved", 100}), "block size 100"));
  EXPECT_TRUE(has(error_of({"interleaved", 2048}), "block size 2048"));
  EXPECT_TRUE(has(error_of({"unroll_warp_sync", 32}), "block size 32"));
  EXPECT_TRUE(has(error_of({"unroll", 256, 3}), "unroll 3"));
  EXPECT_TRUE(has(error_of({"interleaved", 256, 2}), "unroll 2"));
  EXPECT_TRUE(has(error_of({"reduceUnroll8", 256, 4}), "names unroll 8"));
  EXPECT_TRUE(has(error_of({"interleaved", 256, 1, Workspace::Registers}), "workspace registers"));
  EXPECT_TRUE(has(error_of({"interleaved", 256, 1, Workspace::Global, 1000, DType::Int32, 4}),
                  "block index 4"));
}

TEST(TraceLadder, RefusesBlocksWhoseInputPrefixIsTooLarge) {
  const std::string msg = error_of(
      {"interleaved", 32, 1, Workspace::Global, std::uint64_t(1) << 34, DType::Int32, 1u << 24});
  EXPECT_NE(msg.find("block index 16777216"), std::string::npos) << msg;
  EXPECT_NE(msg.find("trace a block below"), std::string::npos) << msg;
}

TEST(TraceLadder, InputPrefixesAgreeSoOneTileIsEnough) {
  const InputData a = make_input(5000, DType::Float32), b = make_input(1234, DType::Float32);
  for (int i = 0; i < 1234; ++i) ASSERT_EQ(a.f32[i], b.f32[i]);
}

}  // namespace
}  // namespace rl
