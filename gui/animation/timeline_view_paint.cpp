// Paints the timeline view (layout and pointer: timeline_view.cpp) on the widget or, for an
// export, on an image or an SVG of any size: the ruler, each timeline's title, the block bands
// with their warps' spans, the barriers' slowest warps, the legend and the export's footer.
#include <QBuffer>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>

#include "animation/timeline_palette.h"
#include "animation/timeline_view_internal.h"

namespace rl::gui {

namespace pal = timeline_palette;

namespace {

void fill_wait(QPainter& p, const QRectF& r) {
  p.fillRect(r, pal::wait_fill());
  if (r.height() >= 4) p.fillRect(r, QBrush(pal::wait_hatch(), Qt::BDiagPattern));
}

// A downward triangle whose tip is at `tip`.
void slowest_triangle(QPainter& p, QPointF tip, double size) {
  QPainterPath path;
  path.moveTo(tip);
  path.lineTo(tip.x() - size / 2, tip.y() - size);
  path.lineTo(tip.x() + size / 2, tip.y() - size);
  path.closeSubpath();
  p.setPen(QPen(Qt::white, 1));
  p.setBrush(pal::slowest_mark());
  p.drawPath(path);
}

}  // namespace

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paint(p, size(), false);
}

void TimelineView::paint(QPainter& p, QSize size, bool for_export) const {
  p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
  p.setFont(font());
  p.setPen(pal::text());
  if (shown_.empty()) {
    const int m = QFontMetrics(font()).height();
    p.setPen(pal::muted_text());
    p.drawText(QRect(m, m, size.width() - 2 * m, size.height() - 2 * m),
               Qt::AlignCenter | Qt::TextWordWrap, empty_message_);
    return;
  }
  const Layout l = layout_for(size, for_export);
  paint_ruler(p, l);
  const QFontMetrics fm(l.font);
  QFont bold = l.font;
  bold.setBold(true);
  for (const Layout::Title& t : l.titles) {
    p.setFont(bold);
    p.setPen(pal::text());
    const QRect r(l.margin, t.top, size.width() - 2 * l.margin, l.title_h);
    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(timeline_text::title(*t.shown->t), Qt::ElideRight,
                                             r.width()));
    p.setFont(l.font);
    if (!t.shown->problem.isEmpty()) {
      p.setPen(pal::slowest_mark());
      p.drawText(r.translated(0, l.title_h), Qt::AlignLeft | Qt::AlignVCenter,
                 fm.elidedText(t.shown->problem, Qt::ElideRight, r.width()));
    }
  }
  for (const Layout::Band& b : l.bands) {
    const QRect r(l.margin, b.top, size.width() - 2 * l.margin, l.band_h);
    p.fillRect(r, pal::band_fill());
    p.setPen(pal::muted_text());
    p.drawText(r.adjusted(l.margin / 2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
               timeline_text::band(*b.shown->t, b.slot) +
                   QString("  (%1 warps)").arg(b.shown->t->blocks[b.slot].warps.size()));
  }
  paint_rows(p, l);
  paint_barriers(p, l);
  paint_legend(p, l);
  if (l.footer_h > 0) {
    p.setPen(pal::text());
    p.drawText(QRect(l.margin, l.footer_top, size.width() - 2 * l.margin, l.footer_h),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, footer_.join('\n'));
  }
}

void TimelineView::paint_ruler(QPainter& p, const Layout& l) const {
  const QFontMetrics fm(l.font);
  const double per_px = (view_end_ - view_start_) / std::max(1, l.right - l.left);
  const double step =
      timeline_text::nice_step(per_px * (fm.horizontalAdvance("0000.00 µs") + l.line));
  const int base = l.ruler_top + l.ruler_h;
  p.setPen(pal::muted_text());
  p.drawLine(l.left, base, l.right, base);
  for (double t = std::ceil(view_start_ / step) * step; t <= view_end_ + step * 1e-9; t += step) {
    const int x = int(std::lround(x_of(l, t)));
    p.setPen(pal::grid_line());
    p.drawLine(x, base, x, l.rows_bottom);
    p.setPen(pal::muted_text());
    p.drawLine(x, base - l.line / 3, x, base);
    const QString text = timeline_text::tick(t, step);
    const int w = fm.horizontalAdvance(text);
    // Whole labels: the first and last kept inside the view.
    const int left = std::clamp(x - w / 2, 0, std::max(0, l.right + l.margin - w));
    p.drawText(QRect(left, l.ruler_top, w + 1, l.line), Qt::AlignCenter, text);
  }
}

void TimelineView::paint_rows(QPainter& p, const Layout& l) const {
  const QFontMetrics fm(l.font);
  const int gap = l.row_h >= 6 ? 1 : 0;
  p.setPen(pal::muted_text());
  for (const Layout::Place& pl : l.places) {
    if (pl.row->warp % unsigned(l.label_every) != 0) continue;
    const QRect r(l.margin, pl.top + l.row_h / 2 - l.line / 2, l.left - l.margin - l.margin / 2,
                  l.line);
    p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, QString("w%1").arg(pl.row->warp));
  }
  p.save();
  p.setClipRect(QRect(l.left, l.rows_top, l.right - l.left + 1, l.rows_bottom - l.rows_top));
  const bool strides = l.row_h >= fm.height() * 4 / 5;
  for (const Layout::Place& pl : l.places) {
    for (const TimelineSpan* s : pl.row->spans) {
      const double x0 = x_of(l, s->start_ns), x1 = x_of(l, s->end_ns);
      if (x1 < l.left || x0 > l.right) continue;
      const QRectF r(x0, pl.top + gap, std::max(1.0, x1 - x0), l.row_h - gap);
      if (s->kind == TimelineSpan::Kind::BarrierWait) {
        fill_wait(p, r);
        continue;
      }
      p.fillRect(r, pal::phase_color(QString::fromStdString(s->phase)));
      // A tree or last-warp step's stride inside it, where the row holds text and the span its
      // width: which step is which, without hovering.
      if (strides && (s->phase == "tree" || s->phase == "last warp")) {
        const QString stride = QString::number(s->index);
        if (fm.horizontalAdvance(stride) + 4 <= r.width()) {
          p.setPen(Qt::white);
          p.drawText(r, Qt::AlignCenter, stride);
        }
      }
    }
  }
  p.restore();
}

void TimelineView::paint_barriers(QPainter& p, const Layout& l) const {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.setClipRect(QRect(l.left - l.line, l.rows_top, l.right - l.left + 2 * l.line,
                      l.rows_bottom - l.rows_top));
  const double tri = std::max(7.0, l.line * 0.6);
  QColor line = pal::slowest_mark();
  line.setAlpha(120);
  for (const Layout::Band& b : l.bands) {
    for (const BarrierTiming& bt : b.shown->barriers) {
      if (bt.block_slot != b.slot) continue;
      const double x = x_of(l, bt.last_arrival_ns);
      if (x < l.left - 1 || x > l.right + 1) continue;
      p.setPen(QPen(line, 1, Qt::DashLine));
      p.drawLine(QPointF(x, b.rows_top), QPointF(x, b.rows_bottom));
      for (const Layout::Place& pl : l.places)
        if (pl.row->timeline == b.shown->rows.front().timeline && pl.row->slot == b.slot &&
            pl.row->warp == bt.slowest_warp)
          slowest_triangle(p, QPointF(x, pl.top + l.row_h / 2.0), tri);
    }
  }
  p.restore();
}

void TimelineView::paint_legend(QPainter& p, const Layout& l) const {
  const QFontMetrics fm(l.font);
  const int sw = l.line * 4 / 5;
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  for (const Layout::Legend& e : l.legend) {
    const QRectF box(e.at.x(), e.at.y() + (l.line - sw) / 2.0, sw, sw);
    if (e.kind == Layout::Legend::Phase) p.fillRect(box, e.color);
    if (e.kind == Layout::Legend::Wait) {
      fill_wait(p, box);
      p.setPen(pal::wait_hatch());
      p.setBrush(Qt::NoBrush);
      p.drawRect(box);
    }
    if (e.kind == Layout::Legend::Slowest)
      slowest_triangle(p, QPointF(box.center().x(), box.bottom()), sw);
    p.setPen(pal::text());
    p.drawText(QPointF(e.at.x() + l.line + l.line / 3.0, e.at.y() + fm.ascent()), e.text);
  }
  p.restore();
}

QImage TimelineView::render_image(QSize size) const {
  // Never shorter than everything needs: rows thinner than text scroll on screen, not in a file.
  const QSize whole(size.width(),
                    std::max(size.height(), layout_for(QSize(size.width(), 0), true).height));
  QImage img(whole, QImage::Format_ARGB32);
  QPainter p(&img);
  paint(p, whole, true);
  return img;
}

namespace {

bool write_bytes(const QString& path, const QByteArray& bytes, QString* error) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
    if (error) *error = QString("Could not write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

}  // namespace

bool TimelineView::export_png(const QString& path, QSize size, QString* error) const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!render_image(size).save(&buffer, "PNG")) {
    if (error) *error = QString("Could not encode %1 as PNG").arg(path);
    return false;
  }
  return write_bytes(path, bytes, error);
}

bool TimelineView::export_svg(const QString& path, QSize size, QString* error) const {
  const QSize whole(size.width(),
                    std::max(size.height(), layout_for(QSize(size.width(), 0), true).height));
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(whole);
  svg.setViewBox(QRect(QPoint(0, 0), whole));
  // Text in points at the PNG's resolution (as the charts' SVG export), not the generator's 72.
  svg.setResolution(QImage(1, 1, QImage::Format_ARGB32).logicalDpiX());
  svg.setTitle("Measured warp timeline");
  QPainter p(&svg);
  paint(p, whole, true);
  p.end();
  return write_bytes(path, bytes, error);
}

}  // namespace rl::gui
