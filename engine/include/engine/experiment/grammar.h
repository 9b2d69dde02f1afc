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

// A row-major matrix of rows x cols elements, for the variants that sum each row or column.
struct MatrixShape {
  std::uint64_t rows = 0, cols = 0;
  bool operator==(const MatrixShape&) const = default;
  auto operator<=>(const MatrixShape&) const = default;
};
// "4096x4096": both sides as digits, so a table reads the same as a typed shape.
std::string format_shape(std::uint64_t rows, std::uint64_t cols);
inline std::string format_shape(const MatrixShape& s) {
  return format_shape(s.rows, s.cols);
}

// Shapes: "4096x4096", "2^12x2^12", "16Kx1K" (each side as parse_size reads it), comma-separated.
// Each side at least 1, the product at most 2^40.
bool parse_shape(std::string_view text, MatrixShape* out, std::string* error);
bool parse_shape_list(std::string_view text, std::vector<MatrixShape>* out, std::string* error);

// A sweep at a fixed total: each value of `values` is the column count (or, with
// values_are_rows, the row count) and the other side is total / value, rounded down. Sorted by
// the swept side, duplicates dropped. A value larger than the total is an error; each value that
// does not divide the total adds a line to *notes ("cols 1000: 2^24 / 1000 = 16777 rows, 216
// elements of the total left out").
bool shapes_at_total(const std::vector<std::uint64_t>& values, bool values_are_rows,
                     std::uint64_t total, std::vector<MatrixShape>* out,
                     std::vector<std::string>* notes, std::string* error);

}  // namespace rl
