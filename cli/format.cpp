#include "format.h"

#include "metrics.h"

#include <cmath>
#include <cstdio>

namespace rlcli {

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  const double us = ms * 1e3;
  if (us < 1) return format_fixed(us * 1e3, 0) + " ns";
  if (us < 100) return format_fixed(us, 2) + " us";
  if (ms < 1) return format_fixed(us, 1) + " us";
  if (ms < 1000) return format_fixed(ms, 3) + " ms";
  return format_fixed(ms / 1e3, 3) + " s";
}

std::string format_bytes(std::uint64_t b) {
  return rl::format_bytes(b);
}

std::string format_duration_s(double s) {
  if (s < 0 || !std::isfinite(s)) return "?";
  const long total = std::lround(s);
  char buf[48];
  if (total < 60)
    std::snprintf(buf, sizeof buf, "%ld s", total);
  else if (total < 3600)
    std::snprintf(buf, sizeof buf, "%ld min %02ld s", total / 60, total % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld h %02ld min", total / 3600, total % 3600 / 60);
  return buf;
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace rlcli
