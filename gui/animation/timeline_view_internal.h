// Internal to TimelineView (timeline_view.cpp: data, layout, pointer; timeline_view_paint.cpp:
// painting and exports): what it keeps per timeline and where its rows are drawn.
#pragma once

#include <QColor>
#include <QFont>
#include <QPoint>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

#include "animation/timeline_text.h"
#include "animation/timeline_view.h"

namespace rl::gui {

struct TimelineView::Row {
  int timeline = 0;
  unsigned slot = 0;  // index into MeasuredTimeline::blocks
  unsigned warp = 0;
  std::vector<const TimelineSpan*> spans;  // this warp's, in time order
};

// One timeline as analysed once (timeline_analysis.h): painting and hovering only read these.
struct TimelineView::Shown {
  std::shared_ptr<const MeasuredTimeline> t;
  std::vector<TimelineSpan> spans;
  std::vector<BarrierTiming> barriers;
  QString problem;                  // why it cannot be drawn ("" when it can)
  std::vector<Row> rows;            // by block slot, then warp
  std::vector<std::string> phases;  // its Work spans' phases, first seen first (the legend)
  double end_ns = 0;                // its latest span's end
};

struct TimelineView::Layout {
  struct Place {
    const Row* row = nullptr;
    int top = 0;
  };
  struct Band {  // a block's header line, then its rows
    const Shown* shown = nullptr;
    unsigned slot = 0;
    int top = 0, rows_top = 0, rows_bottom = 0;
  };
  struct Legend {
    enum Kind { Phase, Wait, Slowest };
    Kind kind = Phase;
    QString text;
    QColor color;
    QPoint at;  // the swatch's top left
  };
  struct Title {
    const Shown* shown = nullptr;
    int top = 0;
  };
  QFont font;
  int line = 0;  // the font's line height
  int margin = 0;
  int left = 0, right = 0;  // the time axis's x range
  int ruler_top = 0, ruler_h = 0;
  int title_h = 0, band_h = 0, row_h = 0;
  int label_every = 1;  // a warp label on every n-th row where rows are thinner than text
  std::vector<Title> titles;
  std::vector<Band> bands;
  std::vector<Place> places;
  std::vector<Legend> legend;
  int rows_top = 0, rows_bottom = 0;
  int legend_top = 0, legend_h = 0;
  int footer_top = 0, footer_h = 0;
  int height = 0;  // what it all needs
};

}  // namespace rl::gui
