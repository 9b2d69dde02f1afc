// Stories (engine/views/story.h): every bad input refused naming its field, the shipped stories
// valid and resolved against the bundled H200 session with the session's own numbers, and
// nothing made up where the session has nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "engine/views/story.h"
#include "story_fixtures.h"

using namespace rl::test;

TEST(Story, ParsesDefaultsAndClassicNames) {
  const rl::Story s = rl::parse_story(R"({
    "title": "Ladder", "setting": "N=2^20", "workspace": "shared",
    "steps": [
      {"variant": "reduceNeighbored", "caption": "first"},
      {"variant": "reduceUnroll8", "caption": "eight tiles", "counter": "dram_throughput"},
      {"variant": "warp_shuffle", "caption": "registers", "title": "shuffle"}]})");
  ASSERT_EQ(s.steps.size(), 3u);
  EXPECT_EQ(s.time, rl::TimeBasis::Whole);
  EXPECT_EQ(s.steps[0].point.variant, "neighbored");
  EXPECT_EQ(s.steps[0].point.size, 1u << 20);
  EXPECT_EQ(s.steps[0].point.block_size, 1024);  // the classic ladder's, from the ladder preset
  EXPECT_EQ(s.steps[0].point.workspace, rl::Workspace::Shared);
  EXPECT_EQ(s.steps[0].counter, "barrier_stall");
  EXPECT_EQ(s.steps[0].title, "reduceNeighbored");
  EXPECT_EQ(s.steps[1].point.unroll, 8);
  EXPECT_EQ(s.steps[1].title, "reduceUnroll8");
  // A register-only kernel keeps its own workspace under the story's default.
  EXPECT_EQ(s.steps[2].point.workspace, rl::Workspace::Registers);
  EXPECT_EQ(s.steps[2].title, "shuffle");
}

TEST(Story, RefusesBadInputNamingTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"not json", "not JSON"},
      {"[]", "expected an object, got a list"},
      {R"({"steps": []})", "title: missing"},
      {R"({"title": 3, "steps": []})", "title: expected a string, got a number"},
      {R"({"title": "t", "steps": []})", "steps: empty"},
      {R"({"title": "t"})", "steps: missing"},
      {R"({"title": "t", "steps": {}})", "steps: expected a list"},
      {R"({"title": "t", "tittle": 1, "steps": []})", "tittle: unknown field"},
      {R"({"title": "t", "version": 2, "steps": []})", "version: 2"},
      {R"({"title": "t", "time": "wall", "steps": []})", "time: 'wall'"},
      {R"({"title": "t", "setting": "N=2^24,Q=3", "steps": []})", "setting: unknown part"},
      {R"({"title": "t", "animation_block": 100, "steps": []})", "animation_block: 100"},
      {story_with_steps(R"({"caption": "c"})"), "steps[0].variant: missing"},
      {story_with_steps(R"({"variant": "reduceFoo", "caption": "c"})"),
       "steps[0].variant: unknown variant 'reduceFoo'"},
      {story_with_steps(R"({"variant": "neighbored"})"), "steps[0].caption: missing"},
      {story_with_steps(R"({"variant": "neighbored", "caption": "  "})"),
       "steps[0].caption: empty"},
      {story_with_steps(R"({"variant": "neighbored", "caption": ["c"]})"),
       "steps[0].caption: expected a string, got a list"},
      {story_with_steps(R"({"variant": "neighbored", "caption": "c", "setting": "B=100"})"),
       "steps[0].setting: neighbored does not take block size 100"},
      {story_with_steps(R"({"variant": "neighbored", "caption": "c", "setting": "N=2^24,N=1"})"),
       "steps[0].setting: N given twice"},
      {story_with_steps(R"({"variant": "warp_shuffle", "caption": "c", "workspace": "global"})"),
       "steps[0].workspace: warp_shuffle does not run in 'global' memory"},
      {story_with_steps(R"({"variant": "reduceUnroll8", "caption": "c", "unroll": 4})"),
       "steps[0].unroll: 4 contradicts 'reduceUnroll8'"},
      {story_with_steps(R"({"variant": "unroll", "caption": "c", "unroll": "8"})"),
       "steps[0].unroll: expected a whole number"},
      {story_with_steps(R"({"variant": "neighbored", "caption": "c", "counter": "speed"})"),
       "steps[0].counter: unknown counter 'speed'"},
      {story_with_steps(R"({"variant": "neighbored", "caption": "c", "colour": "red"})"),
       "steps[0].colour: unknown field"},
      {story_with_steps(R"({"variant": "reduceNeighbored", "caption": "a"},
                           {"variant": "neighbored", "caption": "b"})"),
       "steps[1]: the same point as steps[0]"},
      {story_with_steps(R"("neighbored")"), "steps[0]: expected an object, got a string"},
  };
  for (const auto& [json, expected] : cases) {
    const std::string error = error_of(json);
    EXPECT_NE(error.find(expected), std::string::npos)
        << "input: " << json << "\nerror: " << error << "\nexpected: " << expected;
  }
}

TEST(Story, RefusesOversizedFilesAndTooManySteps) {
  const std::string big = story_with_steps(std::string(rl::kMaxStoryBytes, ' '));
  EXPECT_NE(error_of(big).find("a story is at most 65536"), std::string::npos) << error_of(big);
  std::string steps;
  for (int i = 0; i < 65; ++i)
    steps += std::string(i ? "," : "") +
             R"({"variant": "neighbored", "caption": "c", "setting": "N=)" +
             std::to_string(1000 + i) + "\"}";
  EXPECT_NE(error_of(story_with_steps(steps)).find("65 steps; at most 64"), std::string::npos);
  const std::string long_caption(rl::kMaxCaptionChars + 1, 'x');
  EXPECT_NE(
      error_of(story_with_steps(R"({"variant": "neighbored", "caption": ")" + long_caption + "\"}"))
          .find("steps[0].caption: 601 characters"),
      std::string::npos);
  try {
    rl::parse_story("{", "my.json");
    FAIL();
  } catch (const rl::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("my.json: not JSON", 0), 0u) << e.what();
  }
}

TEST(Story, ShippedStoriesResolveAgainstTheBundledSession) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  for (const char* name : {"stories/seed-ladder.json", "stories/modern.json"}) {
    SCOPED_TRACE(name);
    const rl::Story story = rl::parse_story(resource(name), name);
    const rl::ResolvedStory r = rl::resolve_story(story, bundled());
    ASSERT_EQ(r.steps.size(), story.steps.size());
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
      SCOPED_TRACE(r.steps[i].step.title);
      // Every shipped step is measured in the bundled session, with its counter.
      EXPECT_TRUE(r.steps[i].time_ms) << r.steps[i].missing;
      EXPECT_TRUE(r.steps[i].counter.value) << r.steps[i].counter.text;
      EXPECT_TRUE(r.steps[i].cumulative_speedup);
      EXPECT_EQ(i > 0, r.steps[i].step_speedup.has_value());
      EXPECT_FALSE(r.steps[i].code.explanation.empty());
      EXPECT_EQ(r.steps[i].code.note, i == 0 ? "the first step" : "no source in this build");
    }
  }
}

TEST(Story, SpeedUpsAreTheSessionsOwn) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  const rl::Story story = rl::parse_story(resource("stories/seed-ladder.json"));
  const rl::ResolvedStory r = rl::resolve_story(story, bundled());
  // The classic ladder's story starts at reduceNeighbored in global memory, the session's baseline,
  // so each step's cumulative speed-up is the session's stored speed-up of the same point.
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const rl::PointResult* p = nullptr;
    for (const rl::PointResult& q : bundled().results)
      if (q.point == r.steps[i].step.point) p = &q;
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(p->speedup);
    EXPECT_NEAR(*r.steps[i].cumulative_speedup, *p->speedup, 1e-9) << r.steps[i].step.title;
    EXPECT_DOUBLE_EQ(*r.steps[i].time_ms, p->total.median_ms);
    if (i > 0)
      EXPECT_DOUBLE_EQ(*r.steps[i].step_speedup, *r.steps[i - 1].time_ms / *r.steps[i].time_ms);
  }
  // reduceNeighboredLess at 2^24 in global memory: 1.96x (268.4 us over 137.1 us in the bundled
  // H200 session), branch uniformity up from 71.6%.
  EXPECT_NE(rl::story_numbers_line(r, 1).find("×1.96 over the previous step"), std::string::npos)
      << rl::story_numbers_line(r, 1);
  EXPECT_NE(r.steps[1].counter.text.find("branch uniformity 99.3% (previous step 71.6%)"),
            std::string::npos)
      << r.steps[1].counter.text;
}

TEST(Story, SaysWhatIsMissingAndNeverComparesDevices) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  rl::Session session = bundled();
  const rl::Story story = rl::parse_story(R"({"title": "t", "setting": "N=2^24", "steps": [
      {"variant": "reduceNeighbored", "caption": "a"},
      {"variant": "reduceInterleaved", "caption": "b"},
      {"variant": "cg_reduce", "caption": "not in the session"}]})");
  for (rl::PointResult& p : session.results) p.counters.reset();
  rl::ResolvedStory r = rl::resolve_story(story, session);
  EXPECT_FALSE(r.steps[2].time_ms);
  EXPECT_NE(r.steps[2].missing.find("not measured in this session"), std::string::npos);
  EXPECT_FALSE(r.steps[2].step_speedup);
  EXPECT_NE(r.steps[1].counter.text.find("barrier stall: not measured"), std::string::npos)
      << r.steps[1].counter.text;

  // A live point of step 1 on another device: its time, but no speed-up against the H200's.
  rl::LivePoint live;
  live.result.point = story.steps[1].point;
  live.result.total.median_ms = 0.1;
  live.result.total.samples = 5;
  live.device.name = "NVIDIA A100";
  r = rl::resolve_story(story, session, {live});
  EXPECT_TRUE(r.steps[1].live);
  ASSERT_TRUE(r.steps[1].time_ms);
  EXPECT_DOUBLE_EQ(*r.steps[1].time_ms, 0.1);
  EXPECT_FALSE(r.steps[1].step_speedup);
  EXPECT_NE(r.steps[1].speedup_note.find("not compared"), std::string::npos);
  // The same device: compared.
  live.device.name = session.device.name;
  r = rl::resolve_story(story, session, {live});
  ASSERT_TRUE(r.steps[1].step_speedup);
  EXPECT_DOUBLE_EQ(*r.steps[1].step_speedup, *r.steps[0].time_ms / 0.1);
  // A wrong result is never a speed-up.
  live.result.status = rl::PointStatus::Wrong;
  r = rl::resolve_story(story, session, {live});
  EXPECT_FALSE(r.steps[1].time_ms);
  EXPECT_NE(r.steps[1].missing.find("wrong result"), std::string::npos);
}

TEST(Story, ALiveStepWithoutCountersShowsTheSessionsNamedAsSuch) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  const rl::Session session = bundled();
  const rl::Story story = rl::parse_story(R"({"title": "t", "setting": "N=2^24", "steps": [
      {"variant": "reduceNeighbored", "caption": "a"},
      {"variant": "reduceInterleaved", "caption": "b"}]})");
  rl::LivePoint live;
  live.result.point = story.steps[1].point;
  live.result.total.median_ms = 0.1;
  live.result.total.samples = 5;
  live.device = session.device;
  const rl::ResolvedStory r = rl::resolve_story(story, session, {live});
  EXPECT_TRUE(r.steps[1].live);
  ASSERT_TRUE(r.steps[1].counter.value) << r.steps[1].counter.text;
  EXPECT_NE(
      r.steps[1].counter.text.find("[the session's run on NVIDIA H200; the live run took none]"),
      std::string::npos)
      << r.steps[1].counter.text;
}

// A counter whose profiled launches moved more than the catalog's rule says so in the step's
// counter line, with its range; a steady one says nothing of it.
TEST(Story, AnUnsteadyCounterSaysSo) {
  if (!have_resources()) GTEST_SKIP() << "no source tree here";
  rl::Session session = bundled();
  const rl::Story story = rl::parse_story(R"({"title": "t", "setting": "N=2^24", "steps": [
      {"variant": "reduceNeighbored", "caption": "a"},
      {"variant": "reduceInterleaved", "caption": "b", "counter": "barrier_stall"}]})");
  const std::string stall = "smsp__warp_issue_stalled_barrier_per_warp_active.pct";
  for (rl::PointResult& p : session.results) {
    if (!(p.point == story.steps[1].point) || !p.counters) continue;
    for (rl::KernelCounters& k : p.counters->kernels)
      if (k.role == "first_kernel") k.ranges = {{stall, {40.0, 48.0}}};
  }
  std::string text = rl::resolve_story(story, session).steps[1].counter.text;
  EXPECT_NE(text.find("(unsteady: 40.0% to 48.0% over its profiled launches)"), std::string::npos)
      << text;
  for (rl::PointResult& p : session.results)
    if (p.point == story.steps[1].point)
      for (rl::KernelCounters& k : p.counters->kernels) k.ranges = {{stall, {44.0, 44.5}}};
  text = rl::resolve_story(story, session).steps[1].counter.text;
  EXPECT_EQ(text.find("unsteady"), std::string::npos) << text;
}

TEST(Story, CodeChangeFromTheDiffer) {
  const rl::Story story = rl::parse_story(story_with_steps(
      R"({"variant": "reduceUnroll2", "caption": "a"}, {"variant": "reduceUnroll4", "caption": "b"},
         {"variant": "reduceUnrollWarp8", "caption": "c"})"));
  // A stand-in for the Code view's diff: the same source for one template, else a change.
  const rl::SourceDiffer differ = [](const rl::PointSpec& a, const rl::PointSpec& b, std::string*) {
    std::vector<rl::code::DiffLine> d(10);
    for (std::size_t i = 0; i < d.size(); ++i) d[i].text = "line " + std::to_string(i);
    if (a.variant != b.variant) d[7].kind = rl::code::DiffLine::Kind::Added;
    d[1].text = "  // a comment changed";
    d[1].kind = rl::code::DiffLine::Kind::Removed;
    return std::optional(d);
  };
  const rl::ResolvedStory r = rl::resolve_story(story, rl::Session{}, {}, differ);
  EXPECT_EQ(r.steps[1].code.note, "the same source as reduceUnroll2; only U 2 -> 4");
  EXPECT_TRUE(r.steps[1].code.lines.empty());
  ASSERT_EQ(r.steps[2].code.added, 1);
  EXPECT_EQ(r.steps[2].code.from, "reduceUnroll4");
  // A line of context each side, comment lines left out, the rest one "..." line each side.
  ASSERT_EQ(r.steps[2].code.lines.size(), 5u);
  EXPECT_EQ(r.steps[2].code.lines[0].text, "...");
  EXPECT_EQ(r.steps[2].code.lines[1].text, "line 6");
  EXPECT_EQ(r.steps[2].code.lines[2].kind, rl::code::DiffLine::Kind::Added);
  EXPECT_EQ(r.steps[2].code.lines[4].text, "...");
}

TEST(Story, StepSpecMeasuresThatPointAlone) {
  const rl::Story story = rl::parse_story(story_with_steps(
      R"({"variant": "cub_device_reduce", "caption": "a"}, {"variant": "reduceUnroll8", "caption": "b"})"));
  EXPECT_EQ(story.steps[0].point.block_size, 0);  // CUB picks its own
  for (const rl::StoryStep& step : story.steps) {
    const rl::ExperimentSpec spec = rl::story_step_spec(step, {});
    EXPECT_TRUE(rl::validate(spec, nullptr).empty());
    const std::vector<rl::PointSpec> points = rl::expand(spec);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0], step.point);
  }
}

// A step may name a kernel the user wrote (a .cu file beside the story): it is read, registered
// and resolved against a session that measured it, and "Run this step now" carries its source.
TEST(Story, AStepNamesAUserKernelFile) {
  if (!have_resources()) GTEST_SKIP() << "no resources/ here";
  const rl::Story story = rl::parse_story(story_with_steps(
                                              R"({"variant": "reduceNeighbored", "caption": "a"},
             {"kernel": "labs/solutions/remove-divergence.cu", "caption": "b"})"),
                                          "mine.json", RL_RESOURCES_DIR);
  ASSERT_EQ(story.steps.size(), 2u);
  const rl::StoryStep& mine = story.steps[1];
  ASSERT_TRUE(mine.user_kernel.has_value());
  EXPECT_EQ(mine.point.variant, "myNeighboredLess");
  EXPECT_EQ(mine.title, "myNeighboredLess");
  const rl::ExperimentSpec spec = rl::story_step_spec(mine, {});
  ASSERT_EQ(spec.user_kernels.size(), 1u);
  EXPECT_TRUE(rl::validate(spec, nullptr).empty());

  const rl::Session solutions = rl::session_from_json(resource("sessions/h200-lab-solutions.json"));
  const rl::ResolvedStory r = rl::resolve_story(story, solutions);
  ASSERT_TRUE(r.steps[1].time_ms.has_value()) << r.steps[1].missing;
  ASSERT_TRUE(r.steps[1].step_speedup.has_value()) << r.steps[1].speedup_note;
  EXPECT_GT(*r.steps[1].step_speedup, 1.0);  // the divergence removed is faster
}

TEST(Story, AStepsKernelFileIsCheckedNamingTheField) {
  const std::string missing = [] {
    try {
      rl::parse_story(story_with_steps(R"({"kernel": "no-such.cu", "caption": "a"})"), "s.json",
                      "/nonexistent");
    } catch (const rl::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(missing.find("s.json: steps[0].kernel: /nonexistent/no-such.cu: cannot be opened"),
            std::string::npos)
      << missing;
  EXPECT_NE(error_of(story_with_steps(R"({"caption": "a"})")).find("steps[0].variant"),
            std::string::npos);
  EXPECT_NE(error_of(story_with_steps(R"({"kernel": "", "caption": "a"})")).find("steps[0].kernel"),
            std::string::npos);
}
