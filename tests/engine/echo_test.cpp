// Echoed values truncated: an error message that repeats what a person typed or a file held
// stays short however long the value (core/echo.h), in validation, the number grammar and the
// session reader.
#include <gtest/gtest.h>

#include <string>

#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"

namespace rl {
namespace {

const std::string kHuge(60000, 'x');
constexpr std::size_t kShort = 300;  // every message below, with the echo cut

TEST(Echo, ShortValuesAreQuotedWhole) {
  EXPECT_EQ(echo("reduceUnroll8"), "'reduceUnroll8'");
  EXPECT_EQ(echo(std::string(kEchoMax, 'a')), "'" + std::string(kEchoMax, 'a') + "'");
}

TEST(Echo, LongValuesAreCutAndSayTheirLength) {
  const std::string e = echo(kHuge);
  EXPECT_EQ(e, "'" + std::string(kEchoMax, 'x') + "...' (60000 characters)");
}

TEST(Echo, NeverCutsInsideAUtf8Character) {
  std::string v(kEchoMax - 1, 'a');
  v += "\xc3\xa9";  // é straddles the cut
  v += std::string(10, 'b');
  const std::string e = echo(v);
  EXPECT_EQ(e.substr(0, kEchoMax + 4), "'" + std::string(kEchoMax - 1, 'a') + "...'");
}

TEST(Echo, SpecValidationEchoesAShortName) {
  ExperimentSpec s;
  s.variants = {kHuge};
  s.sizes = {1000};
  const auto errors = validate(s, nullptr);
  ASSERT_FALSE(errors.empty());
  for (const auto& e : errors) EXPECT_LT(e.size(), kShort) << e.substr(0, 200);
  EXPECT_NE(errors.front().find("(60000 characters)"), std::string::npos) << errors.front();
}

TEST(Echo, GrammarEchoesAShortValue) {
  std::vector<std::uint64_t> sizes;
  std::string error;
  EXPECT_FALSE(parse_size_list(kHuge, &sizes, &error));
  EXPECT_LT(error.size(), kShort) << error.substr(0, 200);
  std::vector<int> ints;
  EXPECT_FALSE(parse_int_list(kHuge, "block size", &ints, &error));
  EXPECT_LT(error.size(), kShort) << error.substr(0, 200);
}

TEST(Echo, SessionReaderEchoesAShortValue) {
  ExperimentSpec spec;
  spec.variants = {"reduceInterleaved"};
  spec.sizes = {1000};
  Session s;
  s.spec = spec;
  std::string json = session_to_json(s);
  const std::string key = "\"reduceInterleaved\"";
  const auto at = json.find(key);
  ASSERT_NE(at, std::string::npos);
  json.replace(at, key.size(), "\"" + kHuge + "\"");
  try {
    session_from_json(json);
    FAIL() << "a 60,000-character variant was accepted";
  } catch (const Error& e) {
    EXPECT_LT(std::string(e.what()).size(), kShort) << std::string(e.what()).substr(0, 200);
  }
}

}  // namespace
}  // namespace rl
