// The Help menu's pages: Getting started (what to click first, with or without a GPU), Keyboard
// shortcuts and About (version and commit). The shortcuts page is built from what the app really
// takes: the window's actions, the shortcuts of its panels (each with a "help" property) and the
// full-screen modes' key table (slide_mode.h), so it cannot list a key the app no longer has.
#pragma once

#include <QList>
#include <QString>

#include "slide_mode.h"

class QWidget;

namespace rl::gui {

struct KeySection {
  QString title;
  QList<KeyHelp> keys;
};

// Every key window takes, section by section: its menus' actions, its panels' shortcuts, then
// presentation and story mode.
QList<KeySection> keyboard_shortcuts(const QWidget& window);
QString keyboard_shortcuts_html(const QList<KeySection>& sections);

// this_machine: one line on what was found here ("" while the GPUs are being looked for).
QString getting_started_html(const QString& this_machine);

// Version, commit (as every session records them), Qt and the bundled font.
QString about_html();

}  // namespace rl::gui
