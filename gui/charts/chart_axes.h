// Internal to the chart layer: how a Chart's axes resolve (log or linear), which values a
// log axis can show, tick labels, fonts. Shared by chart_scene.cpp and chart_scene_fill.cpp.
#pragma once

#include <QFont>
#include <QSizeF>
#include <QString>

#include <cmath>

#include "charts/chart_data.h"

class QValueAxis;

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
// A label's size as Qt Charts lays it out (a text document with a 0.5 px margin), upright.
QSizeF label_size(const QString& html, const QFont& font);
// A category name wrapped into lines at most `width` pixels wide in `font`, broken after a space
// or '_' and before a camel-case capital ("Complete<br>Unroll<br>Warp8"), HTML-escaped. Empty
// when one word alone is wider or it takes more than 3 lines: the caller turns the labels then.
// Never drops a character, so distinct names stay distinct.
QString wrapped_label(const QString& label, const QFont& font, double width);
// A subtitle over 70 characters on two lines, split at the " · " nearest its middle (Qt
// truncates a title that does not fit); HTML-escaped.
QString subtitle_html(const QString& subtitle);
// text broken into lines at most `width` pixels wide in `font`: at `sep` ("·" parts of a
// subtitle), then at spaces where one part alone is wider; HTML-escaped, lines joined by <br>.
// Qt Charts cuts a title wider than the chart to "Registers per thread aga...".
QString wrapped_html(const QString& text, const QFont& font, double width,
                     const QString& sep = " ");
// Sets a linear axis to [lo, hi] widened to round ticks (a step of 1, 2, 2.5 or 5 x 10^k, at
// most 5 steps) with as many decimals as the step needs ("0, 2.5, 5, 7.5"). Qt's
// applyNiceNumbers() keeps whatever tick count it is given and can give steps like 3.75, whose
// labels ("11.25") outgrow the room the axis was laid out with and show as "1...".
void set_nice_range(QValueAxis* axis, double lo, double hi);

}  // namespace rl::gui::charts::detail
