// The labs' host model (block_model_labs.cpp) against a plain reading of kernels/lab.h, the
// catalog and presets of the labs, "all" leaving them out, and a whole lab preset run and
// verified on the host backend.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/lab.h"

#include "engine/backend/backend.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/presets.h"
#include "engine/measure/runner.h"
#include "engine/model/block_model.h"

namespace rl {
namespace {
namespace lab = kernels::lab;

// Per block, without the model's table: lab::branch_value on every element.
std::vector<std::int64_t> plain_branch_partials(const std::vector<std::int32_t>& x, KernelId k,
                                                int block, int knob) {
  std::vector<std::int64_t> out((x.size() + block - 1) / block, 0);
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i / block] += lab::branch_value(k, x[i], unsigned(i % block), knob);
  return out;
}

TEST(LabsModel, BranchLabsEqualThePlainFunctions) {
  const InputData in = make_input(5000, DType::Int32);
  for (const VariantInfo& v : catalog()) {
    if (v.family != VariantFamily::DivergenceLab || v.kernel == KernelId::BranchPartitioned)
      continue;
    for (int b : {32, 256})
      for (int k : {1, 4}) {
        if (!v.takes_unroll(k)) continue;
        const PointSpec p{v.id, Workspace::Registers, b, k, in.size(), DType::Int32};
        const auto got = model_reduce(p, in);
        ASSERT_TRUE(got) << v.id;
        EXPECT_EQ(got->partials_i64, plain_branch_partials(in.i32, v.kernel, b, k)) << v.id;
      }
  }
}

TEST(LabsModel, PartitionKeepsSelectedInOrderAndRejectedReversed) {
  const InputData in = make_input(3000, DType::Int32);
  const int k = 16;
  std::vector<std::int32_t> want;
  for (std::int32_t v : in.i32)
    if (lab::takes_path_b(v, k)) want.push_back(v);
  for (auto it = in.i32.rbegin(); it != in.i32.rend(); ++it)
    if (!lab::takes_path_b(*it, k)) want.push_back(*it);
  const PointSpec p{"branch_partitioned", Workspace::Registers, 64, k, in.size(), DType::Int32};
  EXPECT_EQ(model_reduce(p, in)->partials_i64,
            plain_branch_partials(want, KernelId::BranchPartitioned, 64, k));
}

TEST(LabsModel, PredicatesCountAndSearchPerBlock) {
  const InputData in = make_input(10000, DType::Int32);
  const int b = 128, u = 4;
  const std::int64_t counted = std::count_if(in.i32.begin(), in.i32.end(), lab::counted);
  for (const char* id : {"count_syncthreads_count", "count_shared_tree", "count_ballot"}) {
    const auto got = model_reduce({id, Workspace::Registers, b, u, in.size(), DType::Int32}, in);
    EXPECT_EQ(got->total_i64, counted) << id;
    EXPECT_EQ(got->partials_i64.size(), (in.size() + b * u - 1) / (b * u)) << id;
  }
  std::int64_t blocks_with_hit = 0;
  for (std::size_t first = 0; first < in.size(); first += b * u)
    blocks_with_hit += std::any_of(
        in.i32.begin() + first, in.i32.begin() + std::min(in.size(), first + b * u), lab::searched);
  for (const char* id : {"any_early_exit", "any_full_scan"})
    EXPECT_EQ(
        model_reduce({id, Workspace::Registers, b, u, in.size(), DType::Int32}, in)->total_i64,
        blocks_with_hit)
        << id;
}

TEST(LabsModel, UnrollLabsSumTheInput) {
  const InputData in = make_input(100003, DType::Int32);
  for (const char* id : {"unroll_pragma", "tree_loop_rolled", "tree_loop_unrolled"}) {
    const VariantInfo* v = find_variant_by_id(id);
    ASSERT_NE(v, nullptr) << id;
    const PointSpec p{id, v->workspaces.front(), 256, 1, in.size(), DType::Int32};
    EXPECT_EQ(model_reduce(p, in)->total_i64, in.exact_i64()) << id;
  }
}

TEST(LabsModel, RefusesFloatAndFactorsTheLabDoesNotTake) {
  const InputData f = make_input(100, DType::Float32);
  EXPECT_THROW(
      model_reduce({"branch_uniform", Workspace::Registers, 64, 1, 100, DType::Float32}, f), Error);
  const InputData i = make_input(100, DType::Int32);
  EXPECT_THROW(model_reduce({"branch_uniform", Workspace::Registers, 64, 2, 100, DType::Int32}, i),
               Error);
}

TEST(LabsCatalog, LabsAreInt32OnlyAndLeftOutOfAll) {
  int labs = 0;
  for (const VariantInfo& v : catalog()) {
    if (!is_lab(v.family)) continue;
    ++labs;
    EXPECT_FALSE(v.sums_input) << v.id;
    EXPECT_EQ(v.types, std::vector<DType>{DType::Int32}) << v.id;
    EXPECT_FALSE(v.explanation.empty()) << v.id;
    EXPECT_FALSE(v.phases.empty()) << v.id;
  }
  EXPECT_EQ(labs, 20);
  ExperimentSpec s;
  s.variants = {"all"};
  s.workspaces = {Workspace::Registers};
  for (const PointSpec& p : expand(s))
    EXPECT_FALSE(is_lab(find_variant_by_id(p.variant)->family)) << p.variant;
}

// Every lab preset validates, and runs verified on the host backend (at a small N).
TEST(LabsPresets, RunVerifiedOnTheHostBackend) {
  for (const char* id : {"divergence", "divergence-sweep", "predicates", "unroll-pragma"}) {
    const Preset* preset = find_preset(id);
    ASSERT_NE(preset, nullptr) << id;
    EXPECT_TRUE(validate(preset->spec, nullptr).empty()) << id;
    ExperimentSpec s = preset->spec;
    s.sizes = {4099};
    s.timing.budget_ms = 1;
    s.timing.min_samples = 1;
    s.timing.max_samples = 1;
    Runner runner(make_host_backend());
    const Session session = runner.run(s, {});
    EXPECT_FALSE(session.results.empty()) << id;
    for (const PointResult& r : session.results)
      EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
  }
}

}  // namespace
}  // namespace rl
