// The ladder as a story: a presenter's small JSON file naming the rungs in
// order, with a caption each, and which setting they were measured at. This header holds its
// rules for every front end: reading and checking the file (every bad input refused with the
// field that is wrong), and resolving it against a session into plain values per step: the
// point, its measured time, the step and cumulative speed-ups, what changed in the code from the
// previous step, and the counter that explains it. Numbers come only from the session (or from
// a live run of the step); what the session lacks is said, never made up. docs: README "Story
// mode".
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/catalog/user_kernel_source.h"
#include "engine/code/line_diff.h"
#include "engine/session/metrics.h"
#include "engine/session/results.h"
#include "engine/views/ladder_setting.h"

namespace rl {

inline constexpr std::size_t kMaxStoryBytes = 64 * 1024;  // a story is captions, not data
inline constexpr std::size_t kMaxStorySteps = 64;
inline constexpr std::size_t kMaxCaptionChars = 600;  // a slide's worth
inline constexpr int kStoryVersion = 1;

// One step as written, with the story's defaults applied and checked against the catalog.
struct StoryStep {
  std::string title;    // short heading; default: the classic ladder's name ("reduceUnroll8")
  std::string caption;  // what this change buys, in a sentence or two
  PointSpec point;      // what was measured: variant, workspace, block, unroll, N, type
  std::string counter;  // counter id (counter_catalog.h) that explains the step
  // A kernel the user wrote, named by the step's "kernel" (a .cu file beside the story): its
  // source, so "Run this step now" measures it; registered when the story is read.
  std::optional<UserKernelSource> user_kernel;
};

struct Story {
  std::string title;
  std::string subtitle;
  TimeBasis time = TimeBasis::Whole;
  int animation_block = 128;  // the block animation's size: legible lanes on a slide
  std::vector<StoryStep> steps;
};

// Reads a story. Throws rl::Error naming the field: "steps[2].variant: unknown variant
// \"reduceFoo\"", "steps[0].setting: B: ...", "steps[3]: the same point as steps[1] (...)",
// "steps: empty: a story needs at least one step", "the file is 70000 bytes; a story is at
// most 65536". `source` (a file name) starts every message when given; a step's "kernel" file is
// read relative to base_dir (the story's folder).
Story parse_story(std::string_view json_text, const std::string& source = {},
                  const std::string& base_dir = {});

// What changed in the code from the previous step.
struct StoryCode {
  std::string from;  // the previous step's title; "" on the first step
  // The changed code lines (comments left out) with a line of context, "..." where unchanged
  // ones are left out; empty when there is no diff (first step, same code, no source here).
  std::vector<code::DiffLine> lines;
  int added = 0, removed = 0;
  std::string explanation;  // the variant's explanation (catalog.h): shown when lines is empty
  std::string note;         // why there is no diff, or "" when there is one
};

// The counter a step names, from the point's hardware counters (the headline kernel).
struct StoryCounter {
  std::string id, meaning;
  std::optional<double> value, previous;  // this step's and the previous step's
  std::string text;  // "barrier stall 44.1% (previous step 47.7%): ..." or "... not measured"
};

// A point measured in this sitting ("Run this step now"), on the device named.
struct LivePoint {
  PointResult result;
  DeviceInfo device;
};

struct ResolvedStep {
  StoryStep step;
  std::string device;             // where the time was measured ("" when not measured)
  bool live = false;              // the time comes from a live run, not the session
  std::optional<double> time_ms;  // median on the story's time basis
  bool noisy = false;
  std::string missing;  // why there is no time ("not in this session", "wrong result", ...)
  std::optional<double> step_speedup;        // previous step's time / this step's
  std::optional<double> cumulative_speedup;  // first step's time / this step's
  std::string speedup_note;                  // why a speed-up is missing, or ""
  StoryCode code;
  StoryCounter counter;
};

struct ResolvedStory {
  std::string title, subtitle;
  TimeBasis time = TimeBasis::Whole;
  std::string session_device;
  std::vector<ResolvedStep> steps;
};

// The source diff between two points' kernels (the Code view's, engine/code/code_view.h, which
// lives in rl_code: the app and the CLI pass code::story_differ()). Returns nullopt with *why
// when there is no source for one of them.
using SourceDiffer = std::function<std::optional<std::vector<code::DiffLine>>(
    const PointSpec& from, const PointSpec& to, std::string* why)>;

// Each step against the session, and against the live points, which take the place of the
// session's point of the same spec. Speed-ups only between two points measured on the same
// device, both verified; a missing differ gives the explanations.
ResolvedStory resolve_story(const Story& story, const Session& session,
                            const std::vector<LivePoint>& live = {},
                            const SourceDiffer& differ = {});

// The experiment that measures one step now: that point alone, with the session's timing.
ExperimentSpec story_step_spec(const StoryStep& step, const TimingOptions& timing);

// "115.5 µs · ×1.18 over the previous step · ×2.32 over the first", or why there is no time.
std::string story_numbers_line(const ResolvedStory& story, std::size_t index);
// Which time and where it comes from: "whole reduction, measured on NVIDIA H200 ·
// interleaved/global B=1024 U=1 N=16777216 int32".
std::string story_source_line(const ResolvedStory& story, std::size_t index);

// The changed lines of a diff with `context` unchanged lines around each change; the lines left
// out become one "..." line (kind Same, both line numbers -1).
std::vector<code::DiffLine> diff_hunks(const std::vector<code::DiffLine>& diff, int context);

}  // namespace rl
