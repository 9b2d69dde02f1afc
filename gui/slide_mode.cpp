#include "slide_mode.h"

#include <QApplication>
#include <QKeyEvent>
#include <QKeySequence>
#include <QPalette>
#include <QScreen>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace rl::gui {

namespace {

constexpr double kZoomStep = 1.15;  // one Ctrl+= or Ctrl+-

SlideMove show(int index) {
  return {.kind = SlideMove::Show, .index = index};
}

// The factor n steps from zoom: computed from the whole number of steps zoom is away from 1,
// never by multiplying the factor shown, so n steps up then n down give the factor back exactly.
SlideMove zoom_steps(double zoom, int n) {
  const int now = int(std::lround(std::log(clamp_slide_zoom(zoom)) / std::log(kZoomStep)));
  return {.kind = SlideMove::Zoom, .zoom = std::pow(kZoomStep, now + n)};
}

// What each shared key asks; a row per key, in the order the Keyboard shortcuts page lists them.
struct SlideKeyRow {
  Qt::Key key;
  bool ctrl;  // the text keys only with Ctrl: plain = and - are left to the view
  enum Action { Next, Back, First, Last, Leave, Larger, Smaller, Normal } action;
  const char* what;
};

constexpr SlideKeyRow kSlideKeys[] = {
    {Qt::Key_PageDown, false, SlideKeyRow::Next, "next"},
    {Qt::Key_Space, false, SlideKeyRow::Next, "next"},
    {Qt::Key_Right, false, SlideKeyRow::Next, "next"},
    {Qt::Key_Down, false, SlideKeyRow::Next, "next"},
    {Qt::Key_PageUp, false, SlideKeyRow::Back, "back"},
    {Qt::Key_Backspace, false, SlideKeyRow::Back, "back"},
    {Qt::Key_Left, false, SlideKeyRow::Back, "back"},
    {Qt::Key_Up, false, SlideKeyRow::Back, "back"},
    {Qt::Key_Home, false, SlideKeyRow::First, "the first"},
    {Qt::Key_End, false, SlideKeyRow::Last, "the last"},
    {Qt::Key_Escape, false, SlideKeyRow::Leave, "leave"},
    {Qt::Key_F5, false, SlideKeyRow::Leave, "leave"},
    {Qt::Key_Equal, true, SlideKeyRow::Larger, "larger text"},
    {Qt::Key_Plus, true, SlideKeyRow::Larger, "larger text"},
    {Qt::Key_Minus, true, SlideKeyRow::Smaller, "smaller text"},
    {Qt::Key_0, true, SlideKeyRow::Normal, "normal text size"},
};

}  // namespace

SlideMove slide_move(const QKeyEvent& event, int index, int count, double zoom) {
  const bool ctrl = event.modifiers() & Qt::ControlModifier;
  for (const SlideKeyRow& row : kSlideKeys) {
    if (row.key != event.key() || (row.ctrl && !ctrl)) continue;
    switch (row.action) {
      case SlideKeyRow::Next:
        return show(index + 1);
      case SlideKeyRow::Back:
        return show(index - 1);
      case SlideKeyRow::First:
        return show(0);
      case SlideKeyRow::Last:
        return show(count - 1);
      case SlideKeyRow::Leave:
        return {.kind = SlideMove::Leave};
      case SlideKeyRow::Larger:
        return zoom_steps(zoom, +1);
      case SlideKeyRow::Smaller:
        return zoom_steps(zoom, -1);
      case SlideKeyRow::Normal:
        return {.kind = SlideMove::Zoom, .zoom = 1.0};
    }
  }
  return {};
}

QList<KeyHelp> slide_key_help() {
  QList<KeyHelp> rows;
  for (const SlideKeyRow& row : kSlideKeys) {
    const QString key =
        QKeySequence(QKeyCombination(row.ctrl ? Qt::ControlModifier : Qt::NoModifier, row.key))
            .toString(QKeySequence::NativeText);
    // Keys that do the same thing share a row: "PgDown, Space, Right, Down: next".
    if (!rows.isEmpty() && rows.back().what == row.what)
      rows.back().keys += ", " + key;
    else
      rows.append({key, row.what});
  }
  return rows;
}

bool handle_slide_key(const QKeyEvent& event, QWidget* view, const SlideControls& controls) {
  const SlideMove move = slide_move(event, controls.index, controls.count, controls.zoom);
  switch (move.kind) {
    case SlideMove::Show:
      controls.show(move.index);
      return true;
    case SlideMove::Zoom:
      controls.set_zoom(move.zoom);
      return true;
    case SlideMove::Leave:
      view->close();
      return true;
    case SlideMove::None:
      break;
  }
  return false;
}

double clamp_slide_zoom(double zoom) {
  return std::clamp(zoom, 0.5, 3.0);
}

bool change_slide_zoom(double& zoom, double wanted) {
  wanted = clamp_slide_zoom(wanted);
  if (wanted == zoom) return false;
  zoom = wanted;
  return true;
}

double presentation_point_size(int screen_height, double zoom) {
  return std::max(12.0, std::round(screen_height / 54.0 * zoom * 2) / 2);
}

QFont slide_font(const QWidget& view, const QFont& base, double zoom) {
  const QScreen* s = view.screen() ? view.screen() : QApplication::primaryScreen();
  QFont f = base;
  f.setPointSizeF(presentation_point_size(s ? s->geometry().height() : 1080, zoom));
  return f;
}

void set_slide_look(QWidget* view) {
  view->setAttribute(Qt::WA_DeleteOnClose);
  view->setAutoFillBackground(true);
  QPalette p = view->palette();
  p.setColor(QPalette::Window, Qt::white);
  p.setColor(QPalette::WindowText, Qt::black);
  view->setPalette(p);
  view->setFocusPolicy(Qt::StrongFocus);
}

}  // namespace rl::gui
