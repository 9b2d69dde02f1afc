// Hostile or impossible input is refused with the place named, never a crash: JSON nested
// 100,000 deep, a 1 MiB string, a NUL byte, 1e309, values a session cannot hold if it is true
// (negative or NaN times, block size -1024, unroll 0, sample counts that disagree with the
// samples), an empty variants list in a spec, sizes whose byte counts would wrap, and an unroll
// factor that conflicts with a name that fixes one.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "export_fixtures.h"
#include "io/json_bounded.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;

using testing::session_error;
using testing::spec_error;

Json valid_session() {
  return Json::parse(session_to_json(testing::make_full_session()));
}

bool has(const std::vector<std::string>& errors, const std::string& needle) {
  return std::any_of(errors.begin(), errors.end(),
                     [&](const std::string& e) { return e.find(needle) != std::string::npos; });
}

TEST(HostileJson, NestedOneHundredThousandDeepIsRefusedQuickly) {
  // Arrays inside a session field, objects in a spec: deep enough to overflow the stack of a
  // reader that recursed without a limit.
  const int depth = 100000;
  std::string arrays = valid_session().dump();
  arrays.insert(arrays.find("\"note\":") + 7, std::string(depth, '['));
  std::string deep_objects = "{\"timing\": ";
  for (int i = 0; i < depth; ++i) deep_objects += "{\"a\": ";
  deep_objects += "1" + std::string(depth + 1, '}');

  const auto start = std::chrono::steady_clock::now();
  const std::string e1 = session_error(arrays);
  const std::string e2 = spec_error(deep_objects);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_EQ(e1.rfind("device.note", 0), 0u) << e1;
  EXPECT_NE(e1.find("nested deeper than 64 levels"), std::string::npos) << e1;
  EXPECT_EQ(e2.rfind("timing.a.a.a", 0), 0u) << e2;
  EXPECT_NE(e2.find("nested deeper than 64 levels"), std::string::npos) << e2;
  EXPECT_LT(ms, 1000) << "refusing took " << ms << " ms";
  std::printf("[ measured ] two 100000-deep documents refused in %lld ms\n", (long long)ms);
  // 64 levels still read (as JSON; the session reader then says what it expected).
  EXPECT_NO_THROW(parse_json_bounded(std::string(64, '[') + std::string(64, ']')));
}

TEST(HostileJson, LongStringsNulBytesAndHugeNumbersNameTheField) {
  Json doc = valid_session();
  doc["device"]["name"] = std::string(1 << 20, 'x');
  EXPECT_EQ(session_error(doc.dump()), "device.name: a string of 1048576 bytes; at most 65536");
  doc = valid_session();
  doc["results"][2]["message"] = std::string(70000, 'm');
  EXPECT_EQ(session_error(doc.dump()).rfind("results[2].message: a string of 70000 bytes", 0), 0u);

  std::string with_nul = valid_session().dump();
  with_nul[40] = '\0';
  EXPECT_EQ(session_error(with_nul), "a NUL byte at offset 40: not a text file");

  EXPECT_EQ(spec_error(R"({"timing": {"noise": 1e309}})"),
            "timing.noise: the number 1e309 is out of range (a double holds up to 1.8e308)");
  EXPECT_EQ(spec_error(R"({"sizes": [1, -1e400]})"),
            "sizes[1]: the number -1e400 is out of range (a double holds up to 1.8e308)");
  // Plain syntax errors keep their "not JSON" prefix.
  EXPECT_EQ(spec_error(R"({"sizes": [1,)").rfind("not JSON: ", 0), 0u);
}

// Each impossible value, and the message that names it.
TEST(ImpossibleSession, ValuesThatCannotBeTrueAreRefused) {
  struct Case {
    std::function<void(Json&)> change;
    std::string says;
  };
  const Case cases[] = {
      {[](Json& d) { d["results"][0]["total"]["median_ms"] = -1.0; },
       "results[0].total.median_ms: -1 is not a time (negative)"},
      {[](Json& d) { d["results"][0]["first_kernel"]["min_ms"] = "nan"; },
       "results[0].first_kernel.min_ms: NaN is not a time"},
      {[](Json& d) { d["results"][1]["total_samples_ms"][2] = -0.5; },
       "results[1].total_samples_ms[2]: -0.5 is not a time (negative)"},
      {[](Json& d) { d["results"][0]["block_size"] = -1024; },
       "results[0].block_size: -1024 is not a block size"},
      {[](Json& d) { d["results"][0]["unroll"] = 0; },
       "results[0].unroll: 0 is not an unroll factor"},
      {[](Json& d) { d["results"][0]["size"] = 0; }, "results[0].size: 0 is not a size"},
      {[](Json& d) { d["results"][0]["total"]["samples"] = 39; },
       "results[0].total_samples_ms: 40 samples, but total.samples says 39"},
      {[](Json& d) { d["results"][1]["first_samples_ms"].push_back(1.0); },
       "results[1].first_samples_ms: 6 samples, but first_kernel.samples says 5"},
      {[](Json& d) { d["results"][0]["total"]["samples"] = -3; },
       "results[0].total.samples: -3 is not a count"},
      {[](Json& d) { d["results"][0]["total"]["stddev_ms"] = -1.0; },
       "results[0].total.stddev_ms: -1 is not a standard deviation"},
      {[](Json& d) { d["results"][0]["total"]["median_ms"] = 1e9; },
       "results[0].total: median_ms 1e+09 is not between min_ms"},
      {[](Json& d) { d["read_floors"][0]["time"]["max_ms"] = -2.0; },
       "read_floors[0].time.max_ms: -2 is not a time (negative)"},
  };
  for (const Case& c : cases) {
    Json doc = valid_session();
    c.change(doc);
    const std::string e = session_error(doc.dump());
    EXPECT_EQ(e.rfind(c.says, 0), 0u) << "got: " << e << "\nwanted: " << c.says;
  }
  // The GPU time is a difference and may dip below zero; the fixture itself reads.
  Json doc = valid_session();
  doc["results"][0]["gpu_time"]["min_ms"] = -0.001;
  EXPECT_EQ(session_error(doc.dump()), "");
}

TEST(HostileSpec, EmptyVariantsListIsNotTheDefaultLadder) {
  EXPECT_EQ(spec_error(R"({"variants": []})").rfind("variants: an empty list", 0), 0u)
      << spec_error(R"({"variants": []})");
  EXPECT_EQ(spec_error(R"({"block_sizes": [256]})"), "");  // left out: the default
}

TEST(HostileSpec, HugeSizesDoNotWrapTheMemoryCheck) {
  // 2^61 ints: n * 8 bytes wrapped to 0 and passed the host check.
  ExperimentSpec s;
  s.variants = {"interleaved"};
  s.sizes = {std::uint64_t(1) << 61};
  EXPECT_TRUE(has(validate(s, nullptr), "size 2^61: too large (at most 2^40)"));
  DeviceInfo d;
  d.backend = "cuda";
  d.total_memory = std::size_t(141) << 30;
  d.l2_bytes = std::size_t(60) << 20;
  EXPECT_TRUE(has(validate(s, &d), "size 2^61: too large"));
  EXPECT_EQ(device_bytes_needed(
                PointSpec{"", Workspace::Global, 1024, 16, std::uint64_t(1) << 62, DType::Int32},
                d.l2_bytes),
            UINT64_MAX);
  EXPECT_EQ(device_bytes_needed(
                PointSpec{"", Workspace::Global, 1024, 16, UINT64_MAX, DType::Int32}, SIZE_MAX),
            UINT64_MAX);
  // The largest size allowed is checked against the device, not wrapped.
  s.sizes = {std::uint64_t(1) << 40};
  EXPECT_TRUE(has(validate(s, &d), "size 2^40: needs 9071.2 GB of device memory"))
      << validate(s, &d).front();
}

TEST(HostileSpec, UnrollConflictsWithAFactorInTheName) {
  ExperimentSpec s;
  s.variants = {"reduceUnroll8"};
  s.unroll_factors = {4};
  const auto e = validate(s, nullptr);
  EXPECT_TRUE(has(e, "unroll 4: conflicts with variant reduceUnroll8, whose name fixes unroll 8"))
      << (e.empty() ? "" : e.front());
  // The same factor, or a factor for the variant also named without one, is no conflict.
  s.unroll_factors = {8};
  EXPECT_TRUE(validate(s, nullptr).empty());
  s.variants = {"reduceUnroll2", "unroll"};
  s.unroll_factors = {4, 8};
  EXPECT_TRUE(validate(s, nullptr).empty());
  s.variants = {"reduceUnroll8", "interleaved"};
  s.unroll_factors = {1};
  EXPECT_TRUE(validate(s, nullptr).empty());
}

}  // namespace
}  // namespace rl
