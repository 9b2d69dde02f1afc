// Line diff of two texts (the Code view's "changes from the previous rung"): the longest common
// subsequence of lines, the classic diff. Kernels are tens of lines and SASS a few thousand, so
// the quadratic table stays small; past kMaxCells the diff falls back to "all removed, all added".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rl::code {

struct DiffLine {
  enum class Kind { Same, Removed, Added };
  Kind kind = Kind::Same;
  std::string text;
  int old_line = -1;  // 0-based line in the old text, -1 for an added line
  int new_line = -1;  // 0-based line in the new text, -1 for a removed line
};

constexpr std::size_t kMaxDiffCells = 16u << 20;

std::vector<std::string> split_lines(std::string_view text);
std::vector<DiffLine> diff_lines(const std::vector<std::string>& old_lines,
                                 const std::vector<std::string>& new_lines);

// "--- old\n+++ new\n" then every line prefixed "  ", "- " or "+ " (the whole text, not hunks:
// a kernel is short and its context is the point).
std::string format_diff(const std::vector<DiffLine>& diff, std::string_view old_name,
                        std::string_view new_name);

// The diff as two aligned columns (old | new), as a side-by-side view shows it: same lines on
// both sides; a run of removed lines beside the run of added lines that replaced it, row by row,
// the shorter side padded with blank rows. old_line/new_line are -1 on a padded side.
struct DiffRow {
  DiffLine::Kind old_kind = DiffLine::Kind::Same, new_kind = DiffLine::Kind::Same;
  std::string old_text, new_text;
  int old_line = -1, new_line = -1;
};
std::vector<DiffRow> side_by_side(const std::vector<DiffLine>& diff);

struct DiffStats {
  int same = 0, removed = 0, added = 0;
};
DiffStats diff_stats(const std::vector<DiffLine>& diff);

}  // namespace rl::code
