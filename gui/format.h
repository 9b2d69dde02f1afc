// How numbers and points read in the app: times with units, bandwidths, sizes, variant labels,
// and the full description of a point shown on hover.
#pragma once

#include <QString>

#include "results.h"

namespace rl::gui {

QString format_time_ms(double ms);     // "812 ns", "12.3 µs", "1.234 ms", "2.50 s"
QString format_gbps(double gbps);      // "545 GB/s", "4.81 TB/s"
QString format_size(std::uint64_t n);  // "2^24" or the digits, as rl::format_size
// A block size for people: "1024", or "auto" where the variant picks its own (0).
QString block_size_text(int block_size);
QString format_duration_s(double seconds);  // "45 s", "3 min 20 s", "1 h 05 min"

// The seed's name where there is one ("reduceUnroll8"), else the id; with_unroll adds " U=8"
// to ids of variants that take several unroll factors.
QString variant_label(const std::string& id, int unroll, bool with_unroll = true);
// The catalog's display name, or the id for an unknown variant (e.g. from a newer build).
QString variant_display_name(const std::string& id);

// Short device name for legends ("NVIDIA H200" -> "H200"; host -> "CPU (host emulation)").
QString device_short_name(const DeviceInfo& d);
// One line saying what a session is: device, origin, when, how many points.
QString session_origin(const Session& s);

// Everything about a point, several lines (tooltips, status bar).
QString point_details(const PointResult& r, const DeviceInfo& device, const std::string& baseline);

}  // namespace rl::gui
