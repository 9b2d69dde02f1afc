// Lab sheets (engine/report/lab_sheet.h), reading: the shipped sheets parse, and every mistake
// in a sheet is refused naming its field. Judging is lab_sheet_judge_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/core/error.h"
#include "engine/report/lab_sheet.h"

namespace {

std::string labs_dir() {
  return std::string(RL_RESOURCES_DIR) + "/labs";
}

// The error parse_lab_sheet throws, or "" when the sheet parses.
std::string error_of(const std::string& json) {
  try {
    rl::parse_lab_sheet(json);
  } catch (const rl::Error& e) {
    return e.what();
  }
  return {};
}

// A valid sheet with `goals` (the JSON list's items) and `extra` fields added at the top.
std::string sheet(const std::string& goals, const std::string& extra = {}) {
  return R"({"title": "t", "task": "do it", "start": "neighbored", )" + extra + R"("goals": [)" +
         goals + "]}";
}

}  // namespace

TEST(LabSheet, ShippedSheetsParse) {
  ASSERT_TRUE(std::filesystem::is_directory(labs_dir())) << labs_dir();
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(labs_dir())) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const rl::LabSheet s = rl::read_lab_sheet_file(entry.path().string());
    names.insert(entry.path().filename().string());
    EXPECT_FALSE(s.goals.empty());
    EXPECT_EQ(s.goals.front().kind, rl::LabGoalKind::Correct);
    EXPECT_GE(s.hints.size(), 2u);
    EXPECT_LE(s.hints.size(), 3u);
    EXPECT_FALSE(s.starter.empty());
    EXPECT_FALSE(s.rung.empty());
  }
  EXPECT_EQ(names, (std::set<std::string>{"last-warp.json", "remove-divergence.json",
                                          "unroll-by-two.json", "warp-shuffle.json"}));
}

TEST(LabSheet, ShippedSheetsSayWhatTheyCompare) {
  const rl::LabSheet divergence = rl::read_lab_sheet_file(labs_dir() + "/remove-divergence.json");
  EXPECT_EQ(divergence.start, "neighbored");
  EXPECT_EQ(divergence.starter, "neighbored.cu");
  ASSERT_EQ(divergence.goals.size(), 3u);
  EXPECT_EQ(divergence.goals[1].against, "neighbored");
  EXPECT_EQ(divergence.goals[1].where.size, std::uint64_t(1) << 24);
  EXPECT_EQ(divergence.goals[1].where.type, rl::DType::Int32);
  EXPECT_EQ(divergence.goals[2].counter, "threads_per_inst");
  const rl::LabSheet warp = rl::read_lab_sheet_file(labs_dir() + "/last-warp.json");
  EXPECT_EQ(warp.start, "unroll");  // reduceUnroll8: the classic name gives the factor
  EXPECT_EQ(warp.start_unroll, 8);
  EXPECT_EQ(warp.goals[1].against, "unroll");
  EXPECT_EQ(warp.goals[1].against_unroll, 8);
  EXPECT_EQ(rl::describe_goal(warp.goals[1]),
            "at least 0.97x reduceUnroll8 at N=2^24 int32 U=8, whole reduction");
}

TEST(LabSheet, ReadsEveryField) {
  const rl::LabSheet s = rl::parse_lab_sheet(R"({
    "version": 1, "title": "T", "task": "change it", "start": "reduceUnroll4",
    "starter": "unroll.cu", "rung": "mine",
    "goals": [
      {"kind": "correct", "size": 1024},
      {"kind": "speedup", "against": "warp_shuffle", "against_unroll": 4, "at_least": 0.9,
       "type": "float32", "block_size": 256, "unroll": 4},
      {"kind": "counter", "counter": "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
       "at_most": 30, "at_least": 1}],
    "hints": ["one", "two"]})");
  EXPECT_EQ(s.start, "unroll");
  EXPECT_EQ(s.start_unroll, 4);
  EXPECT_EQ(s.goals[0].where.size, 1024u);
  EXPECT_EQ(s.goals[1].against, "warp_shuffle");
  EXPECT_EQ(s.goals[1].against_unroll, 4);
  EXPECT_EQ(s.goals[1].where.block_size, 256);
  EXPECT_EQ(s.goals[1].where.text(), "float32 B=256 U=4");
  EXPECT_EQ(s.goals[2].counter, "barrier_stall");  // the metric name gives the id
  EXPECT_EQ(*s.goals[2].at_most, 30.0);
  EXPECT_EQ(s.hints, (std::vector<std::string>{"one", "two"}));
}

TEST(LabSheet, FileErrorsNameThePath) {
  try {
    rl::read_lab_sheet_file("/nonexistent/sheet.json");
    FAIL() << "read a missing file";
  } catch (const rl::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/sheet.json: cannot read"), std::string::npos)
        << e.what();
  }
  const std::string big =
      sheet(R"({"kind": "correct"})", R"("rung": ")" + std::string(70000, 'a') + R"(", )");
  EXPECT_NE(error_of(big).find("a lab sheet is at most 65536"), std::string::npos);
}

struct BadSheet {
  std::string json;
  std::string message;  // a substring of the refusal
};

class LabSheetRefusal : public testing::TestWithParam<BadSheet> {};

TEST_P(LabSheetRefusal, NamesTheField) {
  const std::string e = error_of(GetParam().json);
  ASSERT_FALSE(e.empty()) << "accepted: " << GetParam().json;
  EXPECT_NE(e.find(GetParam().message), std::string::npos) << e;
}

const std::string kCorrect = R"({"kind": "correct"})";

INSTANTIATE_TEST_SUITE_P(
    LabSheet, LabSheetRefusal,
    testing::Values(
        BadSheet{"not json", "not JSON"}, BadSheet{"[]", "expected an object, got a list"},
        BadSheet{R"({"task": "x", "start": "neighbored", "goals": []})", "title: missing"},
        BadSheet{sheet(kCorrect, R"("tilte": "x", )"), "tilte: unknown field (a lab sheet's"},
        BadSheet{sheet(kCorrect, R"("version": 2, )"), "version: 2: this build reads"},
        BadSheet{R"({"title": "t", "start": "neighbored", "goals": [{"kind": "correct"}]})",
                 "task: missing"},
        BadSheet{R"({"title": " ", "task": "x", "start": "neighbored", "goals": []})",
                 "title: empty"},
        BadSheet{R"({"title": "t", "task": "x", "goals": [{"kind": "correct"}]})",
                 "start: missing"},
        BadSheet{R"({"title": "t", "task": "x", "start": "neighbord", "goals": []})",
                 "start: no variant 'neighbord' (did you mean neighbored?)"},
        BadSheet{R"({"title": "t", "task": "x", "start": "reduceNeighbord", "goals": []})",
                 "(did you mean reduceNeighbored?)"},
        BadSheet{R"({"title": "t", "task": "x", "start": "zzzzzzzz", "goals": []})",
                 "start: no variant 'zzzzzzzz' (reductionlab-cli variants lists them)"},
        BadSheet{R"({"title": "t", "task": "x", "start": "branch_divergent", "goals": []})",
                 "start: branch_divergent is a lab kernel"},
        BadSheet{R"({"title": "t", "task": "x", "start": 3, "goals": []})",
                 "start: expected a string, got a number"},
        BadSheet{sheet(kCorrect, R"("starter": "../x.cu", )"), "starter: '../x.cu' (a file name"},
        BadSheet{sheet(kCorrect, R"("starter": "x.txt", )"), "starter: 'x.txt'"},
        BadSheet{sheet(kCorrect, R"("rung": "3x", )"), "rung: '3x' (a kernel name is a C"},
        BadSheet{sheet(kCorrect, R"("rung": "reduceInterleaved", )"),
                 "rung: 'reduceInterleaved' is a built-in variant's name"},
        BadSheet{R"({"title": "t", "task": "x", "start": "neighbored"})", "goals: missing"},
        BadSheet{sheet(""), "goals: empty: a lab sheet needs at least one goal"},
        BadSheet{R"({"title": "t", "task": "x", "start": "neighbored", "goals": {}})",
                 "goals: expected a list, got an object"},
        BadSheet{sheet("1"), "goals[0]: expected an object, got a number"},
        BadSheet{sheet("{}"), "goals[0].kind: missing"},
        BadSheet{sheet(R"({"kind": "fast"})"),
                 "goals[0].kind: unknown kind 'fast' (one of: correct, speedup, counter)"},
        BadSheet{sheet(R"({"kind": "barriers", "at_most": 5})"),
                 "goals[0].kind: 'barriers' cannot be judged"},
        BadSheet{sheet(R"({"kind": "correct", "at_least": 2})"),
                 "goals[0].at_least: unknown field (a correct goal's fields"},
        BadSheet{sheet(kCorrect + R"(, {"kind": "speedup", "against": "neighbored"})"),
                 "goals[1].at_least: missing"},
        BadSheet{sheet(kCorrect + R"(, {"kind": "speedup", "against": "neighbored",
                                        "at_least": 0})"),
                 "goals[1].at_least: must be a number greater than 0"},
        BadSheet{sheet(kCorrect + R"(, {"kind": "speedup", "against": "neighbored",
                                        "at_least": -1.5})"),
                 "goals[1].at_least: must be a number greater than 0"},
        BadSheet{sheet(kCorrect + R"(, {"kind": "speedup", "against": "neighbored",
                                        "at_least": "2"})"),
                 "goals[1].at_least: expected a number, got a string"},
        BadSheet{sheet(R"({"kind": "speedup", "at_least": 2})"), "goals[0].against: missing"},
        BadSheet{sheet(R"({"kind": "speedup", "against": "interleavd", "at_least": 2})"),
                 "goals[0].against: no variant 'interleavd' (did you mean interleaved?)"},
        BadSheet{sheet(R"({"kind": "speedup", "against": "reduceUnroll8", "against_unroll": 4,
                           "at_least": 2})"),
                 "goals[0].against_unroll: 4 contradicts 'reduceUnroll8'"},
        BadSheet{sheet(R"({"kind": "speedup", "against": "interleaved", "against_unroll": 8,
                           "at_least": 2})"),
                 "goals[0].against_unroll: interleaved does not take unroll 8"},
        BadSheet{sheet(R"({"kind": "speedup", "against": "neighbored", "at_least": 2,
                           "size": "2^x"})"),
                 "goals[0].size:"},
        BadSheet{sheet(R"({"kind": "correct", "size": -4})"), "goals[0].size: expected a size"},
        BadSheet{sheet(R"({"kind": "correct", "type": "int64"})"),
                 "goals[0].type: 'int64' (expected int32 or float32)"},
        BadSheet{sheet(R"({"kind": "correct", "block_size": 100})"),
                 "goals[0].block_size: expected a power of two from 32 to 1024, got 100"},
        BadSheet{sheet(R"({"kind": "correct", "unroll": "2"})"),
                 "goals[0].unroll: expected a power of two from 1 to 64, got a string"},
        BadSheet{sheet(R"({"kind": "counter", "counter": "uniformity", "at_least": 9})"),
                 "goals[0].counter: unknown counter 'uniformity' (one of: barrier_stall"},
        BadSheet{sheet(R"({"kind": "counter", "counter": "branch_uniformity"})"),
                 "goals[0].at_least: missing: a counter goal needs at_least, at_most or both"},
        BadSheet{sheet(R"({"kind": "counter", "counter": "branch_uniformity", "at_least": 120})"),
                 "goals[0].at_least: must be a percentage from 0 to 100"},
        BadSheet{sheet(R"({"kind": "counter", "counter": "inst_executed", "at_most": -1})"),
                 "goals[0].at_most: must be a number of at least 0"},
        BadSheet{sheet(R"({"kind": "counter", "counter": "barrier_stall", "at_least": 50,
                           "at_most": 40})"),
                 "goals[0].at_most: less than at_least"},
        BadSheet{sheet(R"({"kind": "counter", "counter": "barrier_stall", "against": "x"})"),
                 "goals[0].against: unknown field (a counter goal's fields"},
        BadSheet{sheet(kCorrect, R"("hints": "one", )"), "hints: expected a list of strings"},
        BadSheet{sheet(kCorrect, R"("hints": ["a", 2], )"),
                 "hints[1]: expected a string, got a number"},
        BadSheet{sheet(kCorrect, R"("hints": ["a", ""], )"), "hints[1]: empty"},
        BadSheet{sheet(kCorrect, R"("hints": ["1","2","3","4","5","6","7","8","9"], )"),
                 "hints: 9 hints; at most 8"}));
