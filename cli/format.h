// The engine's formatters (engine/report/format.h) as the terminal tables use them (ASCII "us",
// so columns counted in bytes line up), plus column padding, which is the CLI's own layout.
#pragma once

#include <cstdint>
#include <string>

#include "engine/report/format.h"
#include "engine/session/metrics.h"

namespace rlcli {

inline std::string format_ms(double ms) {
  return rl::format_time_ms(ms, rl::Glyphs::Ascii);
}
using rl::format_bytes;
using rl::format_duration_s;
using rl::format_fixed;

// The width of the terminal fd is, in columns; 0 when fd is no terminal. Where the terminal does
// not say, $COLUMNS.
std::size_t terminal_columns(int fd);
// Below this many columns the live table of `run` is narrow (--table auto).
inline constexpr std::size_t kNarrowTableColumns = 120;

std::string pad_left(const std::string& s, std::size_t width);
std::string pad_right(const std::string& s, std::size_t width);

}  // namespace rlcli
