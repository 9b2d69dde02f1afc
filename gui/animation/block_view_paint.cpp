// BlockView's painting: the header with the step's caption, the cells with their values, one
// 32-lane mask strip per warp, the arrows from source to destination, the counters table.
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "animation/block_view.h"
#include "animation/block_view_style.h"

namespace rl::gui {

using namespace block_view_style;

void BlockView::paintEvent(QPaintEvent* event) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  if (!trace_) {
    p.setPen(Qt::darkGray);
    p.drawText(rect(), Qt::AlignCenter, caption_for(0));
    return;
  }
  paint_header(p);
  ensure_layout();
  paint_cells(p, event->rect());
  paint_arrows(p);  // under the strips: lane states stay readable
  paint_strips(p);
  paint_footer(p);
}

void BlockView::paint_header(QPainter& p) const {
  const Trace& t = *trace_;
  const QFontMetrics fm(font());
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(Qt::black);
  const QString title =
      QString("%1 — %2 · B = %3 · U = %4 · %5 workspace · %6")
          .arg(QString::fromStdString(t.label), QString::fromStdString(t.display_name))
          .arg(t.block_size)
          .arg(t.unroll)
          .arg(QString::fromStdString(std::string(to_string(t.workspace))),
               QString::fromStdString(std::string(to_string(t.type))));
  int y = kMargin;
  const int text_w = width() - 2 * kMargin;
  p.drawText(QRect(kMargin, y, text_w, fm.height()), Qt::AlignLeft,
             QFontMetrics(bold).elidedText(title, Qt::ElideRight, text_w));
  p.setFont(font());
  y += fm.height();
  const TraceStep* s = step_for(frame_);
  QString step_line = frame_ == 0 ? QString("start")
                                  : QString("step %1 of %2: %3")
                                        .arg(frame_)
                                        .arg(frame_count() - 1)
                                        .arg(QString::fromStdString(s->kind));
  if (s && (s->kind == "tree" || s->kind == "last_warp" || s->kind == "skipped"))
    step_line += QString(", stride %1").arg(s->stride);
  step_line += "   ·   source: " + source_text(t);
  p.setPen(QColor(60, 60, 60));
  p.drawText(QRect(kMargin, y, text_w, fm.height()), Qt::AlignLeft,
             fm.elidedText(step_line, Qt::ElideRight, text_w));
  y += fm.height() + 4;
  p.setPen(Qt::black);
  p.drawText(QRect(kMargin, y, width() - 2 * kMargin, layout_.caption_h), Qt::TextWordWrap,
             caption_for(frame_));
}

void BlockView::paint_cells(QPainter& p, const QRect& clip) const {
  const Trace& t = *trace_;
  const int B = t.block_size;
  const TraceStep* s = step_for(frame_);
  const std::vector<double>& now = s ? s->values : t.initial_values;
  const std::vector<double>& before = frame_ > 1 ? t.steps[frame_ - 2].values : t.initial_values;
  const std::vector<bool>& need = needed_[frame_];
  std::vector<char> role(B, 0);  // 1 source, 2 destination
  if (s) {
    for (auto [d, src] : s->ops) {
      if (src < unsigned(B) && role[src] == 0) role[src] = 1;
      if (d < unsigned(B)) role[d] = 2;
    }
  }
  const bool gaps = cell_ >= 6;
  QFont vf = font();
  vf.setPixelSize(std::clamp(cell_ * 3 / 8, 6, 13));
  p.setFont(vf);
  const QFontMetrics fm(vf);
  const bool text = cell_ >= 22;
  const double shown_progress = s && s->kind == "load" ? 1.0 : progress_;
  for (int i = 0; i < B; ++i) {
    const QRect r = cell_rect(i);
    if (!r.intersects(clip)) continue;
    QColor c = need[i] ? kCell : kDim;
    if (role[i] == 2)
      c = blend(c, need[i] ? kDst : kJunk, shown_progress);
    else if (role[i] == 1)
      c = kSrc;
    if (s && s->kind == "load") c = blend(kCell, kDst, 0.5 * shown_progress);
    p.fillRect(gaps ? r.adjusted(0, 0, -1, -1) : r, c);
    if (text) {
      const double v = (role[i] == 2 && shown_progress < 0.5) ? before[i] : now[i];
      const QString str = value_text(v, t.type);
      if (fm.horizontalAdvance(str) <= cell_ - 2) {
        p.setPen(need[i] ? Qt::black : QColor(150, 150, 150));
        p.drawText(r, Qt::AlignCenter, str);
      }
    }
  }
  // Warp labels in the gutter.
  p.setFont(font());
  if (layout_.row_h >= 9) {
    QFont lf = font();
    lf.setPixelSize(std::clamp(layout_.row_h / 2, 7, 12));
    p.setFont(lf);
    p.setPen(QColor(90, 90, 90));
    const int warps_per_row = layout_.columns / 32;
    for (int row = 0; row < layout_.rows; ++row) {
      const int w0 = row * warps_per_row;
      const QString label = warps_per_row == 1
                                ? QString("w%1").arg(w0)
                                : QString("w%1-%2").arg(w0).arg(w0 + warps_per_row - 1);
      p.drawText(QRect(kMargin, layout_.grid_top + row * layout_.row_h, kGutter - 4, layout_.row_h),
                 Qt::AlignRight | Qt::AlignVCenter, label);
    }
    p.setFont(font());
  }
}

void BlockView::paint_strips(QPainter& p) const {
  const Trace& t = *trace_;
  const TraceStep* s = step_for(frame_);
  const int B = t.block_size;
  for (int tid = 0; tid < B; ++tid) {
    const int w = tid / 32, lane = tid % 32;
    QColor c = QColor(235, 235, 235);
    if (s) {
      if (s->masks[w] >> lane & 1u)
        c = acting_color();
      else if (s->exited[w] >> lane & 1u)
        c = exited_color();
      else
        c = masked_color();
    }
    const QRect r = lane_rect(tid);
    p.fillRect(cell_ >= 6 ? r.adjusted(0, 0, -1, 0) : r, c);
  }
  // Warp boundaries inside a row, and the barrier mark at the end of each warp's strip.
  p.setPen(QPen(Qt::black, 1));
  for (int w = 0; w < B / 32; ++w) {
    const QRect first = lane_rect(w * 32), last = lane_rect(w * 32 + 31);
    if (w % (layout_.columns / 32) != 0)
      p.drawLine(first.left(), first.top() - 1, first.left(), first.bottom() + 1);
    if (s && s->barrier)
      p.fillRect(QRect(last.right() - 1, first.top() - cell_ / 3, 3, first.height() + cell_ / 3),
                 kBarrier);
  }
}

void BlockView::paint_arrows(QPainter& p) const {
  const TraceStep* s = step_for(frame_);
  if (!s || s->ops.empty()) return;
  p.setRenderHint(QPainter::Antialiasing, true);
  const std::vector<bool>& need = needed_[frame_];
  const bool heads = s->ops.size() <= 64 && cell_ >= 10;
  const double width = std::clamp(cell_ / 10.0, 1.0, 2.5);
  QPainterPath live, junk;
  QPainterPath* paths[2] = {&junk, &live};
  std::vector<QPointF> tips;
  for (std::size_t k = 0; k < s->ops.size(); ++k) {
    const auto [d, src] = s->ops[k];
    // From the top of the source cell to the top of the destination, arching above the row.
    const QRectF rs(cell_rect(int(src))), rd(cell_rect(int(d)));
    const QPointF a(rs.center().x(), rs.top() + 1), b(rd.center().x(), rd.top() + 1);
    const double lift =
        std::min(std::abs(a.x() - b.x()) * 0.25 + cell_ * 0.4, (layout_.row_h - cell_) * 1.6);
    const QPointF ctrl((a.x() + b.x()) / 2, std::min(a.y(), b.y()) - lift);
    QPainterPath path(a);
    path.quadTo(ctrl, b);
    QPainterPath& out = *paths[d < need.size() && need[d] ? 1 : 0];
    if (progress_ >= 1.0) {
      out.addPath(path);
    } else {
      // Grow the arrow from its source over the transition.
      QPainterPath partial(a);
      const int n = 8;
      for (int i = 1; i <= n; ++i) partial.lineTo(path.pointAtPercent(progress_ * i / n));
      out.addPath(partial);
    }
    if (heads && progress_ >= 1.0) tips.push_back(b);
  }
  QColor faint = kArrow;
  faint.setAlpha(60);
  QColor strong = kArrow;
  strong.setAlpha(s->ops.size() > 128 ? 110 : 200);
  p.strokePath(junk, QPen(faint, width));
  p.strokePath(live, QPen(strong, width));
  p.setPen(Qt::NoPen);
  p.setBrush(strong);
  const double h = std::clamp(cell_ / 5.0, 2.5, 6.0);
  for (const QPointF& b : tips) {
    const QPointF head[3] = {b, b + QPointF(-h, -1.6 * h), b + QPointF(h, -1.6 * h)};
    p.drawPolygon(head, 3);
  }
  p.setRenderHint(QPainter::Antialiasing, false);
}

namespace {

// The counters as a small table from `y` down: this step, the steps so far, the whole launch.
// Returns the y under it.
int paint_counter_table(QPainter& p, const QFontMetrics& fm, int y,
                        const std::pair<QString, StepCounters> (&rows)[3]) {
  constexpr int kColumns = 9;
  const char* heads[] = {"active lanes", "divergent", "idle warps", "exited", "barriers",
                         "syncwarp",     "shuffles",  "loads",      "stores"};
  auto cells = [](const StepCounters& c) {
    return std::array<std::uint64_t, kColumns>{c.active_lanes, c.divergent_lanes, c.idle_warps,
                                               c.exited_warps, c.barriers,        c.warp_syncs,
                                               c.shuffles,     c.loads,           c.stores};
  };
  int label_w = fm.horizontalAdvance(rows[2].first) + 12;  // the launch's, the longest
  std::array<int, kColumns> col_w{};
  for (int c = 0; c < kColumns; ++c) {
    col_w[c] = fm.horizontalAdvance(heads[c]);
    for (const auto& r : rows)
      col_w[c] = std::max(col_w[c], fm.horizontalAdvance(QString::number(cells(r.second)[c])));
    col_w[c] += 10;
  }
  p.setPen(QColor(90, 90, 90));
  int x = kMargin + label_w;
  for (int c = 0; c < kColumns; ++c) {
    p.drawText(QRect(x, y, col_w[c] - 6, fm.height()), Qt::AlignRight, heads[c]);
    x += col_w[c];
  }
  p.setPen(Qt::black);
  for (const auto& r : rows) {
    y += fm.height();
    p.drawText(QRect(kMargin, y, label_w, fm.height()), Qt::AlignLeft, r.first);
    x = kMargin + label_w;
    const auto v = cells(r.second);
    for (int c = 0; c < kColumns; ++c) {
      p.drawText(QRect(x, y, col_w[c] - 6, fm.height()), Qt::AlignRight, QString::number(v[c]));
      x += col_w[c];
    }
  }
  return y + fm.height() + 6;
}

// The colours' legend, one line at `y`.
void paint_legend(QPainter& p, const QFontMetrics& fm, int y) {
  int x = kMargin;
  const struct {
    QColor c;
    const char* name;
  } legend[] = {{BlockView::acting_color(), "acting"},
                {BlockView::masked_color(), "masked off"},
                {BlockView::exited_color(), "exited"},
                {kDst, "written"},
                {kSrc, "read"},
                {kDim, "no longer needed"}};
  for (const auto& item : legend) {
    p.fillRect(QRect(x, y + 3, 10, fm.height() - 6), item.c);
    x += 14;
    p.drawText(QPoint(x, y + fm.ascent()), item.name);
    x += fm.horizontalAdvance(item.name) + 12;
  }
}

}  // namespace

void BlockView::paint_footer(QPainter& p) const {
  const Trace& t = *trace_;
  const QFontMetrics fm(font());
  int y = layout_.grid_top + layout_.rows * layout_.row_h + 4;
  const TraceStep* s = step_for(frame_);
  if (s && s->barrier) {
    p.setPen(QPen(kBarrier, 2, Qt::DashLine));
    p.drawLine(layout_.left, y, layout_.left + layout_.columns * cell_, y);
    p.setPen(kBarrier);
    const int text_w = width() - layout_.left - kMargin;
    p.drawText(QRect(layout_.left, y + 2, text_w, fm.height()), Qt::AlignLeft,
               fm.elidedText(QString("__syncthreads(): all %1 warps wait here until the last "
                                     "arrives")
                                 .arg(t.warps()),
                             Qt::ElideRight, text_w));
  }
  if (compact_) return;
  y += fm.height() + 6;
  const StepCounters none{};
  const QString launch = QString("launch, %1 block%2").arg(t.grid).arg(t.grid == 1 ? "" : "s");
  const std::pair<QString, StepCounters> rows[] = {{"this step", s ? s->counters : none},
                                                   {"so far", cumulative_[frame_]},
                                                   {launch, t.launch_totals}};
  y = paint_counter_table(p, fm, y, rows);
  paint_legend(p, fm, y);
}

}  // namespace rl::gui
