// The measured timeline's colours: one fixed colour per phase name, so "tree" is the same green
// in every timeline, export and screenshot, and the marks of a barrier wait. The Code view has
// no phase colours of its own; a user's phase names take the charts' series palette, by a hash
// of the name, so the same name keeps its colour.
#pragma once

#include <QColor>
#include <QString>

#include "charts/palette.h"

namespace rl::gui::timeline_palette {

inline constexpr int kBuiltInPhases = 7;

inline QColor phase_color(const QString& phase) {
  if (phase == "load") return QColor("#4e79a7");       // blue
  if (phase == "tree") return QColor("#59a14f");       // green
  if (phase == "last warp") return QColor("#f28e2b");  // orange
  if (phase == "write") return QColor("#b07aa1");      // purple
  if (phase == "warp") return QColor("#76b7b2");       // teal: a warp's sum in registers
  if (phase == "hand on") return QColor("#edc948");    // yellow: the one-launch finish
  if (phase == "cluster") return QColor("#9c755f");    // brown: a cluster's exchange
  if (phase.isEmpty()) return QColor("#9da3ab");       // before the first phase mark
  // Past the seven above in the charts' palette, so a user's phase never takes theirs.
  return charts::palette_color(kBuiltInPhases +
                               int(qHash(phase) % (charts::kPaletteSize - kBuiltInPhases)));
}

// A warp waiting at __syncthreads(): pale, hatched, so it reads as idle next to any phase.
inline QColor wait_fill() {
  return QColor("#eeeeee");
}
inline QColor wait_hatch() {
  return QColor("#8a8a8a");
}
// The slowest warp at a barrier (every other warp waits for it) and the instant it arrives.
inline QColor slowest_mark() {
  return QColor("#c62828");
}
inline QColor band_fill() {
  return QColor("#f4f6f9");
}
inline QColor grid_line() {
  return QColor("#d0d4da");
}
inline QColor text() {
  return QColor("#1f2328");
}
inline QColor muted_text() {
  return QColor("#57606a");  // 6:1 on white
}

}  // namespace rl::gui::timeline_palette
