// Colours and marker shapes for series: 24 colours told apart on a screen,
// none of them the red reserved for wrong results, and eight marker shapes, so series 1..24
// differ in colour and, for the colour-blind, in shape too. The high-contrast twins are for
// projectors (presentation mode): darker and more saturated, each paired with the same shape.
// Plain QColor, so chart builders can colour a variant the same way in every chart.
#pragma once

#include <QColor>

namespace rl::gui::charts {

inline constexpr int kPaletteSize = 24;

inline QColor palette_color(int index) {
  static const char* const colors[kPaletteSize] = {
      "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#17becf",
      "#bcbd22", "#7f7f7f", "#8c564b", "#aec7e8", "#1b3a6b", "#ff9da7", "#6a3d9a", "#b15928",
      "#005f56", "#843c39", "#637939", "#ce6dbd", "#393b79", "#fdbf6f", "#cab2d6", "#d6616b",
  };
  return QColor(colors[((index % kPaletteSize) + kPaletteSize) % kPaletteSize]);
}

// The same slot for a projector: dark enough on white from the back of a room.
inline QColor palette_high_contrast(int index) {
  static const char* const colors[kPaletteSize] = {
      "#08306b", "#c04000", "#006d2c", "#6a1b9a", "#00636b", "#8a6d00", "#5d3a1a", "#0069a8",
      "#5c6b00", "#222222", "#7f2704", "#1f5fbf", "#000080", "#c2185b", "#4a148c", "#8c2d04",
      "#004d40", "#6d1b1b", "#3e5a00", "#9c27b0", "#1a237e", "#b35900", "#5e35b1", "#ad1457",
  };
  return QColor(colors[((index % kPaletteSize) + kPaletteSize) % kPaletteSize]);
}

// A colour's high-contrast twin: its slot's, or the colour darkened where it is not a slot
// (verdict colours, roofs).
inline QColor high_contrast_twin(const QColor& c) {
  for (int i = 0; i < kPaletteSize; ++i)
    if (palette_color(i) == c) return palette_high_contrast(i);
  return c.lightness() > 110 ? c.darker(135) : c;
}

enum class MarkerShape { Circle, Square, TriangleUp, Diamond, TriangleDown, Plus, Cross, Star };
inline constexpr int kMarkerShapes = 8;
// Shapes cycle with a period of 8 and colours of 24, so slots i and i + 12 (the same colour in
// a 12-colour view) never share a shape.
inline MarkerShape palette_marker(int index) {
  return MarkerShape(((index % kMarkerShapes) + kMarkerShapes) % kMarkerShapes);
}

inline QColor palette_wrong() {
  return QColor("#d62728");
}
inline QColor palette_roof() {
  return QColor("#444444");
}

}  // namespace rl::gui::charts
