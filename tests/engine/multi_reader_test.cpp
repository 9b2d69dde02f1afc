// A multi-GPU session read as a one-GPU one is: what the file says it is first, from its first
// bytes (json_bounded.h's head), then its points one at a time as they stream in, from text or
// straight from the file; the same session and the same errors either way.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/io/session_file.h"
#include "export_fixtures.h"
#include "io/json_bounded.h"
#include "multi_fixtures.h"
#include "temp_dir.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;

template <typename Read>
std::string error_of(Read read) {
  try {
    read();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(JsonHead, IsTheLeadingScalarMembersAndNothingAfter) {
  EXPECT_EQ(parse_json_head("{\"schema_version\":1,\"kind\":\"multi_gpu\",\"tool\":{\"a\":1},"
                            "\"later\":2}")
                .dump(),
            "{\"schema_version\":1,\"kind\":\"multi_gpu\"}");
  // The rest is never read: what follows the head may be anything, even cut off.
  EXPECT_EQ(parse_json_head("{\"a\":null,\"b\":[1,2").dump(), "{\"a\":null}");
  EXPECT_EQ(parse_json_head("{\"points\":[{\"x\":1}]}").dump(), "{}");
  EXPECT_EQ(parse_json_head("{\"a\":true}").dump(), "{\"a\":true}");
  // Not an object: nothing of it.
  EXPECT_TRUE(parse_json_head("[{\"kind\":\"multi_gpu\"}]").is_null());
  // What it does read is bounded and checked as every parse is.
  EXPECT_EQ(error_of([] { parse_json_head("{\"a\":1,\"a\":2}"); }), "a: the key appears twice");
  EXPECT_EQ(error_of([] { parse_json_head("{\"a\":1e999}"); }),
            "a: the number 1e999 is out of range (a double holds up to 1.8e308)");
  EXPECT_EQ(error_of([] { parse_json_head("  "); }), "not JSON: the file is empty");
}

TEST(MultiReader, AStreamedSessionIsTheSessionWrittenFromTextAndFromItsFile) {
  testing::TempDir dir("rl-multi-read");
  MultiSession s = testing::make_multi_session();
  // Larger than one block of the file reader (64 KiB): points straddle the blocks.
  const std::vector<MultiPoint> base = s.points;
  for (std::uint64_t k = 1; s.points.size() < 400; ++k)
    for (MultiPoint p : base) {
      p.point.size += k;
      s.points.push_back(p);
    }
  const std::string text = multi_session_to_json(s);
  ASSERT_GT(text.size(), std::size_t(1) << 16);
  EXPECT_EQ(multi_session_to_json(multi_session_from_json(text)), text);
  testing::spit(dir.file("multi.json"), text);
  EXPECT_EQ(multi_session_to_json(multi_session_from_json_file(dir.file("multi.json"))), text);
  EXPECT_TRUE(is_multi_session_file(dir.file("multi.json")));
}

TEST(MultiReader, ErrorsNameTheFieldAlikeFromTextAndFromTheFile) {
  testing::TempDir dir("rl-multi-read");
  const std::string text = multi_session_to_json(testing::make_multi_session(), -1);
  const auto both = [&](const std::string& body) {
    testing::spit(dir.file("bad.json"), body);
    const std::string from_text = error_of([&] { multi_session_from_json(body); });
    const std::string from_file =
        error_of([&] { multi_session_from_json_file(dir.file("bad.json")); });
    EXPECT_EQ(from_text, from_file);
    return from_text;
  };
  Json j = Json::parse(text);
  j["points"][3]["gpu_count"] = "one";
  EXPECT_EQ(both(j.dump()), "points[3].gpu_count: expected an integer");
  // The version is checked from the head, before any point (whose fields may differ in it).
  j["schema_version"] = 9;
  EXPECT_EQ(both(j.dump()), "schema_version 9 is newer than this build reads (1)");
  j = Json::parse(text);
  j.erase("nccl");
  EXPECT_EQ(both(j.dump()), "nccl: missing");
  j = Json::parse(text);
  j.erase("points");
  EXPECT_EQ(both(j.dump()), "points: missing");
  j = Json::parse(text);
  j["points"] = Json::object();
  EXPECT_EQ(both(j.dump()), "points: expected an array");
  EXPECT_EQ(both(text.substr(0, text.size() / 2)).rfind("not JSON: ", 0), 0u);
  EXPECT_EQ(error_of([&] { multi_session_from_json_file(dir.file("absent.json")); }),
            "cannot read: No such file or directory");
}

TEST(MultiReader, AOneGpuSessionIsRefusedFromItsHeadBeforeItsResults) {
  testing::TempDir dir("rl-multi-read");
  const std::string one = session_to_json(testing::make_full_session());
  // Its results are never read: cut off after the head, it is refused the same way.
  const std::string cut = one.substr(0, one.find("\"results\"") + 20);
  for (const std::string& body : {one, cut}) {
    testing::spit(dir.file("one.json"), body);
    const std::string why = error_of([&] { multi_session_from_json_file(dir.file("one.json")); });
    EXPECT_EQ(why.rfind("kind: missing", 0), 0u) << why;
    EXPECT_NE(why.find("a one-GPU session has no kind"), std::string::npos) << why;
    EXPECT_FALSE(is_multi_session_file(dir.file("one.json")));
  }
  Json j = Json::parse(multi_session_to_json(testing::make_multi_session()));
  j["kind"] = "single";
  EXPECT_EQ(error_of([&] { multi_session_from_json(j.dump()); }),
            "kind: not a multi-GPU session (expected \"multi_gpu\")");
}

TEST(MultiReader, TheKindIsToldFromTheFirstBytesAlone) {
  testing::TempDir dir("rl-multi-read");
  // A head that says multi_gpu, then nothing a reader would accept: the kind is still told.
  testing::spit(dir.file("head.json"), "{\"schema_version\":1,\"kind\":\"multi_gpu\",\"tool\":[!!");
  EXPECT_TRUE(is_multi_session_file(dir.file("head.json")));
  EXPECT_TRUE(is_multi_session_json("{\"schema_version\":1,\"kind\":\"multi_gpu\",\"x\":[!!"));
  EXPECT_NE(error_of([&] { multi_session_from_json_file(dir.file("head.json")); }).find("not JSON"),
            std::string::npos);
  EXPECT_FALSE(is_multi_session_file(dir.file("absent.json")));
  EXPECT_FALSE(is_multi_session_file(dir.path().string()));
  testing::spit(dir.file("empty.json"), "");
  EXPECT_FALSE(is_multi_session_file(dir.file("empty.json")));
}

}  // namespace
}  // namespace rl
