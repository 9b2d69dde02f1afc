#include "wrap_row.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QResizeEvent>

#include <algorithm>

namespace rl::gui {

WrapRow::WrapRow(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QHBoxLayout* WrapRow::add_part(int stretch) {
  auto* part = new QWidget(this);
  auto* h = new QHBoxLayout(part);
  h->setContentsMargins(0, 0, 0, 0);
  parts_.append({part, stretch});
  updateGeometry();
  return h;
}

QList<QList<int>> WrapRow::flow(int width) const {
  QList<QList<int>> lines;
  int used = 0;
  for (int i = 0; i < int(parts_.size()); ++i) {
    const int w = parts_[i].widget->minimumSizeHint().width();
    if (lines.isEmpty() || used + kSpacing + w > width) {
      lines.append(QList<int>{i});
      used = w;
    } else {
      lines.last().append(i);
      used += kSpacing + w;
    }
  }
  return lines;
}

QSize WrapRow::sizeHint() const {
  int w = 0, h = 0;
  for (const Part& p : parts_) {
    w += (w > 0 ? kSpacing : 0) + p.widget->sizeHint().width();
    h = std::max(h, p.widget->sizeHint().height());
  }
  return {w, h};
}

QSize WrapRow::minimumSizeHint() const {
  int w = 0, h = 0;
  for (const Part& p : parts_) {
    w = std::max(w, p.widget->minimumSizeHint().width());
    h = std::max(h, p.widget->sizeHint().height());
  }
  return {w, h};
}

void WrapRow::place(int width) {
  const QList<QList<int>> lines = flow(width);
  int y = 0;
  for (const QList<int>& line : lines) {
    // Each part its minimum; the spare width first brings the parts toward their preferred
    // widths, then goes to the stretching ones. Parts that do not stretch stand to the left.
    int spare = width - kSpacing * (int(line.size()) - 1), wants = 0, shares = 0, h = 0;
    for (int i : line) {
      const QWidget* part = parts_[i].widget;
      spare -= part->minimumSizeHint().width();
      wants += std::max(0, part->sizeHint().width() - part->minimumSizeHint().width());
      shares += parts_[i].stretch;
      h = std::max(h, part->sizeHint().height());
    }
    const int toward_preferred = std::min(spare, wants);
    const int stretched = spare - toward_preferred;
    int x = 0;
    for (int i : line) {
      QWidget* part = parts_[i].widget;
      const int want = std::max(0, part->sizeHint().width() - part->minimumSizeHint().width());
      int w = part->minimumSizeHint().width() + (wants > 0 ? toward_preferred * want / wants : 0);
      if (shares > 0) w += stretched * parts_[i].stretch / shares;
      part->setGeometry(x, y, std::min(w, width - x), h);
      x += w + kSpacing;
    }
    y += h + kSpacing;
  }
  lines_ = int(lines.size());
  // As tall as its lines: a fixed height the parent's layout keeps (a box layout inside a dock or
  // a scroll area does not ask a child its height for a width).
  const int height = std::max(0, y - kSpacing);
  if (height > 0 && (minimumHeight() != height || maximumHeight() != height))
    setFixedHeight(height);
}

void WrapRow::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  place(event->size().width());
}

// A part's controls changed their hints (a longer item, a new font): the lines may hold fewer
// parts, or more.
bool WrapRow::event(QEvent* event) {
  const bool handled = QWidget::event(event);
  if (event->type() == QEvent::LayoutRequest) {
    updateGeometry();
    place(width());
  }
  return handled;
}

}  // namespace rl::gui
