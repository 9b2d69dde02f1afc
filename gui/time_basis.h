// The engine's time bases (engine/report/time_basis.h) as the app shows them: QString names for
// selectors, axes and subtitles. The rules (which time, which points lack it, speed-ups on it)
// are the engine's.
#pragma once

#include <QString>
#include <QStringList>

#include "engine/report/time_basis.h"
#include "format.h"

namespace rl::gui {

using rl::basis_speedups;
using rl::BasisNotes;
using rl::BasisSpeedups;
using rl::time_bases;
using rl::TimeBasis;

inline std::optional<TimeBasis> parse_time_basis(const QString& key) {
  return rl::parse_time_basis(key.toStdString());
}

// Named qtext::..., since the engine's functions of the same names are found by argument lookup.
namespace qtext {
inline QString time_basis_key(TimeBasis b) {
  return qstr(rl::time_basis_key(b));
}
inline QString time_basis_choice(TimeBasis b) {
  return qstr(rl::time_basis_choice(b));
}
inline QString time_basis_name(TimeBasis b) {
  return qstr(rl::time_basis_name(b));
}
inline QString time_axis_title(TimeBasis b, const QString& unit) {
  return qstr(rl::time_axis_title(b, unit.toStdString()));
}
inline QString charted_details(const PointResult& r, TimeBasis b) {
  return qstr(rl::charted_details(r, b));
}
}  // namespace qtext

}  // namespace rl::gui
