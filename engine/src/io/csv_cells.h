// The CSV exports' one way of writing a cell (io/export_csv.cpp, io/export_multi.cpp): RFC 4180
// quoting (a field holding a comma, a double quote, CR or LF is enclosed in double quotes with
// inner quotes doubled), numbers in the shortest form that reads back to the same double, and a
// value that does not exist as an empty cell. Private to the engine.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rl::csv {

inline std::string quote(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

inline std::string number(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

// Builds one row; each add() appends a cell.
class Row {
 public:
  Row& add(std::string_view text) {
    if (cells_ > 0) line_ += ',';
    line_ += quote(text);
    ++cells_;
    return *this;
  }
  Row& add(double d) { return add(number(d)); }
  Row& add(std::int64_t i) { return add(std::to_string(i)); }
  Row& add(std::uint64_t u) { return add(std::to_string(u)); }
  Row& add(int i) { return add(std::int64_t(i)); }
  Row& add(unsigned u) { return add(std::uint64_t(u)); }
  Row& add(std::optional<double> d) { return d ? add(*d) : add(std::string_view()); }
  std::string str() const { return line_ + "\n"; }

 private:
  std::string line_;
  int cells_ = 0;
};

}  // namespace rl::csv
