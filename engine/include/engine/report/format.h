// How numbers and points read for people, in one place for the CLI, the app and the docs:
// times with a unit that fits, bandwidths, durations, variant labels, and the full description
// of a point (tooltips, `run` details). Sizes and bytes: format_size (spec.h), format_bytes
// (metrics.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/session/results.h"

namespace rl {

// The micro sign: "µs" where the text is drawn (the app, files), "us" where columns are counted
// in bytes (terminal tables).
enum class Glyphs { Unicode, Ascii };

// "812 ns", "12.35 µs", "123.4 µs", "4.567 ms", "1.234 s"; "-" for a time that is not finite.
std::string format_time_ms(double ms, Glyphs g = Glyphs::Unicode);
std::string format_gbps(double gbps);
// A count or rate with its unit and an SI prefix past 9999, three significant digits:
// "1234 instructions", "5.36M instructions", "67.1 MB" (unit "B"), "1.98 GHz"; "-" for a value
// that is not finite.
std::string format_si(double v, std::string_view unit);  // "545.2 GB/s", "4.81 TB/s"; "-" for none
std::string format_fixed(double v, int decimals);
// "12.3%"; "-" for none (<= 0). Of the read floor: above 100 marked "*" (above_floor_note()).
std::string format_pct(double pct);
std::string format_pct_of_floor(double pct);
// "×1.23" (Unicode) or "1.23x" (Ascii); "-" for none.
std::string format_speedup(std::optional<double> speedup, Glyphs g = Glyphs::Unicode);
std::string format_duration_s(double seconds);  // "45 s", "3 min 20 s", "1 h 05 min"
// A block size for people: "1024", or "auto" where the variant picks its own (0).
std::string block_size_text(int block_size);

// The classic ladder's name where there is one ("reduceUnroll8"), else the id; with_unroll adds "
// U=8" to ids of variants that take several unroll factors.
std::string variant_label(const std::string& id, int unroll, bool with_unroll = true);
// The catalog's display name, or the id for an unknown variant (e.g. from a newer build).
std::string variant_display_name(const std::string& id);

// Short device name for legends ("NVIDIA H200" -> "H200"; host -> "CPU (host emulation)").
std::string device_short_name(const DeviceInfo& d);
// One line saying what a session is: device, origin, when, how many points.
std::string session_origin(const Session& s);
// A GPU session measured before a variant's device code last changed (format.cpp keeps the
// record of those changes) holds an earlier version of that kernel. For a point's tooltip: "an
// earlier version of epoch_pass: its device code changed after this session (37b4def,
// 2026-12-04)"; "" where the session ran the current code (or is a host session).
std::string earlier_code_point_note(const Session& s, const std::string& variant_id);
// For the session's banner, every such variant in one sentence; "" where there is none.
std::string earlier_code_session_note(const Session& s);
// Everything about a point, one line each (floors: its session's, for the % of the read floor).
std::vector<std::string> point_details(const PointResult& r, const DeviceInfo& device,
                                       const std::vector<ReadFloor>& floors,
                                       const std::string& baseline);

}  // namespace rl
