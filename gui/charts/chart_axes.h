// Internal to the chart layer: how a Chart's axes resolve (log or linear), which values a
// log axis can show, tick labels, fonts. Shared by chart_scene.cpp and chart_scene_fill.cpp.
#pragma once

#include <QFont>
#include <QString>

#include <cmath>

#include "charts/chart_data.h"

namespace rl::gui::charts::detail {

enum class Scale { Linear, Log2, Log10, Category };

Scale resolve_x(const Chart& c);
// Log scale when the positive values span more than a decade and a half (a linear axis would
// flatten everything but the largest values); QLogValueAxis drops series with values <= 0.
Scale resolve_y(const Chart& c);
bool usable(double v, Scale s);  // drawable on that scale
inline double tx(double x, Scale s) {
  return s == Scale::Log2 ? std::log2(x) : x;
}
QString tick_label(int k, TickStyle style);             // 2^k as "1024" or "2¹⁰"
QFont scaled_font(double delta_pt, bool bold = false);  // the app font, larger or smaller
// A category name wrapped into lines at most `width` pixels wide in `font`, broken after a space
// or '_' and before a camel-case capital ("Complete<br>Unroll<br>Warp8"), HTML-escaped. Empty
// when one word alone is wider or it takes more than 3 lines: the caller turns the labels then.
// Never drops a character, so distinct names stay distinct.
QString wrapped_label(const QString& label, const QFont& font, double width);
// A subtitle over 70 characters on two lines, split at the " · " nearest its middle (Qt
// truncates a title that does not fit); HTML-escaped.
QString subtitle_html(const QString& subtitle);

}  // namespace rl::gui::charts::detail
