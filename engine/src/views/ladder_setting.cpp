#include "engine/views/ladder_setting.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "engine/core/echo.h"
#include "engine/core/types.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/presets.h"

namespace rl {

namespace {

using Key = std::tuple<std::uint64_t, int, int>;  // size, type, block

bool measured(const PointResult& r) {
  return r.status == PointStatus::Ok || r.status == PointStatus::Wrong;
}

// The classic ladder's experiment: the `ladder` preset's first N, block size and type.
std::optional<LadderSetting> seed_setting() {
  const Preset* p = find_preset("ladder");
  if (p == nullptr || p->spec.sizes.empty() || p->spec.block_sizes.empty()) return std::nullopt;
  LadderSetting s;
  s.size = p->spec.sizes.front();
  s.block = p->spec.block_sizes.front();
  s.type = p->spec.types.empty() ? DType::Int32 : p->spec.types.front();
  return s;
}

}  // namespace

// A matrix point sums every row or column (one output each): never a rung of a whole-array ladder,
// even at the same number of elements.
bool LadderSetting::matches(const PointSpec& p) const {
  return !p.is_matrix() && p.size == size && p.type == type &&
         (p.block_size == block || p.block_size == 0);
}

bool LadderSetting::holds(const PointResult& r) const {
  return matches(r.point) && measured(r);
}

std::string LadderSetting::label() const {
  return "N=" + format_size(size) + " · " +
         (block ? "B=" + std::to_string(block) : std::string("block size picked by the variant")) +
         " · " + std::string(to_string(type));
}

std::vector<LadderSetting> ladder_settings(const Session& s) {
  std::map<Key, std::set<std::pair<std::string, int>>> rungs_at;  // (variant, unroll)
  for (const PointResult& r : s.results)
    if (measured(r) && !r.point.is_matrix())
      rungs_at[{r.point.size, int(r.point.type), r.point.block_size}].insert(
          {r.point.variant, r.point.unroll});
  // The (N, type) pairs measured at a chosen block size: looked up once per key, so a session of
  // many sizes stays linear.
  std::set<std::pair<std::uint64_t, int>> with_blocks;
  for (const auto& entry : rungs_at)
    if (std::get<2>(entry.first) != 0)
      with_blocks.insert({std::get<0>(entry.first), std::get<1>(entry.first)});
  std::vector<LadderSetting> out;
  for (const auto& [key, rungs] : rungs_at) {
    const auto [size, type, block] = key;
    // Variants that pick their own block size (0) join every block size of their N and type;
    // alone (no other block size there) they are a setting of their own.
    if (block == 0 && with_blocks.count({size, type})) continue;
    std::size_t count = rungs.size();
    if (block != 0)
      if (auto it = rungs_at.find({size, type, 0}); it != rungs_at.end())
        count += it->second.size();
    out.push_back({size, DType(type), block, int(count)});
  }
  return out;
}

std::optional<LadderSetting> default_ladder_setting(const Session& s) {
  return default_ladder_setting(ladder_settings(s));
}

std::optional<LadderSetting> default_ladder_setting(const std::vector<LadderSetting>& all) {
  if (all.empty()) return std::nullopt;
  int most = 0;
  for (const LadderSetting& l : all) most = std::max(most, l.rungs);
  const std::optional<LadderSetting> seed = seed_setting();
  const LadderSetting* best = nullptr;
  for (const LadderSetting& l : all) {
    if (l.rungs != most) continue;
    if (seed && l == *seed) return l;
    if (!best || std::tie(l.size, l.block) > std::tie(best->size, best->block)) best = &l;
  }
  return *best;
}

std::optional<LadderSetting> drawn_ladder_setting(const Session& s,
                                                  const std::optional<LadderSetting>& chosen) {
  return drawn_ladder_setting(ladder_settings(s), chosen);
}

std::optional<LadderSetting> drawn_ladder_setting(const std::vector<LadderSetting>& all,
                                                  const std::optional<LadderSetting>& chosen) {
  if (chosen)
    for (const LadderSetting& l : all)
      if (l == *chosen) return l;
  return default_ladder_setting(all);
}

std::optional<LadderChoice> parse_ladder_choice(std::string_view text, std::string* error) {
  LadderChoice c;
  if (text.find('\0') != std::string_view::npos) {
    *error = "the setting holds a NUL byte";
    return std::nullopt;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) {
      *error = "empty part in " + echo(text) + " (expected N=2^24,B=1024,type=int32)";
      return std::nullopt;
    }
    const std::size_t eq = item.find('=');
    const std::string_view key = eq == std::string_view::npos ? "N" : item.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? item : item.substr(eq + 1);
    std::string why;
    if (key == "N" || key == "n" || key == "size") {
      std::uint64_t n = 0;
      if (c.size || !parse_size(value, &n, &why)) {
        *error = c.size ? "N given twice in " + echo(text) : "N: " + why;
        return std::nullopt;
      }
      c.size = n;
    } else if (key == "B" || key == "b" || key == "block") {
      std::uint64_t b = 0;
      if (c.block || !parse_size(value, &b, &why) || b > std::uint64_t(kMaxBlockSize)) {
        *error = c.block
                     ? "B given twice in " + echo(text)
                     : "B: " + (why.empty()
                                    ? echo(value) + " is more than " + std::to_string(kMaxBlockSize)
                                    : why);
        return std::nullopt;
      }
      c.block = int(b);
    } else if (key == "type") {
      if (c.type || (value != "int32" && value != "float32")) {
        *error = c.type ? "type given twice in " + echo(text)
                        : "type: " + echo(value) + " (expected int32 or float32)";
        return std::nullopt;
      }
      c.type = value == "int32" ? DType::Int32 : DType::Float32;
    } else {
      *error = "unknown part " + echo(key) + " in " + echo(text) +
               " (expected N=..., B=..., type=int32|float32)";
      return std::nullopt;
    }
    if (comma == text.size()) break;
  }
  return c;
}

std::optional<LadderSetting> find_ladder_setting(const Session& s, const LadderChoice& choice,
                                                 std::string* error) {
  const std::vector<LadderSetting> all = ladder_settings(s);
  const std::optional<LadderSetting> fallback = default_ladder_setting(s);
  if (!fallback) {
    *error = "no measured points in this session: no ladder to draw";
    return std::nullopt;
  }
  LadderSetting want = *fallback;
  if (choice.size) want.size = *choice.size;
  if (choice.type) want.type = *choice.type;
  if (choice.block) want.block = *choice.block;
  for (const LadderSetting& l : all)
    if (l == want) return l;
  std::string held;
  for (std::size_t i = 0; i < all.size() && i < 12; ++i) held += (i ? "; " : "") + all[i].label();
  if (all.size() > 12) held += "; ... (" + std::to_string(all.size()) + " in all)";
  *error = "no ladder at " + want.label() + " in this session; it holds " + held;
  return std::nullopt;
}

}  // namespace rl
