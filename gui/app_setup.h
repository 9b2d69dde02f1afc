// What every QApplication of ReductionLab sets up: its name (QSettings), the bundled DejaVu
// Sans font for UI and charts (so the app and its exported charts look the same on every
// machine, including ones with no fonts installed), the icon, the metatypes, the wheel guard
// (wheel_guard.h).
#pragma once

#include <QString>

namespace rl::gui {

// Loads the fonts from the resources and makes DejaVu Sans the application font. Returns the
// family used, or an empty string when the resources lack the font (the app then keeps Qt's).
QString setup_application(const QString& organization = "ReductionLab");

}  // namespace rl::gui
