// The setting a ladder chart draws: one (N, element type, block size) of a session, chosen by
// the person (the app's selector, `reductionlab --export-charts ... --setting`) or, by default,
// the classic ladder's own experiment when the session holds it. One home for the rule, so the
// app's charts and exports never guess differently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/session/results.h"

namespace rl {

struct LadderSetting {
  std::uint64_t size = 0;
  DType type = DType::Int32;
  int block = 0;  // variants that pick their own block size (recorded as 0) join every block
  int rungs = 0;  // (variant, unroll) pairs measured at this setting
  bool operator==(const LadderSetting& o) const {
    return size == o.size && type == o.type && block == o.block;
  }
  // p is at this setting (whatever became of it).
  bool matches(const PointSpec& p) const;
  // r is at this setting and was measured (ok or wrong: a wrong result is shown, in red).
  bool holds(const PointResult& r) const;
  // "N=2^24 · B=1024 · int32"
  std::string label() const;
};

// Every setting of the session with a measured point, ordered by N, type, block size.
std::vector<LadderSetting> ladder_settings(const Session& s);

// The default: among the settings with the most rungs, the classic ladder's experiment (the
// `ladder` preset's N, block size and type) when it is one of them, else the largest N (then
// block).
std::optional<LadderSetting> default_ladder_setting(const Session& s);

// What the ladder charts draw for s: `chosen` when s holds it, else s's default.
std::optional<LadderSetting> drawn_ladder_setting(const Session& s,
                                                  const std::optional<LadderSetting>& chosen);
// The same two from a session's settings already listed (ladder_settings: one pass over every
// point, which a session of 100,000 points makes worth doing once).
std::optional<LadderSetting> default_ladder_setting(const std::vector<LadderSetting>& all);
std::optional<LadderSetting> drawn_ladder_setting(const std::vector<LadderSetting>& all,
                                                  const std::optional<LadderSetting>& chosen);

// What a person asked for: "N=2^24,B=1024,type=float32", any of the three in any order
// (also "2^24" alone for N). Missing parts are taken from the default setting.
struct LadderChoice {
  std::optional<std::uint64_t> size;
  std::optional<DType> type;
  std::optional<int> block;
};
std::optional<LadderChoice> parse_ladder_choice(std::string_view text, std::string* error);

// The session's setting that matches the choice, or nullopt with *error naming what the session
// holds ("no ladder at N=2^20 in this session; it holds N=2^24 · B=1024 · int32, ...").
std::optional<LadderSetting> find_ladder_setting(const Session& s, const LadderChoice& choice,
                                                 std::string* error);

}  // namespace rl
