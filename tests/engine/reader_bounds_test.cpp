// Every reader bounded in every dimension and linear in its input: keys per object, items per
// array, a key given twice, the sizes a spec's ranges give, and the points a spec expands to
// (counted before any is built, raised on purpose with max_points). A session is read one
// result at a time (json_bounded.h's streamed array) and comes out as the whole document did.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "engine/io/session_file.h"
#include "engine/process/stream.h"
#include "export_fixtures.h"
#include "io/json_bounded.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;
using testing::session_error;
using testing::spec_error;

std::string parse_error(const std::string& text) {
  try {
    parse_json_bounded(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string object_of(std::size_t keys) {
  std::string s = "{";
  for (std::size_t i = 0; i < keys; ++i) s += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return s + "}";
}

std::string array_of(std::size_t items) {
  std::string s = "[";
  for (std::size_t i = 0; i < items; ++i) s += i ? ",1" : "1";
  return s + "]";
}

TEST(ReaderBounds, KeysPerObjectAreBoundedAndTheLimitIsNamed) {
  EXPECT_EQ(parse_error("{\"a\":" + object_of(kMaxJsonKeys) + "}"), "");
  const std::string e = parse_error("{\"a\":[" + object_of(kMaxJsonKeys + 1) + "]}");
  EXPECT_EQ(e, "a[0]: more than 4096 keys in one object") << e;
}

TEST(ReaderBounds, TheIssuesWidthReproducerIsRefusedAsASpec) {
  // {"variants":["interleaved"],"zz":{400,000 keys}}: minutes when each key was looked up.
  const std::string text = "{\"variants\":[\"interleaved\"],\"zz\":" + object_of(400000) + "}";
  const std::string e = spec_error(text);
  EXPECT_EQ(e, "zz: more than 4096 keys in one object") << e;
}

TEST(ReaderBounds, AKeyGivenTwiceIsRefusedWithItsPlace) {
  EXPECT_EQ(spec_error("{\"sizes\":[1024],\"sizes\":[2048]}"), "sizes: the key appears twice");
  EXPECT_EQ(parse_error("{\"a\":{\"b\":1,\"c\":2,\"b\":3}}"), "a.b: the key appears twice");
}

TEST(ReaderBounds, KeysKeepTheirOrderAndValues) {
  const Json j = parse_json_bounded("{\"z\":1,\"a\":{\"y\":[1,2],\"b\":null},\"m\":\"x\"}");
  EXPECT_EQ(j.dump(), "{\"z\":1,\"a\":{\"y\":[1,2],\"b\":null},\"m\":\"x\"}");
}

TEST(ReaderBounds, ItemsPerArrayAreBounded) {
  EXPECT_EQ(parse_error("{\"a\":" + array_of(kMaxJsonItems) + "}"), "");
  EXPECT_EQ(parse_error("{\"a\":[0," + array_of(kMaxJsonItems + 1) + "]}"),
            "a[1]: more than 1048576 items in one array");
}

TEST(ReaderBounds, SizesFromRangesAreBoundedInTotal) {
  // 30,000 ranges of 41 sizes each: far past what an array of items may hold.
  Json spec{{"variants", {"interleaved"}}, {"sizes", Json::array()}};
  for (int i = 0; i < 30000; ++i) spec["sizes"].push_back("2^0..2^40");
  EXPECT_EQ(spec_error(spec.dump()), "sizes: more than 1048576 sizes");
}

TEST(ReaderBounds, AStreamedArrayGoesToTheSinkInOrderAndIsDropped) {
  std::vector<std::string> seen;
  const Json doc = parse_json_bounded(
      "{\"a\":1,\"results\":[{\"x\":[1]},2,[3]],\"b\":{\"results\":[4]}}", "results",
      [&](const Json& e, std::size_t i, const Json& root) {
        seen.push_back(std::to_string(i) + "=" + e.dump() + " a=" + root["a"].dump());
      });
  EXPECT_EQ(seen, (std::vector<std::string>{"0={\"x\":[1]} a=1", "1=2 a=1", "2=[3] a=1"}));
  EXPECT_EQ(doc.dump(), "{\"a\":1,\"results\":[],\"b\":{\"results\":[4]}}");
}

TEST(ReaderBounds, ASessionReadOneResultAtATimeIsTheSessionWritten) {
  const Session s = testing::make_full_session();
  const std::string text = session_to_json(s);
  EXPECT_EQ(session_to_json(session_from_json(text)), text);
  // An error in a later result names it; the header is checked before any result.
  Json j = Json::parse(text);
  j["results"][2]["block_size"] = "x";
  EXPECT_EQ(session_error(j.dump()), "results[2].block_size: expected an integer");
  j = Json::parse(text);
  j["schema_version"] = 99;
  j["results"][0]["block_size"] = "x";
  EXPECT_EQ(session_error(j.dump()), "schema_version 99 is newer than this build reads (1)");
}

std::string file_error(const std::string& path) {
  try {
    session_from_json_file(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ReaderBounds, ASessionReadFromItsFileBlockByBlockIsTheSessionWritten) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "rl_reader_bounds";
  std::filesystem::create_directories(dir);
  const std::string text = session_to_json(testing::make_full_session());
  const auto write = [&](const std::string& name, const std::string& body) {
    std::ofstream(dir / name, std::ios::binary) << body;
    return (dir / name).string();
  };
  // Larger than one block (64 KiB), so results straddle block boundaries.
  Session many = testing::make_full_session();
  for (int i = 0; i < 200; ++i) {
    PointResult r = many.results[2];
    r.point.size = std::uint64_t(i) + 2;
    many.results.push_back(r);
  }
  const std::string big = session_to_json(many);
  ASSERT_GT(big.size(), std::size_t(1) << 16);
  EXPECT_EQ(session_to_json(session_from_json_file(write("big.json", big))), big);
  EXPECT_EQ(session_to_json(session_from_json_file(write("one.json", text))), text);
  // The file's own errors read as read_text_file's, the text's as session_from_json's.
  EXPECT_EQ(file_error((dir / "absent.json").string()), "cannot read: No such file or directory");
  EXPECT_EQ(file_error(dir.string()), "is a directory, expected a file");
  EXPECT_EQ(file_error(write("empty.json", " \n")), "not JSON: the file is empty");
  EXPECT_EQ(file_error(write("nul.json", std::string("{\"a\"\0", 5))),
            "a NUL byte at offset 4: not a text file");
  std::string wrong = text;
  wrong.replace(wrong.find("\"grid\": 2048"), 12, "\"grid\": -1");
  EXPECT_EQ(file_error(write("wrong.json", wrong)), session_error(wrong));
  std::filesystem::remove_all(dir);
}

// Points: counted exactly, refused past the bound before any is built.
ExperimentSpec spec_of(std::vector<std::string> variants, std::size_t sizes) {
  ExperimentSpec s;
  s.variants = std::move(variants);
  s.sizes.clear();
  for (std::size_t i = 1; i <= sizes; ++i) s.sizes.push_back(i * 1024);
  return s;
}

TEST(PointBound, CountPointsIsTheNumberExpandMakes) {
  std::vector<ExperimentSpec> specs;
  specs.push_back(spec_of({"all"}, 3));
  specs.back().workspaces = {Workspace::Global, Workspace::Shared};
  specs.back().block_sizes = {64, 256, 1024, 256};
  specs.back().types = {DType::Int32, DType::Float32, DType::Int32};
  specs.push_back(spec_of({"unroll", "reduceUnroll8", "reduceUnroll4", "cub_device_reduce"}, 2));
  specs.back().unroll_factors = {2, 4, 8, 3};
  specs.push_back(spec_of({"interleaved", "interleaved"}, 5));
  specs.back().sizes.push_back(1024);  // a size given twice
  for (const ExperimentSpec& s : specs)
    EXPECT_EQ(count_points(s), expand(s).size()) << spec_to_json(s);
}

TEST(PointBound, TheIssuesExpansionReproducerIsRefusedBeforeAnyPoint) {
  // Every variant, both workspaces, five block sizes, two types, 200,000 sizes: 7.2 GB once.
  ExperimentSpec s = spec_of({"all"}, 200000);
  s.workspaces = {Workspace::Global, Workspace::Shared};
  s.block_sizes = {64, 128, 256, 512, 1024};
  s.types = {DType::Int32, DType::Float32};
  const auto said = [](std::uint64_t n) {
    return "points: the spec expands to " + std::to_string(n) +
           " points; at most 100000 (max_points in a spec file, --max-points on the command "
           "line)";
  };
  // validate() counts what runs on the host backend ("all" resolved for it), expand() what
  // it would build.
  const std::uint64_t on_host = count_points(resolve_all(s, nullptr, nullptr));
  EXPECT_GT(on_host, kDefaultMaxPoints);
  const std::vector<std::string> errors = validate(s, nullptr);
  EXPECT_NE(std::find(errors.begin(), errors.end(), said(on_host)), errors.end())
      << ::testing::PrintToString(errors);
  try {
    expand(s);
    ADD_FAILURE() << "expanded";
  } catch (const Error& e) {
    EXPECT_EQ(e.what(), said(count_points(s)));
  }
}

TEST(PointBound, MaxPointsRaisesTheBoundOnPurposeAndRoundTrips) {
  ExperimentSpec s = spec_of({"interleaved"}, 100);
  s.max_points = 99;
  EXPECT_THROW(expand(s), Error);
  s.max_points = 100;
  EXPECT_EQ(expand(s).size(), 100u);
  const std::string text = spec_to_json(s);
  EXPECT_NE(text.find("\"max_points\": 100"), std::string::npos);
  EXPECT_EQ(spec_from_json(text).max_points, 100u);
  // The usual bound is not written: files read as before.
  EXPECT_EQ(spec_to_json(spec_of({"interleaved"}, 1)).find("max_points"), std::string::npos);
  EXPECT_EQ(spec_error("{\"max_points\": 0}"), "max_points: 0: a run has at least one point");
  EXPECT_EQ(spec_error("{\"max_points\": -5}"), "max_points: expected a non-negative integer");
}

TEST(PointBound, ASessionWhoseSpecExpandsPastItsBoundIsRefused) {
  // A checkpoint whose spec holds a million sizes once started a 14-million-point run.
  Session s = testing::make_full_session();
  s.spec = spec_of({"interleaved"}, 200000);
  EXPECT_EQ(session_error(session_to_json(s)),
            "spec: expands to 200000 points; at most 100000 (the spec's max_points)");
}

TEST(PointBound, AStreamWhoseSpecExpandsPastItsBoundIsRefused) {
  Json start{{"schema_version", "1.0"}, {"event", "start"}};
  const Session s = testing::make_full_session();
  start["tool"] = {{"version", "0.1.0"}, {"git_commit", "x"}};
  start["created_utc"] = "2025-01-02T03:04:05Z";
  start["device"] = Json::parse(session_to_json(s))["device"];
  start["spec"] = Json::parse(spec_to_json(spec_of({"interleaved"}, 200000)));
  start["points"] = 200000;
  StreamReader reader;
  try {
    reader.feed(start.dump());
    ADD_FAILURE() << "read";
  } catch (const StreamError& e) {
    EXPECT_NE(std::string(e.what()).find("points: the spec expands to 200000 points"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rl
