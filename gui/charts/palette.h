// Colours for series: distinguishable, colour-blind friendly enough, and none of them the red
// reserved for wrong results. Plain QColor, so chart builders can colour a variant the same way
// in every chart.
#pragma once

#include <QColor>

namespace rl::gui::charts {

inline QColor palette_color(int index) {
  static const QColor colors[] = {
      QColor("#4e79a7"), QColor("#f28e2b"), QColor("#59a14f"), QColor("#b07aa1"),
      QColor("#76b7b2"), QColor("#edc948"), QColor("#9c755f"), QColor("#17becf"),
      QColor("#bcbd22"), QColor("#7f7f7f"), QColor("#8c564b"), QColor("#aec7e8"),
  };
  constexpr int n = sizeof(colors) / sizeof(colors[0]);
  return colors[((index % n) + n) % n];
}

inline QColor palette_wrong() {
  return QColor("#d62728");
}
inline QColor palette_roof() {
  return QColor("#444444");
}

}  // namespace rl::gui::charts
