// Line samples in session files (counters/counters_io.h): written and read back unchanged, absent
// from results that have none, and every bad field refused by name.
#include <gtest/gtest.h>

#include "counters/counters_io.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "export_fixtures.h"

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

TEST(LineSamplesIo, RoundTripsThroughJson) {
  const PointLineSamples s = sample_set();
  EXPECT_EQ(line_samples_from_json(line_samples_to_json(s), "x"), s);
  EXPECT_EQ(s.samples(), 44961u + 197 + 73399 + 12);
  EXPECT_EQ(s.reason("barrier"), 44961u);
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
  refused([](Json& j) { j.erase("functions"); }, "missing field 'functions'");
  refused([](Json& j) { j["period_log2"] = 99; }, "period_log2");
  refused([](Json& j) { j["functions"][0]["role"] = ""; }, "functions[0].role");
  refused([](Json& j) { j["functions"][0].erase("function"); }, "functions[0]");
  refused([](Json& j) { j["functions"][0]["pcs"][0] = Json::array({1}); }, "pcs[0]");
  refused([](Json& j) { j["functions"][0]["pcs"][0][0] = -4; }, "pcs[0][0]");
  refused([](Json& j) { j["functions"][0]["pcs"][0][1]["barrier"] = "many"; }, "barrier");
  refused([](Json& j) { j["dropped"] = 1.5; }, "dropped");
}

}  // namespace
}  // namespace rl
