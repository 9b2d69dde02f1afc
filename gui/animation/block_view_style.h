// Internal to BlockView (block_view.cpp: layout and tooltips; block_view_paint.cpp: painting):
// its margins, colours and the text of values and of where a trace came from.
#pragma once

#include <QColor>
#include <QString>

#include <algorithm>

#include "engine/trace/trace.h"

namespace rl::gui::block_view_style {

inline constexpr int kMargin = 8;
inline constexpr int kGutter = 40;  // warp labels

inline QColor blend(const QColor& a, const QColor& b, double t) {
  t = std::clamp(t, 0.0, 1.0);
  return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                          a.greenF() + (b.greenF() - a.greenF()) * t,
                          a.blueF() + (b.blueF() - a.blueF()) * t);
}

inline const QColor kCell(222, 233, 250), kDim(242, 242, 242), kDst(255, 163, 60),
    kSrc(255, 226, 140), kJunk(250, 222, 200), kArrow(30, 60, 140), kBarrier(200, 40, 40);

inline QString value_text(double v, DType type) {
  if (type == DType::Int32) return QString::number(static_cast<qint64>(v));
  return QString::number(v, 'g', 4);
}

inline QString source_text(const Trace& t) {
  return t.source == "gpu"
             ? "masks and values recorded on " + QString::fromStdString(t.source_device)
             : QString("block model (host), the same algorithm the GPU runs");
}

}  // namespace rl::gui::block_view_style
