#include "slide_mode.h"

#include <QApplication>
#include <QKeyEvent>
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

SlideMove zoom_to(double zoom) {
  return {.kind = SlideMove::Zoom, .zoom = zoom};
}

}  // namespace

SlideMove slide_move(const QKeyEvent& event, int index, int count, double zoom) {
  const bool ctrl = event.modifiers() & Qt::ControlModifier;
  switch (event.key()) {
    case Qt::Key_PageDown:
    case Qt::Key_Space:
    case Qt::Key_Right:
    case Qt::Key_Down:
      return show(index + 1);
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
    case Qt::Key_Left:
    case Qt::Key_Up:
      return show(index - 1);
    case Qt::Key_Home:
      return show(0);
    case Qt::Key_End:
      return show(count - 1);
    case Qt::Key_Escape:
    case Qt::Key_F5:
      return {.kind = SlideMove::Leave};
    // Text size with Ctrl only: plain = and - are left to the view (and QWidget).
    case Qt::Key_Equal:
    case Qt::Key_Plus:
      if (ctrl) return zoom_to(zoom * kZoomStep);
      break;
    case Qt::Key_Minus:
      if (ctrl) return zoom_to(zoom / kZoomStep);
      break;
    case Qt::Key_0:
      if (ctrl) return zoom_to(1.0);
      break;
  }
  return {};
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
