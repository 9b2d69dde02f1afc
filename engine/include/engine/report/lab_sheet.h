// A lab sheet: an exercise as a small JSON file, like a story (docs/lab-sheets.md). It names the
// built-in kernel the user starts from, says what to change, and sets goals the app checks on
// the user's rung in a session: correct, a speed-up over a built-in rung, a hardware counter
// within bounds. This header reads and checks a sheet (every mistake refused naming the field)
// and judges its goals against a session's points; numbers come only from the session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/types.h"
#include "engine/session/results.h"

namespace rl {

inline constexpr std::size_t kMaxLabSheetBytes = 64 * 1024;  // text, not data
inline constexpr std::size_t kMaxLabGoals = 8;
inline constexpr std::size_t kMaxLabHints = 8;
inline constexpr std::size_t kMaxLabTaskChars = 1500;
inline constexpr std::size_t kMaxLabHintChars = 400;
inline constexpr int kLabSheetVersion = 1;

enum class LabGoalKind { Correct, Speedup, Counter };
std::string_view to_string(LabGoalKind k);  // "correct", "speedup", "counter"

// Which of the rung's points a goal looks at; an unset field matches every point.
struct LabPointFilter {
  std::optional<std::uint64_t> size;
  std::optional<DType> type;
  std::optional<int> block_size;
  std::optional<int> unroll;
  bool matches(const PointSpec& p) const;
  std::string text() const;  // "N=2^24 int32 U=8"; "" when it matches every point
};

struct LabGoal {
  LabGoalKind kind = LabGoalKind::Correct;
  LabPointFilter where;
  // Speedup: the built-in variant compared with (canonical id) and its unroll factor (the
  // classic name's, "reduceUnroll8", else `against_unroll`, else the variant's default).
  std::string against;
  int against_unroll = 1;
  // Counter: the counter's id (counter_catalog.h).
  std::string counter;
  // Speedup: at_least is the factor (> 0). Counter: one bound or both.
  std::optional<double> at_least, at_most;
};

struct LabSheet {
  std::string title;
  std::string task;      // what to change, for people
  std::string start;     // the built-in variant the user starts from (canonical id)
  int start_unroll = 1;  // its unroll factor (the classic name's, else its default)
  std::string starter;   // a file name under resources/kernels/ with the starting source, or ""
  std::string rung;      // the name suggested for the user's kernel, or ""
  std::vector<LabGoal> goals;      // at least one
  std::vector<std::string> hints;  // shown one at a time, in order
};

// Reads a sheet. Throws rl::Error naming the field: "goals[1].at_least: must be a number greater
// than 0", "start: no variant 'neighbord' (did you mean neighbored?)", "goals[0].kind: unknown
// kind 'fast' (one of: correct, speedup, counter)", "hints[2]: expected a string, got a number",
// "tilte: unknown field (a lab sheet's fields: ...)". `source` (a file name) starts every
// message when given.
LabSheet parse_lab_sheet(std::string_view json_text, const std::string& source = {});
// The same from a file (read_text_file's checks, at most kMaxLabSheetBytes); the path starts
// every message.
LabSheet read_lab_sheet_file(const std::string& path);

// The goal as people read it: "correct at every point", "at least 1.50x reduceNeighbored at
// N=2^24 int32 (whole reduction)", "branch uniformity at least 99.0% at N=2^24".
std::string describe_goal(const LabGoal& g);

enum class GoalVerdict { Met, NotMet, NotMeasured };
std::string_view to_string(GoalVerdict v);  // "met", "not met", "not measured yet"

struct GoalJudgement {
  GoalVerdict verdict = GoalVerdict::NotMeasured;
  // One sentence with the numbers: "myRung 2.31x reduceNeighbored at N=2^24 int32 B=1024 (goal
  // 1.50x): met", "myRung: no point at N=2^24 int32 in this session: not measured yet".
  std::string sentence;
  // One line per point of the rung the goal looked at, with its number and whether it meets
  // the goal (for a tooltip or `--verbose`).
  std::vector<std::string> points;
};

// Each goal of the sheet on the points of rung_id (a user kernel's name, or a built-in variant
// id) in the session, in the sheet's order. A Wrong or Failed point never meets a goal; Skipped
// points are left out. Speed-ups are on the whole reduction's time (time_basis.h), against the
// point the engine's baseline rule picks (results.h: find_baseline) among the against variant's
// points at the same size and type, its unroll factor and, when both have one, the same block
// size: the speed-up the Ladder chart shows for that baseline.
std::vector<GoalJudgement> judge_lab_sheet(const LabSheet& sheet, const Session& session,
                                           const std::string& rung_id);
// Every goal met.
bool lab_sheet_met(const std::vector<GoalJudgement>& goals);

}  // namespace rl
