// JSON from files people hand over (sessions, spec files), parsed with bounds: a hostile file is
// refused with a message naming where, never a crash or a raw library message. nlohmann's
// parser is iterative, but a value nested 100,000 deep overflows the stack wherever it is later
// copied, compared or dumped (recursive), so depth is refused while parsing.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rl {

inline constexpr int kMaxJsonDepth = 64;                 // sessions nest 4 deep
inline constexpr std::size_t kMaxJsonString = 1u << 16;  // 64 KiB: names, notes, messages

// Parses text. Throws rl::Error:
//  "not JSON: the file is empty", "not JSON: syntax error while parsing ...",
//  "a NUL byte at offset 12: not a text file", "device.name: a NUL character (\u0000): not text",
//  "results[0].x.y...: nested deeper than 64 levels (at byte 70)",
//  "device.name: a string of 1048576 bytes; at most 65536",
//  "timing.noise: the number 1e309 is out of range (a double holds up to 1.8e308)".
nlohmann::ordered_json parse_json_bounded(std::string_view text);

}  // namespace rl
