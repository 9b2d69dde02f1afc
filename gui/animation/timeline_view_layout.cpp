// Where the timeline view puts everything for a size and font: the ruler, each timeline's title,
// its block bands and warp rows (as thin as kMinRow before the view scrolls, at most two lines of
// text tall; in an export, never thinner than it reads), the legend flowed over the lines it needs,
// and an export's footer.
#include <QFontMetrics>

#include <algorithm>

#include "animation/timeline_palette.h"
#include "animation/timeline_view_internal.h"

namespace rl::gui {

namespace {
constexpr int kMinRow = 3;           // px
constexpr int kExportRowsPx = 2000;  // px
}  // namespace

TimelineView::Layout TimelineView::layout_for(QSize size, bool for_export) const {
  Layout l;
  l.font = font();
  const QFontMetrics fm(l.font);
  l.line = fm.height();
  l.margin = std::max(4, l.line / 2);
  l.left = l.margin + fm.horizontalAdvance("w31") + l.margin;  // the warp labels' gutter
  l.right = std::max(l.left + 40, size.width() - l.margin - fm.horizontalAdvance("00.0 µs") / 2);
  l.ruler_top = l.margin;
  l.ruler_h = l.line + l.line / 2;
  l.title_h = l.line + l.line / 3;
  l.band_h = l.line + l.line / 4;
  int rows = 0;
  int fixed = l.ruler_top + l.ruler_h;
  for (const auto& s : shown_) {
    fixed += l.title_h;
    if (!s->problem.isEmpty()) {
      fixed += l.title_h;
      continue;
    }
    fixed += int(s->t->blocks.size()) * l.band_h;
    rows += int(s->rows.size());
  }
  // The legend flows over as many lines as the width needs.
  const int swatch = l.line;
  int x = l.margin, lines = 1;
  auto add_entry = [&](Layout::Legend::Kind kind, const QString& text, const QColor& c) {
    const int w = swatch + l.line / 3 + fm.horizontalAdvance(text);
    if (x > l.margin && x + w > size.width() - l.margin) {
      x = l.margin;
      ++lines;
    }
    l.legend.push_back({kind, text, c, QPoint(x, lines - 1)});
    x += w + l.line;
  };
  std::vector<std::string> phases;
  for (const auto& s : shown_)
    for (const std::string& p : s->phases)
      if (std::find(phases.begin(), phases.end(), p) == phases.end()) phases.push_back(p);
  for (const std::string& p : phases)
    add_entry(Layout::Legend::Phase,
              p.empty() ? QString("before any phase") : QString::fromStdString(p),
              timeline_palette::phase_color(QString::fromStdString(p)));
  add_entry(Layout::Legend::Wait, "waiting at __syncthreads()", timeline_palette::wait_fill());
  add_entry(Layout::Legend::Slowest, "slowest warp at a barrier: the others wait for it",
            timeline_palette::slowest_mark());
  l.legend_h = lines * (l.line + l.line / 3);
  fixed += l.margin + l.legend_h + l.margin;
  if (for_export && !footer_.isEmpty()) {
    l.footer_h = fm.boundingRect(QRect(0, 0, std::max(1, size.width() - 2 * l.margin), 100000),
                                 Qt::TextWordWrap, footer_.join('\n'))
                     .height();
    fixed += l.footer_h + l.margin;
  }
  // A file has no scroll bar: its rows stay readable, up to about kExportRowsPx in all.
  const int min_row = for_export && rows > 0 ? std::clamp(kExportRowsPx / rows, kMinRow,
                                                          std::max(kMinRow, l.line * 2 / 3))
                                             : kMinRow;
  l.row_h = rows == 0 ? 0 : std::clamp((size.height() - fixed) / rows, min_row, 2 * l.line);
  l.label_every = 1;
  while (l.row_h > 0 && l.label_every * l.row_h < l.line * 9 / 10 && l.label_every < 32)
    l.label_every *= 2;
  int y = l.ruler_top + l.ruler_h;
  l.rows_top = y;
  for (const auto& s : shown_) {
    l.titles.push_back({s.get(), y});
    y += l.title_h;
    if (!s->problem.isEmpty()) {
      y += l.title_h;
      continue;
    }
    std::size_t r = 0;
    for (unsigned slot = 0; slot < s->t->blocks.size(); ++slot) {
      Layout::Band band{s.get(), slot, y, y + l.band_h, 0};
      y += l.band_h;
      for (; r < s->rows.size() && s->rows[r].slot == slot; ++r) {
        l.places.push_back({&s->rows[r], y});
        y += l.row_h;
      }
      band.rows_bottom = y;
      l.bands.push_back(band);
    }
  }
  l.rows_bottom = y;
  l.legend_top = y + l.margin;
  for (Layout::Legend& e : l.legend)
    e.at = QPoint(e.at.x(), l.legend_top + e.at.y() * (l.line + l.line / 3));
  y = l.legend_top + l.legend_h;
  l.footer_top = y + l.margin;
  if (l.footer_h > 0) y = l.footer_top + l.footer_h;
  l.height = y + l.margin;
  return l;
}

}  // namespace rl::gui
