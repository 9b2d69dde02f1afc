// Plain description of a chart: axes, series, points with their spread, tooltips and labels.
// Everything above the chart layer builds these; only gui/charts/*.cpp turns them into Qt
// Charts objects, so a move to Qt Graphs stays inside that folder.
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>
#include <optional>

#include "engine/experiment/spec.h"

namespace rl::gui::charts {

enum class AxisScale {
  Linear,  // from 0 (times and bandwidths are never negative: the bar starts at nothing)
  // powers of two on the axis (sizes, block sizes, unroll factors), labels as given; on the
  // value axis only for a chart of Cells
  Log2,
  Auto,      // log10 when the positive values span more than a decade and a half, else linear
  Log10,     // log10 whatever the span (a person's choice: ChartWidget::set_value_log)
  Category,  // bars: one slot per entry of Axis::categories
};

enum class TickStyle { Plain, PowerOfTwo };  // Log2 labels: "1024" or "2^10"

struct Axis {
  QString title;
  // Said instead of title where the plot is too short for it (Qt would cut it to "cumulativ..."):
  // "time (ms)" for "time, whole reduction (ms)"; the subtitle still says the rest.
  QString short_title;
  AxisScale scale = AxisScale::Linear;
  TickStyle ticks = TickStyle::Plain;
  QStringList categories;  // Category axes only
};

struct Point {
  double x = 0, y = 0;
  // Spread of the samples (min and max); NaN when unknown. Drawn as a band around the line.
  double lo = std::numeric_limits<double>::quiet_NaN();
  double hi = std::numeric_limits<double>::quiet_NaN();
  QString tooltip;     // shown on hover: the exact values
  QString label;       // bars: text drawn above the bar
  bool wrong = false;  // result differs from the host: drawn as a red marker, never joined
  bool noisy = false;  // its noise target was not met: bars are hatched
  // The measured point it draws, where there is one: a click shows its code (ChartWidget's
  // point_clicked).
  std::optional<rl::PointSpec> source;
  bool has_spread() const { return std::isfinite(lo) && std::isfinite(hi); }
};

enum class SeriesKind {
  Line,  // points joined in x order, with a min-max band where points have a spread
  Bars,  // one bar per category (x = category index); all Bars series of a chart share slots
  Roof,  // a horizontal reference line across the chart (points[0].y), dashed
  // A map: one cell per point, centred on (x, y) of two Log2 axes, a power of two wide and high,
  // in the series' colour with the point's label written inside (the strategy map).
  Cells,
};

struct Series {
  QString name;
  SeriesKind kind = SeriesKind::Line;
  QList<Point> points;
  QColor color;         // invalid: the layer picks from its palette
  bool dashed = false;  // e.g. the overlaid second session
};

struct Chart {
  QString id;  // file name stem when exported: "bandwidth_vs_size"
  QString title;
  QString subtitle;  // what the numbers are: device, size, type, which time
  Axis x, y;
  QList<Series> series;
  QStringList warnings;  // drawn in red under the subtitle: wrong results, missing baselines
  // Hints that need a pointer ("lane efficiency: hover a bar"): added to the subtitle on the
  // desk's charts, left out where nobody hovers (presentation mode, exported images).
  QStringList pointer_notes;
  QString empty_hint;  // shown instead of a plot when there is nothing to draw
  // Bars: one stack per category (each series a layer) instead of side by side; no value labels
  // on the bars (the tooltips carry them).
  bool stacked = false;
  // Bars lie along a value axis at the bottom, the category names upright on the left, one row
  // each: where the names stand so close that turned ones would not fit their slots (ChartWidget
  // decides by its width; the chart then asks for the height its rows need).
  bool horizontal_bars = false;
  // Bandwidth charts can be drawn as % of the read floor each point's session measured at its
  // size (the person's toggle). Offered where pct_of_limit_note is set; available when
  // pct_of_limit_available, else the note says why (never an invented roof).
  bool pct_of_limit = false;  // drawn so
  bool pct_of_limit_available = false;
  QString pct_of_limit_note;
  bool empty() const {
    for (const auto& s : series)
      if (s.kind != SeriesKind::Roof && !s.points.isEmpty()) return false;
    return true;
  }
};

}  // namespace rl::gui::charts
