// Measured timelines as JSON (io/timeline_json.h): alone, in sessions, and refused with a
// message naming the field for every bound and malformed mark.
#include "engine/io/timeline_json.h"

#include <functional>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/session/timeline_analysis.h"
#include "export_fixtures.h"
#include "timeline_fixtures.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;
using test::four_warp_block;
using test::SmClock;

void expect_same(const MeasuredTimeline& a, const MeasuredTimeline& b) {
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.label, b.label);
  EXPECT_EQ(a.block_size, b.block_size);
  EXPECT_EQ(a.unroll, b.unroll);
  EXPECT_EQ(a.workspace, b.workspace);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.selection, b.selection);
  EXPECT_EQ(a.sm, b.sm);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.recorded_utc, b.recorded_utc);
  EXPECT_EQ(a.twin_median_ms, b.twin_median_ms);  // bit-exact, not near
  EXPECT_EQ(a.real_median_ms, b.real_median_ms);
  EXPECT_EQ(a.cost_runs, b.cost_runs);
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    EXPECT_EQ(a.blocks[i].block, b.blocks[i].block);
    EXPECT_EQ(a.blocks[i].sm, b.blocks[i].sm);
    ASSERT_EQ(a.blocks[i].warps.size(), b.blocks[i].warps.size());
    for (std::size_t w = 0; w < a.blocks[i].warps.size(); ++w) {
      const WarpTimeline &x = a.blocks[i].warps[w], &y = b.blocks[i].warps[w];
      EXPECT_EQ(x.warp, y.warp);
      EXPECT_EQ(x.truncated, y.truncated);
      ASSERT_EQ(x.marks.size(), y.marks.size());
      for (std::size_t m = 0; m < x.marks.size(); ++m) {
        EXPECT_EQ(x.marks[m].kind, y.marks[m].kind);
        EXPECT_EQ(x.marks[m].phase, y.marks[m].phase);
        EXPECT_EQ(x.marks[m].index, y.marks[m].index);
        EXPECT_EQ(x.marks[m].clock, y.marks[m].clock);
        EXPECT_EQ(x.marks[m].ns, y.marks[m].ns);
      }
    }
  }
}

// Clocks and ns past 2^53 (a double would round them), a user's phase name, a truncated warp,
// times that need all 17 digits, blocks on two SMs.
MeasuredTimeline full_timeline() {
  const SmClock sm3{18000000000000000123ull, 1764900000123456789ull, 2};
  const SmClock sm9{9007199254740993ull, 1764900000123457001ull, 2};
  MeasuredTimeline t = test::timeline_with(
      {four_warp_block(sm3, 5, 3), four_warp_block(sm3, 6, 3, 4000), four_warp_block(sm9, 9, 9)});
  t.blocks[1].warps[2].marks[1].phase = "my \"phase\", ünïcode";
  t.blocks[2].warps[3].marks.resize(4);
  t.blocks[2].warps[3].truncated = true;
  t.unroll = 8;
  t.workspace = Workspace::Shared;
  t.type = DType::Float32;
  t.size = (std::uint64_t(1) << 40) + 3;
  t.grid = 1u << 30;
  t.twin_median_ms = 0.1 / 3.0;
  t.real_median_ms = 1.0 / 7.0;
  t.cost_runs = 20;
  return t;
}

std::string read_error(const std::string& text) {
  try {
    timeline_from_json(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TimelineJson, RoundTripIsBitExact) {
  const MeasuredTimeline t = full_timeline();
  ASSERT_TRUE(timeline_problems(t).empty());
  const std::string text = timeline_to_json(t);
  expect_same(t, timeline_from_json(text));
  EXPECT_EQ(timeline_to_json(timeline_from_json(text)), text);
  expect_same(t, timeline_from_json(timeline_to_json(t, 2)));
}

TEST(TimelineJson, MarksAreSmallArraysWithOneTableOfPhaseNames) {
  const Json doc = Json::parse(timeline_to_json(full_timeline()));
  EXPECT_EQ(doc["phases"], Json::parse(R"(["load", "tree", "my \"phase\", ünïcode"])"));
  const Json& marks = doc["blocks"][0]["warps"][0]["marks"];
  EXPECT_EQ(marks[0], Json::parse("[\"S\", -1, 0, 18000000000000000123, 1764900000123456789]"));
  EXPECT_EQ(marks[1][0], "P");
  EXPECT_EQ(marks[1][1], 0);
  EXPECT_EQ(marks[4][2], 16);  // the tree's stride
}

TEST(TimelineJson, ReportCarriesTheDerivedNumbersAndReadsBackAsItsTimeline) {
  const MeasuredTimeline t = test::timeline_with({four_warp_block(SmClock{}, 7, 3)});
  const Json doc = Json::parse(timeline_report_json(t));
  EXPECT_EQ(doc["summary"]["cycles_per_ns"], 2.0);
  EXPECT_EQ(doc["summary"]["barrier_wait_sum_ns"], 770.0);
  EXPECT_EQ(doc["summary"]["phase_ns"][1], Json::parse(R"({"phase": "load", "ns": 2850.0})"));
  ASSERT_EQ(doc["barriers"].size(), 1u);
  EXPECT_EQ(doc["barriers"][0]["block"], 7);
  EXPECT_EQ(doc["barriers"][0]["slowest_warp"], 2);
  expect_same(t, timeline_from_json(timeline_report_json(t)));
}

TEST(TimelineJson, SessionsWriteTimelinesOnlyWhenThereAreAny) {
  Session s = testing::make_full_session();
  const std::string without = session_to_json(s);
  EXPECT_FALSE(Json::parse(without).contains("timelines"));
  EXPECT_TRUE(session_from_json(without).timelines.empty());

  s.timelines = {full_timeline(), test::timeline_with({four_warp_block(SmClock{}, 7, 3)})};
  const std::string with = session_to_json(s);
  const Session back = session_from_json(with);
  ASSERT_EQ(back.timelines.size(), 2u);
  expect_same(s.timelines[0], back.timelines[0]);
  expect_same(s.timelines[1], back.timelines[1]);
  EXPECT_EQ(session_to_json(back), with);
}

Json one_block_doc() {
  return Json::parse(timeline_to_json(test::timeline_with({four_warp_block(SmClock{}, 7, 3)})));
}

TEST(TimelineJson, EveryBoundHasItsMessage) {
  Json doc = one_block_doc();
  for (unsigned b = 0; b < kTimelineMaxBlocks; ++b) {
    doc["blocks"].push_back(doc["blocks"][0]);
    doc["blocks"].back()["block"] = 100 + b;
  }
  EXPECT_EQ(read_error(doc.dump()), "blocks: 17 blocks; at most 16");

  doc = one_block_doc();
  Json& warps = doc["blocks"][0]["warps"];
  for (unsigned w = 4; w <= 32; ++w) warps.push_back(warps[0]);
  EXPECT_EQ(read_error(doc.dump()), "blocks[0].warps: 33 warps; at most 32");

  doc = one_block_doc();
  Json& marks = doc["blocks"][0]["warps"][1]["marks"];
  while (marks.size() <= kTimelineMaxMarksPerWarp) marks.insert(marks.begin() + 1, marks[1]);
  EXPECT_EQ(read_error(doc.dump()), "blocks[0].warps[1].marks: 65 marks; at most 64");

  doc = one_block_doc();
  for (int i = 0; i < 257; ++i) doc["phases"].push_back("p" + std::to_string(i));
  EXPECT_EQ(read_error(doc.dump()), "phases: 259 phase names; at most 256");

  Json session = Json::parse(session_to_json(testing::make_full_session()));
  session["timelines"] = Json::array();
  for (unsigned i = 0; i <= kTimelineMaxPerSession; ++i)
    session["timelines"].push_back(one_block_doc());
  EXPECT_EQ(testing::session_error(session.dump()), "timelines: 33 timelines; at most 32");
}

struct MalformedCase {
  const char* name;
  std::function<void(Json&)> spoil;
  const char* message;
};

class MalformedTimeline : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedTimeline, IsRefusedNamingTheField) {
  Json doc = one_block_doc();
  GetParam().spoil(doc);
  EXPECT_EQ(read_error(doc.dump()), GetParam().message);
  // The same inside a session, under its place there.
  Json session = Json::parse(session_to_json(testing::make_full_session()));
  session["timelines"] = Json::array({one_block_doc(), doc});
  const std::string in_session = testing::session_error(session.dump());
  // A field's path continues the session's; a problem with the whole timeline follows it.
  const std::string message = GetParam().message;
  const bool whole = message.rfind("block slot", 0) == 0;
  EXPECT_EQ(in_session, (whole ? "timelines[1]: " : "timelines[1].") + message);
}

Json& mark(Json& doc, int m) {
  return doc["blocks"][0]["warps"][1]["marks"][m];
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedTimeline,
    ::testing::Values(
        MalformedCase{"MarkNotAnArray", [](Json& d) { mark(d, 2) = 7; },
                      "blocks[0].warps[1].marks[2]: expected a mark: [kind, phase, index, clock, "
                      "ns]"},
        MalformedCase{"MarkTooShort", [](Json& d) { mark(d, 2).erase(4); },
                      "blocks[0].warps[1].marks[2]: expected a mark: [kind, phase, index, clock, "
                      "ns]"},
        MalformedCase{"UnknownKind", [](Json& d) { mark(d, 2)[0] = "X"; },
                      "blocks[0].warps[1].marks[2][0]: unknown mark kind 'X' (expected S, P, A, "
                      "R or E)"},
        MalformedCase{"KindAsNumber", [](Json& d) { mark(d, 2)[0] = 2; },
                      "blocks[0].warps[1].marks[2][0]: expected a string"},
        MalformedCase{"PhasePastTheTable", [](Json& d) { mark(d, 1)[1] = 9; },
                      "blocks[0].warps[1].marks[1][1]: phase 9 is not -1 (none) or one of the 2 "
                      "names in phases"},
        MalformedCase{"IndexOutOfRange", [](Json& d) { mark(d, 2)[2] = std::uint64_t(1) << 40; },
                      "blocks[0].warps[1].marks[2][2]: integer out of range"},
        MalformedCase{"NegativeClock", [](Json& d) { mark(d, 2)[3] = -5; },
                      "blocks[0].warps[1].marks[2][3]: expected a non-negative integer"},
        MalformedCase{"FractionalNs", [](Json& d) { mark(d, 2)[4] = 1.5; },
                      "blocks[0].warps[1].marks[2][4]: expected an integer"},
        MalformedCase{"ReleaseWithoutArrive",
                      [](Json& d) {
                        auto& m = d["blocks"][0]["warps"][1]["marks"];
                        m.erase(m.begin() + 2);
                      },
                      "block slot 0 (block 7), warp 1: Release from barrier 0 at mark 2 without "
                      "an Arrive before it"},
        MalformedCase{"EmptyPhaseName", [](Json& d) { d["phases"][1] = ""; },
                      "phases[1]: an empty phase name"},
        MalformedCase{"MissingGrid", [](Json& d) { d.erase("grid"); }, "grid: missing"},
        MalformedCase{"UnknownWorkspace", [](Json& d) { d["workspace"] = "l1"; },
                      "workspace: unknown workspace 'l1' (expected global, shared or registers)"},
        MalformedCase{"TruncatedNotBool",
                      [](Json& d) { d["blocks"][0]["warps"][0]["truncated"] = 1; },
                      "blocks[0].warps[0].truncated: expected true or false"},
        MalformedCase{"BlockPastTheGrid", [](Json& d) { d["grid"] = 3; },
                      "block slot 0 (block 7): block 7 is past the grid of 3 blocks"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TimelineJson, NotATimeline) {
  EXPECT_EQ(read_error("[1, 2]"), "not a measured timeline: expected a JSON object");
  EXPECT_NE(read_error("{").find("not JSON"), std::string::npos);
}

}  // namespace
}  // namespace rl
