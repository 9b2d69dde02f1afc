// Inputs the fuzz targets (fuzz/, scripts/fuzz.sh) once failed on, as fast tests; each input
// is also in its target's corpus (fuzz/corpus/TARGET/hostile-*), which ctest replays.
#include <gtest/gtest.h>

#include <string>

#include "engine/io/export.h"
#include "export_fixtures.h"

namespace rl {
namespace {

using testing::session_error;
using testing::spec_error;

// spec_reader_fuzz, crash-e262b57e: a key "\u0000sizes" gave a refusal whose message was empty
// (it began with the key, and what() ends at the NUL), so the CLI said "--spec FILE: " and no
// more. "\u0000" in a key or a string is refused as the raw NUL byte is, with the place named.
TEST(FuzzRegression, EscapedNulInAKeyIsRefusedWithTheKeyNamed) {
  const std::string e =
      spec_error(R"({"variants": ["unroll", "reduceUnroll8"], "unroll_factors": [1, 2, 4, 3], )"
                 R"("\u0000sizes": [64, 128, 256, 512, 1024], "workspaces": ["registers"]})");
  EXPECT_EQ(e, "\\u0000sizes: a NUL character (\\u0000): not text");
  EXPECT_EQ(spec_error(R"({"timing": {"x\u0000": 1}})"),
            "timing.x\\u0000: a NUL character (\\u0000): not text");
}

TEST(FuzzRegression, EscapedNulInAStringIsRefusedWithTheFieldNamed) {
  EXPECT_EQ(spec_error(R"({"variants": ["\u0000interleaved"]})"),
            "variants[0]: a NUL character (\\u0000): not text");
  std::string session = session_to_json(testing::make_full_session());
  const std::string name = "\"name\": \"";
  session.insert(session.find(name, session.find("\"device\"")) + name.size(), "\\u0000");
  EXPECT_EQ(session_error(session), "device.name: a NUL character (\\u0000): not text");
}

}  // namespace
}  // namespace rl
