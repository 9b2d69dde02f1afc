// The rows story ("Short rows, long rows"): a matrix step names its shape, every step is a point
// of the rows-and-columns preset, and every step finds its time and counter in the recorded rows
// session.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "engine/experiment/presets.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "engine/views/story.h"
#include "story_fixtures.h"

using namespace rl::test;

namespace {

// The rows story's session: the rows-and-columns preset with counters, recorded on an H100
// (resources/sessions/README.md says how).
const char* const kRowsSession = "sessions/h100-rows.json";

bool have_rows_session() {
  return std::filesystem::exists(std::string(RL_RESOURCES_DIR) + "/" + kRowsSession);
}

}  // namespace

TEST(Story, TheRowsStoryPointsAtPointsOfTheRowsAndColumnsPreset) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  const rl::Story story = rl::parse_story(resource("stories/rows.json"), "rows.json");
  const rl::Preset* preset = rl::find_preset("rows-and-columns");
  ASSERT_NE(preset, nullptr);
  const std::vector<rl::PointSpec> sweep = rl::expand(preset->spec);
  for (const rl::StoryStep& s : story.steps) {
    SCOPED_TRACE(s.title);
    EXPECT_TRUE(s.point.is_matrix());
    EXPECT_EQ(s.point.size, s.point.rows * s.point.cols);
    EXPECT_NE(std::find(sweep.begin(), sweep.end(), s.point), sweep.end())
        << s.point.label() << " is not a point of the rows-and-columns preset";
    // "Run this step now" measures that matrix alone.
    const rl::ExperimentSpec one = rl::story_step_spec(s, {});
    EXPECT_TRUE(rl::validate(one, nullptr).empty()) << s.point.label();
    ASSERT_EQ(rl::expand(one).size(), 1u);
    EXPECT_EQ(rl::expand(one).front(), s.point);
  }
}

TEST(Story, TheRowsStoryResolvesAgainstTheRecordedRowsSession) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  if (!have_rows_session())
    GTEST_SKIP() << kRowsSession
                 << " is not recorded yet (reductionlab-cli run --preset rows-and-columns "
                    "--device cuda:0 --counters; resources/sessions/README.md)";
  const rl::Session session = rl::session_from_json(resource(kRowsSession));
  const rl::Story story = rl::parse_story(resource("stories/rows.json"), "rows.json");
  const rl::ResolvedStory r = rl::resolve_story(story, session);
  ASSERT_EQ(r.steps.size(), story.steps.size());
  for (const rl::ResolvedStep& s : r.steps) {
    SCOPED_TRACE(s.step.title);
    EXPECT_TRUE(s.time_ms) << s.missing;
    EXPECT_TRUE(s.counter.value) << s.counter.text;
  }
}

TEST(Story, AMatrixStepNeedsItsShapeNamingTheField) {
  const auto step = [](const std::string& fields) {
    return error_of(story_with_steps(R"({"caption": "c", )" + fields + "}"));
  };
  EXPECT_NE(step(R"("variant": "row_per_warp")").find("steps[0].shape: missing"), std::string::npos)
      << step(R"("variant": "row_per_warp")");
  EXPECT_NE(step(R"("variant": "warp_shuffle", "shape": "4x4")")
                .find("steps[0].shape: warp_shuffle sums a whole array"),
            std::string::npos);
  EXPECT_NE(step(R"("variant": "row_per_warp", "shape": "4xq")").find("steps[0].shape"),
            std::string::npos);
  EXPECT_NE(step(R"("variant": "row_per_warp", "shape": "4x4", "setting": "N=2^20")")
                .find("steps[0].setting: N"),
            std::string::npos);
  EXPECT_EQ(step(R"("variant": "row_per_warp", "shape": "2^10x1000", "setting": "B=256")"), "");
  const rl::Story s = rl::parse_story(story_with_steps(
      R"({"caption": "c", "variant": "column_tiled", "shape": "64x48", "setting": "B=256"})"));
  EXPECT_EQ(s.steps[0].point.rows, 64u);
  EXPECT_EQ(s.steps[0].point.cols, 48u);
  EXPECT_EQ(s.steps[0].point.size, 64u * 48u);
}
