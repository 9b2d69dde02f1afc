// The timeline view's data (each timeline analysed once) and the pointer: hover text, clicks on a
// step's span, zoom and pan (layout: timeline_view_layout.cpp; painting and exports:
// timeline_view_paint.cpp).
#include <QApplication>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>

#include "animation/timeline_palette.h"
#include "animation/timeline_view_internal.h"

namespace rl::gui {

namespace {

constexpr double kMinWindowNs = 10;  // the most the axis zooms in
constexpr int kPickPx = 3;           // a span this close to the pointer counts as under it

bool is_step_phase(const std::string& phase) {
  return phase == "load" || phase == "tree" || phase == "last warp" || phase == "write";
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  empty_message_ = "No timeline to show.";
}

TimelineView::~TimelineView() = default;

void TimelineView::set_timelines(std::vector<std::shared_ptr<const MeasuredTimeline>> timelines) {
  shown_.clear();
  axis_end_ = 0;
  for (auto& t : timelines) {
    if (!t || shown_.size() == 2) continue;
    auto s = std::make_unique<Shown>();
    s->t = std::move(t);
    try {
      s->spans = timeline_spans(*s->t);
      s->barriers = barrier_timings(*s->t);
    } catch (const std::exception& e) {  // rl::Error names the block and warp
      s->problem = QString("This timeline cannot be drawn: %1").arg(e.what());
      s->spans.clear();
      s->barriers.clear();
    }
    const int index = int(shown_.size());
    std::map<std::pair<unsigned, unsigned>, std::size_t> row_of;
    if (s->problem.isEmpty()) {
      for (unsigned slot = 0; slot < s->t->blocks.size(); ++slot)
        for (const WarpTimeline& w : s->t->blocks[slot].warps) {
          row_of[{slot, w.warp}] = s->rows.size();
          s->rows.push_back(Row{index, slot, w.warp, {}});
        }
    }
    for (const TimelineSpan& span : s->spans) {
      // Two marks at one clock (a warp's Start and its first phase) take no time: nothing to
      // draw or hover, and no legend entry for a phase that never ran.
      if (span.end_clock == span.start_clock) continue;
      const auto it = row_of.find({span.block_slot, span.warp});
      if (it != row_of.end()) s->rows[it->second].spans.push_back(&span);
      s->end_ns = std::max(s->end_ns, span.end_ns);
      if (span.kind == TimelineSpan::Kind::Work &&
          std::find(s->phases.begin(), s->phases.end(), span.phase) == s->phases.end())
        s->phases.push_back(span.phase);
    }
    for (Row& r : s->rows)
      std::stable_sort(
          r.spans.begin(), r.spans.end(),
          [](const TimelineSpan* a, const TimelineSpan* b) { return a->start_ns < b->start_ns; });
    axis_end_ = std::max(axis_end_, s->end_ns);
    shown_.push_back(std::move(s));
  }
  axis_end_ = std::max(axis_end_, kMinWindowNs);
  reset_zoom();
  updateGeometry();
}

const MeasuredTimeline* TimelineView::timeline(int i) const {
  return i >= 0 && i < int(shown_.size()) ? shown_[i]->t.get() : nullptr;
}

QString TimelineView::problem(int i) const {
  return i >= 0 && i < int(shown_.size()) ? shown_[i]->problem : QString();
}

void TimelineView::set_empty_message(const QString& text) {
  empty_message_ = text;
  update();
}

int TimelineView::row_count() const {
  int n = 0;
  for (const auto& s : shown_) n += int(s->rows.size());
  return n;
}

double TimelineView::x_of(const Layout& l, double ns) const {
  return l.left + (ns - view_start_) / (view_end_ - view_start_) * (l.right - l.left);
}

TimelineView::Hit TimelineView::hit_at(const QPoint& p) const {
  if (shown_.empty()) return {};
  const Layout l = layout_for(size(), false);
  if (p.x() < l.left - kPickPx || p.x() > l.right + kPickPx) return {};
  const auto place = std::find_if(l.places.begin(), l.places.end(), [&](const Layout::Place& pl) {
    return p.y() >= pl.top && p.y() < pl.top + l.row_h;
  });
  if (place == l.places.end()) return {};
  const double per_px = (view_end_ - view_start_) / std::max(1, l.right - l.left);
  const double ns = view_start_ + (p.x() - l.left) * per_px;
  const TimelineSpan* best = nullptr;
  double best_gap = kPickPx * per_px;
  for (const TimelineSpan* s : place->row->spans) {
    const double gap = ns < s->start_ns ? s->start_ns - ns : ns > s->end_ns ? ns - s->end_ns : 0;
    if (gap <= best_gap) {
      best = s;
      best_gap = gap;
      if (gap == 0) break;
    }
  }
  if (!best) return {};
  return {shown_[place->row->timeline].get(), place->row, best};
}

std::optional<QPoint> TimelineView::point_at(int timeline, unsigned slot, unsigned warp,
                                             double ns) const {
  const Layout l = layout_for(size(), false);
  for (const Layout::Place& pl : l.places)
    if (pl.row->timeline == timeline && pl.row->slot == slot && pl.row->warp == warp)
      return QPoint(int(std::lround(x_of(l, ns))), pl.top + l.row_h / 2);
  return std::nullopt;
}

QString TimelineView::text_at(const QPoint& p) const {
  const Hit h = hit_at(p);
  if (!h.span) return {};
  const BarrierTiming* barrier = nullptr;
  if (h.span->kind == TimelineSpan::Kind::BarrierWait)
    for (const BarrierTiming& b : h.shown->barriers)
      if (b.block_slot == h.span->block_slot && b.ordinal == h.span->index) barrier = &b;
  return timeline_text::span_tooltip(*h.shown->t, *h.span, barrier);
}

void TimelineView::set_visible_range(double start_ns, double end_ns) {
  double len = std::clamp(end_ns - start_ns, std::min(kMinWindowNs, axis_end_), axis_end_);
  view_start_ = std::clamp(start_ns, 0.0, axis_end_ - len);
  view_end_ = view_start_ + len;
  update();
}

void TimelineView::reset_zoom() {
  set_visible_range(0, axis_end_);
}

QSize TimelineView::sizeHint() const {
  return {900, std::max(200, layout_for(QSize(900, 1 << 20), false).height)};
}

QSize TimelineView::minimumSizeHint() const {
  if (shown_.empty()) return {320, 3 * fontMetrics().height()};  // its message
  return {320, layout_for(QSize(320, 0), false).height};
}

bool TimelineView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    QString text = text_at(help->pos());
    if (text.isEmpty() && !shown_.empty())  // between the spans: how to move around
      text =
          "Ctrl+wheel: zoom around the pointer · Shift+wheel: pan · double click: the whole "
          "time axis · click a load, tree, last warp or write span: that step in the animation";
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
  const Hit h = event->button() == Qt::LeftButton ? hit_at(event->pos()) : Hit{};
  if (h.span && h.span->kind == TimelineSpan::Kind::Work && is_step_phase(h.span->phase)) {
    emit step_requested(h.row->timeline, QString::fromStdString(h.span->phase), h.span->index);
    return;
  }
  QWidget::mousePressEvent(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
  // A hand over what a click steps the animation to.
  const Hit h = hit_at(event->pos());
  const bool steps =
      h.span && h.span->kind == TimelineSpan::Kind::Work && is_step_phase(h.span->phase);
  setCursor(steps ? Qt::PointingHandCursor : Qt::ArrowCursor);
  QWidget::mouseMoveEvent(event);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
  reset_zoom();
  QWidget::mouseDoubleClickEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
  const Layout l = layout_for(size(), false);
  const double len = view_end_ - view_start_;
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    const double at =
        view_start_ + (event->position().x() - l.left) / std::max(1, l.right - l.left) * len;
    const double f = std::pow(1.25, -steps);
    set_visible_range(at - (at - view_start_) * f, at + (view_end_ - at) * f);
  } else if ((event->modifiers() & Qt::ShiftModifier) || event->angleDelta().x() != 0) {
    const double d =
        (event->angleDelta().x() != 0 ? -event->angleDelta().x() : -event->angleDelta().y()) /
        120.0;
    set_visible_range(view_start_ + d * len / 10, view_end_ + d * len / 10);
  } else {
    event->ignore();  // the scroll area around the view scrolls
    return;
  }
  event->accept();
}

void TimelineView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) updateGeometry();  // rows and labels follow the font
  QWidget::changeEvent(event);
}

}  // namespace rl::gui
