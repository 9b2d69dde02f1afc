#include "engine/report/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/catalog/catalog.h"
#include "engine/experiment/spec.h"
#include "engine/session/metrics.h"
#include "engine/trace/model_counts.h"

namespace rl {

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_si(double v, std::string_view unit) {
  if (!std::isfinite(v)) return "-";
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  const double magnitude = std::abs(v);
  std::string number;
  int prefix = 0;
  if (magnitude < 10000) {
    // Whole counts as digits ("1234"), fractions to three significant digits ("31.9").
    number = v == std::floor(v) ? format_fixed(v, 0)
                                : format_fixed(v, magnitude >= 100  ? 0
                                                  : magnitude >= 10 ? 1
                                                                    : 2);
  } else {
    double scaled = v;
    while (std::abs(scaled) >= 1000 && prefix < 5) scaled /= 1000, ++prefix;
    const double a = std::abs(scaled);
    number = format_fixed(scaled, a >= 100 ? 0 : a >= 10 ? 1 : 2);
  }
  // A count's prefix on the number ("5.36M instructions"), a unit's on the unit ("67.1 MB").
  const bool word = unit.size() > 2;
  if (unit.empty()) return number + kPrefixes[prefix];
  if (word) return number + kPrefixes[prefix] + " " + std::string(unit);
  return number + " " + kPrefixes[prefix] + std::string(unit);
}

std::string format_pct(double pct) {
  return pct > 0 && std::isfinite(pct) ? format_fixed(pct, 1) + "%" : "-";
}

std::string format_pct_of_floor(double pct) {
  // Above 100% only within the floor's own noise: marked, and the view says why.
  return format_pct(pct) + (pct > 100 && std::isfinite(pct) ? "*" : "");
}

std::string format_speedup(std::optional<double> speedup, Glyphs g) {
  if (!speedup || !std::isfinite(*speedup)) return "-";
  return g == Glyphs::Unicode ? "×" + format_fixed(*speedup, 2) : format_fixed(*speedup, 2) + "x";
}

std::string format_time_ms(double ms, Glyphs g) {
  if (!std::isfinite(ms)) return "-";
  const std::string us_unit = g == Glyphs::Unicode ? " µs" : " us";
  const double us = ms * 1e3;
  // Four significant digits at most: enough to tell rungs apart, steady column widths.
  if (us < 1) return format_fixed(us * 1e3, 0) + " ns";
  if (us < 100) return format_fixed(us, 2) + us_unit;
  if (ms < 1) return format_fixed(us, 1) + us_unit;
  if (ms < 1000) return format_fixed(ms, 3) + " ms";
  return format_fixed(ms / 1e3, 3) + " s";
}

std::string format_gbps(double gbps) {
  if (!std::isfinite(gbps) || gbps <= 0) return "-";
  if (gbps >= 1000) return format_fixed(gbps / 1000, 2) + " TB/s";
  return format_fixed(gbps, gbps < 100 ? 2 : 1) + " GB/s";
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

std::string block_size_text(int block_size) {
  return block_size > 0 ? std::to_string(block_size) : "auto";
}

std::string variant_label(const std::string& id, int unroll, bool with_unroll) {
  const std::string u = " U=" + std::to_string(unroll);
  const VariantInfo* v = find_variant_by_id(id);
  if (!v) return id + (with_unroll && unroll > 1 ? u : "");
  if (!v->seed_name.empty()) {
    if (v->seed_name_has_unroll) return with_unroll ? v->seed_label(unroll) : v->seed_name;
    // reduceCompleteUnroll is the classic ladder's kernel at its own factor (8); say so at any
    // other.
    if (with_unroll && unroll != v->seed_unroll && v->unroll_factors.size() > 1)
      return v->seed_name + u;
    return v->seed_name;
  }
  return id + (with_unroll && v->unroll_factors.size() > 1 ? u : "");
}

std::string variant_display_name(const std::string& id) {
  const VariantInfo* v = find_variant_by_id(id);
  return v ? v->display_name : id;
}

std::string device_short_name(const DeviceInfo& d) {
  if (d.backend != "cuda") return "CPU (host emulation)";
  std::string name = d.name;
  if (name.rfind("NVIDIA ", 0) == 0) name = name.substr(7);
  return name.empty() ? "cuda:" + std::to_string(d.index) : name;
}

namespace {

// The variants whose device code changed after a session that ships with the app was measured:
// the commit and time (UTC, ISO 8601) of the last change. The one record of it; a session
// measured before that time holds an earlier version of the kernel.
struct CodeChange {
  std::string_view variant, commit, utc;
};
constexpr CodeChange kDeviceCodeChanges[] = {
    {"epoch_pass", "37b4def", "2026-12-04T14:28:36Z"},
};

// The change to a variant's device code that came after the session was measured, or null.
const CodeChange* change_after(const Session& s, const std::string& variant_id) {
  if (s.device.backend != "cuda" || s.created_utc.empty()) return nullptr;
  for (const CodeChange& c : kDeviceCodeChanges)
    // ISO 8601 times in UTC ("2026-12-04T14:28:36Z") order as strings.
    if (c.variant == variant_id && s.created_utc < c.utc) return &c;
  return nullptr;
}

std::string change_words(const CodeChange& c) {
  return std::string(c.commit) + ", " + std::string(c.utc.substr(0, 10));
}

}  // namespace

std::string earlier_code_point_note(const Session& s, const std::string& variant_id) {
  const CodeChange* c = change_after(s, variant_id);
  if (!c) return {};
  return "an earlier version of " + variant_id + ": its device code changed after this session (" +
         change_words(*c) + ")";
}

std::string earlier_code_session_note(const Session& s) {
  std::vector<std::string> ids;
  std::string changes;
  for (const PointResult& r : s.results) {
    const CodeChange* c = change_after(s, r.point.variant);
    if (!c || std::find(ids.begin(), ids.end(), r.point.variant) != ids.end()) continue;
    ids.push_back(r.point.variant);
    changes += (changes.empty() ? "" : "; ") + r.point.variant + ": " + change_words(*c);
  }
  if (ids.empty()) return {};
  std::string names;
  for (std::size_t i = 0; i < ids.size(); ++i)
    names += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
  return "Its " + names + " points are of an earlier version of " +
         (ids.size() == 1 ? "that kernel" : "those kernels") +
         ": the device code changed after this session was measured (" + changes +
         "), so this build may time " + (ids.size() == 1 ? "it" : "them") + " differently.";
}

std::string session_origin(const Session& s) {
  std::vector<std::string> parts;
  parts.push_back(s.device.backend == "cuda" ? s.device.label()
                                             : "CPU (host emulation: CPU times, not GPU times)");
  if (!s.tool_version.empty()) parts.push_back("ReductionLab " + s.tool_version);
  if (!s.git_commit.empty()) parts.push_back("commit " + s.git_commit);
  if (!s.created_utc.empty()) parts.push_back(s.created_utc);
  parts.push_back(std::to_string(s.results.size()) + " points" +
                  (s.cancelled ? " (cancelled)" : ""));
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " · ") + p;
  return out;
}

}  // namespace rl
