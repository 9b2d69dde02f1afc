// Number formatting for people: times with a unit that fits, bytes, bandwidth, percentages.
#pragma once

#include <cstdint>
#include <string>

namespace rlcli {

std::string format_ms(double ms);           // "812 ns", "12.3 us", "4.567 ms", "1.234 s"
std::string format_bytes(std::uint64_t b);  // "60.0 MiB", "139.8 GiB"
std::string format_fixed(double v, int decimals);
std::string format_duration_s(double s);  // "42 s", "3 min 05 s", "1 h 02 min"
std::string pad_left(const std::string& s, std::size_t width);
std::string pad_right(const std::string& s, std::size_t width);

}  // namespace rlcli
