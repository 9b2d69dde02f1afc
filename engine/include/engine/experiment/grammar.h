// The one grammar for the numbers people type, shared by the CLI's flags, spec files and the
// app's form, so "2^24", "16M", "64..1024" mean the same everywhere. Every failure names the bad
// item ("block size 'abc': expected a whole number, 2^K or A..B").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

// Sizes: "1000003", "2^24", "16M" (2^20 units: K, M, G). Lists are comma-separated and may hold
// power-of-two ranges: "2^10..2^28" (every power of two between).
bool parse_size(std::string_view text, std::uint64_t* out, std::string* error);
bool parse_size_list(std::string_view text, std::vector<std::uint64_t>* out, std::string* error);
std::string format_size(std::uint64_t n);  // "2^24" when a power of two, else digits

// Small positive integers (block sizes, unroll factors): "256, 1024", "2^8", "64..1024" (every
// power of two between); items split at commas, semicolons or blanks; each in 1..2^30. `what`
// names the field in messages ("block size").
bool parse_int_list(std::string_view text, std::string_view what, std::vector<int>* out,
                    std::string* error);

// Lists written back for people: runs of five or more consecutive powers of two become
// "2^10..2^28" (sizes) or "64..1024" (ints).
std::string format_int_list(const std::vector<int>& values);
std::string format_size_list(const std::vector<std::uint64_t>& values);

}  // namespace rl
