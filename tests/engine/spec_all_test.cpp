// `all` in a spec: every variant that applies to the request and the device, the others left
// out with why; nothing left is an error; a variant named on its own that does not apply is
// still an error.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/device/device.h"
#include "engine/experiment/spec.h"

namespace rl {
namespace {

ExperimentSpec all_spec() {
  ExperimentSpec s;
  s.variants = {"all"};
  return s;
}

DeviceInfo gpu(int cc) {
  DeviceInfo d;
  d.backend = "cuda";
  d.cc_major = cc / 10;
  d.cc_minor = cc % 10;
  return d;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

const Exclusion* excluded_as(const std::vector<Exclusion>& ex, const std::string& id) {
  for (const Exclusion& e : ex)
    if (e.variant == id) return &e;
  return nullptr;
}

// "all" is every reduction; the labs (a function of the input, not its sum) are never in it, nor
// are the rows and columns variants on a spec without shapes.
std::size_t reductions() {
  return std::size_t(std::count_if(catalog().begin(), catalog().end(), [](const VariantInfo& v) {
    return !is_lab(v.family) && !v.is_segmented();
  }));
}

TEST(SpecAll, Float32LeavesOutTheIntegerOnlyVariantAndSaysWhy) {
  ExperimentSpec s = all_spec();
  s.types = {DType::Float32};
  const DeviceInfo h100 = gpu(90);
  std::vector<Exclusion> ex;
  const ExperimentSpec r = resolve_all(s, &h100, &ex);
  ASSERT_EQ(ex.size(), 1u);
  EXPECT_EQ(ex[0], (Exclusion{"reduce_add_sync", "takes int32 only, not float32"}));
  EXPECT_EQ(r.variants.size(), reductions() - 1);
  EXPECT_FALSE(contains(r.variants, "all"));
  EXPECT_TRUE(validate(s, &h100).empty()) << validate(s, &h100).front();
  for (const PointSpec& p : expand(r)) EXPECT_NE(p.variant, "reduce_add_sync");
}

TEST(SpecAll, TheDeviceDecidesToo) {
  const ExperimentSpec s = all_spec();
  std::vector<Exclusion> ex;
  resolve_all(s, nullptr, &ex);  // the host backend: kernels with a host model only
  for (const VariantInfo& v : catalog())
    if (!is_lab(v.family)) EXPECT_EQ(excluded_as(ex, v.id) != nullptr, !v.has_block_model) << v.id;
  const DeviceInfo turing = gpu(75);
  resolve_all(s, &turing, &ex);
  ASSERT_EQ(ex.size(), 2u);
  EXPECT_EQ(ex[0], (Exclusion{"reduce_add_sync", "needs sm_80; this GPU is sm_75"}));
  EXPECT_EQ(ex[1], (Exclusion{"cluster_single_pass", "needs sm_90; this GPU is sm_75"}));
}

TEST(SpecAll, EveryReasonIsGivenAndGroupedForPeople) {
  ExperimentSpec s = all_spec();
  s.types = {DType::Float32};
  s.block_sizes = {32};
  std::vector<Exclusion> ex;
  resolve_all(s, nullptr, &ex);
  const Exclusion* redux = excluded_as(ex, "reduce_add_sync");
  ASSERT_NE(redux, nullptr);
  EXPECT_EQ(redux->reason, "takes int32 only, not float32");  // it takes B=32
  const Exclusion* vec = excluded_as(ex, "vectorized");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->reason, "takes block sizes 128, 256, 512, 1024, not 32; no host model, GPU only");
  const auto lines = describe_exclusions(ex);
  // One line per reason; the last-warp kernels share theirs.
  EXPECT_LT(lines.size(), ex.size());
  EXPECT_TRUE(contains(lines,
                       "unroll_warp_volatile, unroll_warp_sync, complete_unroll_warp_volatile, "
                       "complete_unroll_warp_sync, complete_unroll_volatile, complete_unroll_sync: "
                       "takes block sizes 64, 128, 256, 512, 1024, not 32"))
      << lines.front();
}

TEST(SpecAll, NothingLeftIsAnErrorWithTheReasons) {
  // Registers: the kernels past the classic ladder only; a factor none of them takes leaves CUB
  // DeviceReduce (no unroll axis), which the host cannot run.
  ExperimentSpec s = all_spec();
  s.workspaces = {Workspace::Registers};
  s.unroll_factors = {3};
  std::vector<Exclusion> ex;
  EXPECT_TRUE(resolve_all(s, nullptr, &ex).variants.empty());
  EXPECT_EQ(ex.size(), reductions());
  const auto errors = validate(s, nullptr);
  ASSERT_GE(errors.size(), 2u);
  EXPECT_EQ(errors[0], "variants all: no variant applies to this request on this device");
  for (std::size_t i = 1; i < errors.size(); ++i)
    EXPECT_EQ(errors[i].rfind("variants all: left out ", 0), 0u) << errors[i];
  EXPECT_EQ(errors.size(), 1 + describe_exclusions(ex).size());
}

TEST(SpecAll, NothingTheDeviceRunsIsAnError) {
  const DeviceInfo maxwell = gpu(50);
  const auto errors = validate(all_spec(), &maxwell);
  ASSERT_EQ(errors.size(), 4u);  // the headline; sm_75 for most, sm_80 and sm_90 for one each
  EXPECT_EQ(errors[0], "variants all: no variant applies to this request on this device");
  EXPECT_EQ(errors[1].rfind("variants all: left out neighbored, neighbored_less,", 0), 0u)
      << errors[1];
  EXPECT_NE(errors[1].find(": needs sm_75; this GPU is sm_50"), std::string::npos) << errors[1];
  EXPECT_EQ(errors[2], "variants all: left out reduce_add_sync: needs sm_80; this GPU is sm_50");
  EXPECT_EQ(errors[3],
            "variants all: left out cluster_single_pass: needs sm_90; this GPU is sm_50");
}

TEST(SpecAll, AnotherBadValueIsReportedInsteadOfNothingApplies) {
  ExperimentSpec s = all_spec();
  s.block_sizes = {100};
  const auto errors = validate(s, nullptr);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "block size 100: must be a power of two from 32 to 1024");
}

TEST(SpecAll, NamedVariantsThatDoNotApplyStayErrors) {
  ExperimentSpec s;
  s.variants = {"reduce_add_sync"};
  s.types = {DType::Float32};
  const auto errors = validate(s, nullptr);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "variant reduce_add_sync: takes int32 only, not float32");
  // Named beside `all`, it is still checked on its own.
  s.variants = {"all", "reduce_add_sync"};
  EXPECT_EQ(validate(s, nullptr), errors);
}

TEST(SpecAll, NamedBesideAllRunsOnceAndKeepsItsFactor) {
  ExperimentSpec s;
  s.variants = {"reduceUnroll2", "all", "interleaved", "all"};
  s.unroll_factors = {4};
  const ExperimentSpec r = resolve_all(s, nullptr, nullptr);
  EXPECT_EQ(std::count(r.variants.begin(), r.variants.end(), "interleaved"), 1);
  EXPECT_FALSE(contains(r.variants, "all"));
  int unroll_points = 0;
  for (const PointSpec& p : expand(r))
    if (p.variant == "unroll") {
      ++unroll_points;
      EXPECT_TRUE(p.unroll == 2 || p.unroll == 4) << p.label();
    }
  EXPECT_EQ(unroll_points, 2);
}

TEST(SpecAll, WithoutAllTheSpecIsUntouched) {
  ExperimentSpec s;
  s.variants = {"reduceInterleaved"};
  std::vector<Exclusion> ex{{"x", "y"}};
  EXPECT_EQ(resolve_all(s, nullptr, &ex).variants, s.variants);
  EXPECT_TRUE(ex.empty());
}

TEST(SpecExpansion, UnrollFactorsRunAscending) {
  ExperimentSpec s;
  s.variants = {"unroll"};
  s.unroll_factors = {8, 1, 4, 2, 4};
  std::vector<int> order;
  for (const PointSpec& p : expand(s)) order.push_back(p.unroll);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 4, 8}));
}

}  // namespace
}  // namespace rl
