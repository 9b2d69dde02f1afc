// The engine's formatters (engine/report/format.h) as QStrings: the app holds no formatting rule
// of its own, so a number reads the same in the app, the CLI and the files.
#pragma once

#include <QString>
#include <QStringList>

#include "engine/experiment/spec.h"
#include "engine/report/format.h"

namespace rl::gui {

inline QString qstr(const std::string& s) {
  return QString::fromStdString(s);
}
inline QStringList qstrs(const std::vector<std::string>& lines) {
  QStringList out;
  for (const std::string& s : lines) out << qstr(s);
  return out;
}

inline QString format_time_ms(double ms) {
  return qstr(rl::format_time_ms(ms));
}
inline QString format_gbps(double gbps) {
  return qstr(rl::format_gbps(gbps));
}
inline QString format_size(std::uint64_t n) {
  return qstr(rl::format_size(n));
}
// The data a point ran on: "2^24" for a whole array, "4096x4096" for a matrix.
inline QString size_text(const rl::PointSpec& p) {
  return qstr(p.size_text());
}
// The same with its name where a line lists several things: "N=2^24", "4096x4096".
inline QString size_label(const rl::PointSpec& p) {
  return (p.is_matrix() ? QString() : QString("N=")) + size_text(p);
}
inline QString block_size_text(int block_size) {
  return qstr(rl::block_size_text(block_size));
}
inline QString format_duration_s(double seconds) {
  return qstr(rl::format_duration_s(seconds));
}
inline QString variant_label(const std::string& id, int unroll, bool with_unroll = true) {
  return qstr(rl::variant_label(id, unroll, with_unroll));
}
inline QString variant_display_name(const std::string& id) {
  return qstr(rl::variant_display_name(id));
}

// Named qtext::..., since the engine's functions of the same names are found by argument lookup.
namespace qtext {
inline QString device_short_name(const DeviceInfo& d) {
  return qstr(rl::device_short_name(d));
}
inline QString session_origin(const Session& s) {
  return qstr(rl::session_origin(s));
}
// Everything about a point of s, then whether it is of an earlier version of its kernel than
// this build's.
inline QString point_details(const PointResult& r, const Session& s, const std::string& baseline) {
  QString text = qstrs(rl::point_details(r, s.device, s.read_floors, baseline)).join('\n');
  if (const std::string note = rl::earlier_code_point_note(s, r.point.variant); !note.empty())
    text += "\n" + qstr(note);
  return text;
}
}  // namespace qtext

}  // namespace rl::gui
