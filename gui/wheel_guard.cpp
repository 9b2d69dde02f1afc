#include "wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QSlider>
#include <QWheelEvent>

namespace rl::gui {

namespace {

bool guarded(const QObject* o) {
  return qobject_cast<const QAbstractSpinBox*>(o) || qobject_cast<const QComboBox*>(o) ||
         qobject_cast<const QSlider*>(o);
}

}  // namespace

void WheelGuard::install() {
  if (qApp->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly)) return;
  qApp->installEventFilter(new WheelGuard(qApp));
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  if (!guarded(watched)) return false;
  auto* w = static_cast<QWidget*>(watched);
  if (event->type() == QEvent::Polish) {
    if (w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  if (event->type() != QEvent::Wheel || w->hasFocus()) return false;
  // To the scroll area that holds the control, as if the wheel had turned over its background.
  // Sent on, not left to propagate: Qt hands only a spontaneous wheel event to the parent.
  for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
    auto* area = qobject_cast<QAbstractScrollArea*>(p);
    if (!area) continue;
    const auto* wheel = static_cast<QWheelEvent*>(event);
    const QPointF at = area->viewport()->mapFromGlobal(wheel->globalPosition());
    QWheelEvent moved(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                      wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted());
    QCoreApplication::sendEvent(area->viewport(), &moved);
    return true;
  }
  event->ignore();  // no scroll area: the value stays, the window ignores the wheel
  return true;
}

}  // namespace rl::gui
