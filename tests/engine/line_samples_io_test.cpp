// Line samples and line counts in session files (io/counters_io.h): written and read back
// unchanged, absent from results that have none (and the counts from points without them, so
// files from before the counts read as they did), and every bad field refused by name.
#include <gtest/gtest.h>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "export_fixtures.h"
#include "io/counters_io.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;

PointLineSamples sample_set() {
  PointLineSamples s;
  s.arch = "sm_90";
  s.period_log2 = 10;
  s.launches = 12;
  s.dropped = 3;
  s.note = "3 samples dropped by the hardware (buffer full)";
  s.functions.push_back(
      {"first_kernel",
       "_Z4treePKiPim",
       {{0x180, {{"barrier", 44961}, {"selected", 197}}}, {0x1e0, {{"short_scoreboard", 73399}}}}});
  s.functions.push_back({"finish", "_Z6finishv", {{0x40, {{"long_scoreboard", 12}}}}});
  return s;
}

// Counts beside the samples: a PC with both, one counted but never sampled, one sampled only.
PointLineSamples counted_set() {
  PointLineSamples s = sample_set();
  s.counted_launches = 1;
  s.count_note = "2 SASS records dropped by CUPTI (not read in time)";
  SampledFunction& f = s.functions[0];
  f.pcs[0].inst_executed = 8192;
  f.pcs[0].thread_inst_executed = 8192 * 16;
  SampledPc only_counted{0x1a0, {}};
  only_counted.inst_executed = 4096;
  only_counted.thread_inst_executed = 4096 * 32;
  f.pcs.insert(f.pcs.begin() + 1, only_counted);
  return s;
}

TEST(LineSamplesIo, RoundTripsThroughJson) {
  const PointLineSamples s = sample_set();
  EXPECT_EQ(line_samples_from_json(line_samples_to_json(s), "x"), s);
  EXPECT_EQ(s.samples(), 44961u + 197 + 73399 + 12);
  EXPECT_EQ(s.reason("barrier"), 44961u);
}

TEST(LineSamplesIo, CountsRoundTripAndAreWrittenOnlyWhereTaken) {
  const PointLineSamples s = counted_set();
  const Json j = line_samples_to_json(s);
  EXPECT_EQ(line_samples_from_json(j, "x"), s);
  EXPECT_EQ(j["counted_launches"], 1);
  const Json& pcs = j["functions"][0]["pcs"];
  ASSERT_EQ(pcs.size(), 3u);
  EXPECT_EQ(pcs[0].size(), 3u);
  EXPECT_EQ(pcs[0][2]["inst_executed"], 8192);
  EXPECT_EQ(pcs[0][2]["thread_inst_executed"], 8192 * 16);
  EXPECT_TRUE(pcs[1][1].empty());  // counted, never sampled
  EXPECT_EQ(pcs[2].size(), 2u);    // sampled only: no count element
  EXPECT_EQ(s.inst_executed(), 8192u + 4096);
  // Without counts nothing of them is written: the text of a file of samples alone.
  const Json plain = line_samples_to_json(sample_set());
  EXPECT_FALSE(plain.contains("counted_launches"));
  EXPECT_FALSE(plain.contains("count_note"));
  for (const Json& f : plain["functions"])
    for (const Json& pc : f["pcs"]) EXPECT_EQ(pc.size(), 2u) << pc.dump();
}

TEST(LineSamplesIo, AFileFromBeforeTheCountsReadsWithoutThem) {
  const Json old = Json::parse(R"({"arch": "sm_90", "period_log2": 10, "launches": 12,
      "dropped": 0, "note": "", "functions": [{"role": "whole", "function": "_Z1fv",
      "pcs": [[384, {"barrier": 4496, "selected": 197}]]}]})");
  const PointLineSamples s = line_samples_from_json(old, "x");
  EXPECT_EQ(s.counted_launches, 0);
  EXPECT_TRUE(s.count_note.empty());
  ASSERT_EQ(s.functions.size(), 1u);
  EXPECT_EQ(s.functions[0].pcs[0].inst_executed, 0u);
  EXPECT_EQ(s.samples(), 4496u + 197);
  EXPECT_EQ(line_samples_to_json(s), old);
}

TEST(LineSamplesIo, ASessionKeepsThemAndResultsWithoutThemStayWithout) {
  Session session = testing::make_full_session();
  ASSERT_GE(session.results.size(), 2u);
  session.results[0].line_samples = sample_set();
  const Session back = session_from_json(session_to_json(session, 2));
  ASSERT_TRUE(back.results[0].line_samples.has_value());
  EXPECT_EQ(*back.results[0].line_samples, sample_set());
  EXPECT_FALSE(back.results[1].line_samples.has_value());
  EXPECT_EQ(session_to_json(session, -1).find("line_samples") != std::string::npos, true);
}

TEST(LineSamplesIo, ASessionKeepsTheCounts) {
  Session session = testing::make_full_session();
  ASSERT_GE(session.results.size(), 1u);
  session.results[0].line_samples = counted_set();
  const Session back = session_from_json(session_to_json(session, 2));
  ASSERT_TRUE(back.results[0].line_samples.has_value());
  EXPECT_EQ(*back.results[0].line_samples, counted_set());
}

TEST(LineSamplesIo, BadFieldsAreRefusedByName) {
  const Json good = line_samples_to_json(sample_set());
  auto refused = [&](const std::function<void(Json&)>& edit, const std::string& where) {
    Json j = good;
    edit(j);
    try {
      line_samples_from_json(j, "results[0].line_samples");
      ADD_FAILURE() << "accepted: " << j.dump();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  refused([](Json& j) { j = Json::array(); }, "expected an object");
  refused([](Json& j) { j.erase("functions"); }, "functions: missing");
  refused([](Json& j) { j["period_log2"] = 99; }, "period_log2");
  refused([](Json& j) { j["functions"][0]["role"] = ""; }, "functions[0].role");
  refused([](Json& j) { j["functions"][0].erase("function"); }, "functions[0]");
  refused([](Json& j) { j["functions"][0]["pcs"][0] = Json::array({1}); }, "pcs[0]");
  refused([](Json& j) { j["functions"][0]["pcs"][0][0] = -4; }, "pcs[0][0]");
  refused([](Json& j) { j["functions"][0]["pcs"][0][1]["barrier"] = "many"; }, "barrier");
  refused([](Json& j) { j["dropped"] = 1.5; }, "dropped");
  const Json counts = line_samples_to_json(counted_set());
  auto refused_counts = [&](const std::function<void(Json&)>& edit, const std::string& where) {
    Json j = counts;
    edit(j);
    try {
      line_samples_from_json(j, "results[0].line_samples");
      ADD_FAILURE() << "accepted: " << j.dump();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  refused_counts([](Json& j) { j["counted_launches"] = -1; }, "counted_launches");
  refused_counts([](Json& j) { j["count_note"] = 3; }, "count_note");
  refused_counts(
      [](Json& j) {
        j["functions"][0]["pcs"][0][2] = Json::array({1, 2});
      },
      "pcs[0][2]");
  refused_counts([](Json& j) { j["functions"][0]["pcs"][0][2]["inst_executed"] = -5; },
                 "pcs[0][2].inst_executed");
  refused_counts([](Json& j) { j["functions"][0]["pcs"][0][2]["warps"] = 1; }, "unknown count");
  refused_counts([](Json& j) { j["functions"][0]["pcs"][0].push_back(Json::object()); }, "pcs[0]");
}

}  // namespace
}  // namespace rl
