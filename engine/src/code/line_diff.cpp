#include "engine/code/line_diff.h"

#include <algorithm>
#include <cstdint>

namespace rl::code {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    lines.emplace_back(text.substr(0, eol));
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return lines;
}

std::vector<DiffLine> diff_lines(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<DiffLine> out;
  if ((n + 1) * (m + 1) > kMaxDiffCells) {
    for (std::size_t i = 0; i < n; ++i)
      out.push_back({DiffLine::Kind::Removed, a[i], static_cast<int>(i), -1});
    for (std::size_t j = 0; j < m; ++j)
      out.push_back({DiffLine::Kind::Added, b[j], -1, static_cast<int>(j)});
    return out;
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out.push_back({DiffLine::Kind::Same, a[i], static_cast<int>(i), static_cast<int>(j)});
      ++i, ++j;
    } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
      out.push_back({DiffLine::Kind::Added, b[j], -1, static_cast<int>(j)});
      ++j;
    } else {
      out.push_back({DiffLine::Kind::Removed, a[i], static_cast<int>(i), -1});
      ++i;
    }
  }
  // Removed lines before added ones within a changed run reads better (old, then new).
  for (std::size_t k = 1; k < out.size(); ++k)
    for (std::size_t q = k; q > 0 && out[q].kind == DiffLine::Kind::Removed &&
                            out[q - 1].kind == DiffLine::Kind::Added;
         --q)
      std::swap(out[q], out[q - 1]);
  return out;
}

std::string format_diff(const std::vector<DiffLine>& diff, std::string_view old_name,
                        std::string_view new_name) {
  std::string out = "--- " + std::string(old_name) + "\n+++ " + std::string(new_name) + "\n";
  for (const DiffLine& d : diff) {
    out += d.kind == DiffLine::Kind::Same ? "  " : d.kind == DiffLine::Kind::Removed ? "- " : "+ ";
    out += d.text + "\n";
  }
  return out;
}

DiffStats diff_stats(const std::vector<DiffLine>& diff) {
  DiffStats s;
  for (const DiffLine& d : diff) {
    if (d.kind == DiffLine::Kind::Same) ++s.same;
    if (d.kind == DiffLine::Kind::Removed) ++s.removed;
    if (d.kind == DiffLine::Kind::Added) ++s.added;
  }
  return s;
}

std::vector<DiffRow> side_by_side(const std::vector<DiffLine>& diff) {
  using Kind = DiffLine::Kind;
  std::vector<DiffRow> rows;
  std::size_t i = 0;
  while (i < diff.size()) {
    if (diff[i].kind == Kind::Same) {
      rows.push_back(
          {Kind::Same, Kind::Same, diff[i].text, diff[i].text, diff[i].old_line, diff[i].new_line});
      ++i;
      continue;
    }
    // A change: the removed lines of the run on the left, its added lines on the right.
    std::vector<const DiffLine*> removed, added;
    for (; i < diff.size() && diff[i].kind != Kind::Same; ++i)
      (diff[i].kind == Kind::Removed ? removed : added).push_back(&diff[i]);
    for (std::size_t k = 0; k < std::max(removed.size(), added.size()); ++k) {
      DiffRow r;
      if (k < removed.size()) {
        r.old_kind = Kind::Removed;
        r.old_text = removed[k]->text;
        r.old_line = removed[k]->old_line;
      }
      if (k < added.size()) {
        r.new_kind = Kind::Added;
        r.new_text = added[k]->text;
        r.new_line = added[k]->new_line;
      }
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

}  // namespace rl::code
