// The mouse wheel changes a setting only on purpose: over a spin box, combo box or slider that
// does not have the keyboard focus, the wheel scrolls what holds it (the experiment form, a
// panel) instead of changing its value. Click the control (or Tab to it) and the wheel works on
// it as usual. Installed once on the application (setup_application), so every control of every
// window, made now or later, behaves alike; each such control gets Qt::StrongFocus (not
// Qt::WheelFocus), so the wheel does not give it the focus either.
#pragma once

#include <QObject>

namespace rl::gui {

class WheelGuard : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  // Installs one guard on the application; a second call does nothing.
  static void install();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace rl::gui
