#include "help_pages.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QWidget>

#include "engine/core/build_info.h"

namespace rl::gui {

namespace {

QString key_text(const QList<QKeySequence>& keys) {
  QStringList texts;
  for (const QKeySequence& k : keys) texts << k.toString(QKeySequence::NativeText);
  return texts.join(", ");
}

QString plain(QString text) {
  return text.remove('&');
}

// A menu's actions with keys, submenus under their own name ("View > Go to page > Ladder").
void add_menu_keys(const QMenu& menu, const QString& path, QList<KeyHelp>* rows) {
  for (QAction* a : menu.actions()) {
    if (a->menu()) {
      add_menu_keys(*a->menu(), path + " > " + plain(a->text()), rows);
      continue;
    }
    if (!a->shortcuts().isEmpty())
      rows->append({key_text(a->shortcuts()), path + " > " + plain(a->text())});
  }
}

}  // namespace

QList<KeySection> keyboard_shortcuts(const QWidget& window) {
  QList<KeySection> sections;
  KeySection menus{"The window (its menus)", {}};
  if (const auto* bar = window.findChild<QMenuBar*>())
    for (QAction* a : bar->actions())
      if (a->menu()) add_menu_keys(*a->menu(), plain(a->text()), &menus.keys);
  sections << menus;
  // Actions of a panel (the Results table's copy) and the animation's keys: not in a menu.
  KeySection panels{"Inside a panel (when it has the keyboard focus)", {}};
  for (const QAction* a : window.findChildren<QAction*>()) {
    if (a->shortcuts().isEmpty() || a->menu()) continue;
    bool in_menu = false;
    for (const QObject* w : a->associatedObjects())
      in_menu = in_menu || qobject_cast<const QMenu*>(w);
    if (!in_menu) panels.keys.append({key_text(a->shortcuts()), plain(a->text())});
  }
  for (const QShortcut* s : window.findChildren<QShortcut*>()) {
    const QString what = s->property("help").toString();
    if (!what.isEmpty()) panels.keys.append({key_text(s->keys()), what});
  }
  sections << panels;
  QList<KeyHelp> shared = slide_key_help();
  KeySection presentation{"Presentation mode (F5)", shared};
  presentation.keys.append(
      {QKeySequence(kContrastKey).toString(QKeySequence::NativeText), "high contrast on / off"});
  KeySection story{"Story mode (Story menu, Shift+F5)", shared};
  story.keys.append({QKeySequence(kRunStepKey).toString(QKeySequence::NativeText),
                     "run this step now (on the GPU, or the host backend)"});
  story.keys.append({QKeySequence(kPredictKey).toString(QKeySequence::NativeText),
                     "predict, then reveal on / off: the room guesses the speed-up before each "
                     "bar; type the guess, Enter reveals"});
  sections << presentation << story;
  return sections;
}

QString keyboard_shortcuts_html(const QList<KeySection>& sections) {
  QString html;
  for (const KeySection& s : sections) {
    if (s.keys.isEmpty()) continue;
    html += "<h3>" + s.title.toHtmlEscaped() + "</h3><table cellspacing='0' cellpadding='3'>";
    for (const KeyHelp& k : s.keys)
      html += "<tr><td><b>" + k.keys.toHtmlEscaped() + "</b></td><td>" + k.what.toHtmlEscaped() +
              "</td></tr>";
    html += "</table>";
  }
  return html;
}

QString getting_started_html(const QString& this_machine) {
  QString html =
      "<h2>Getting started</h2>"
      "<p>ReductionLab runs the classic ladder of CUDA parallel-reduction kernels and modern ones, "
      "measures what each optimisation buys, and shows what happens inside a block.</p>";
  if (!this_machine.isEmpty())
    html += "<p><b>This machine:</b> " + this_machine.toHtmlEscaped() + "</p>";
  html +=
      "<h3>What to click first</h3><ol>"
      "<li><b>Ladder</b> (the first tab): the bundled session, measured on an H200 with "
      "reductionlab-cli. Each bar is a rung of the ladder; its tooltip says how it was "
      "measured.</li>"
      "<li><b>Run</b> in the toolbar (Ctrl+R) runs the experiment set in the Experiment panel "
      "(F9 shows or hides it) on the chosen Device. A preset at the top of the panel fills it "
      "in.</li>"
      "<li><b>Inside a block</b>: the block's threads step by step, side by side with another "
      "variant if you like.</li>"
      "<li><b>Code</b>: each kernel's source and what changed from the rung before.</li>"
      "<li><b>Story &gt; The classic ladder</b> (Shift+F5) tells the ladder step by step for a "
      "room; <b>View &gt; Presentation mode</b> (F5) shows one chart at a time, then the "
      "session's measured timelines. Esc leaves "
      "both.</li></ol>"
      "<h3>Without a GPU</h3>"
      "<p>The Device is <b>CPU: host emulation</b>. It runs every kernel's block algorithm on "
      "the CPU: the results are exact and checked, the times are CPU times. They show how the "
      "algorithms differ, not how fast a GPU runs them; the bundled session keeps the GPU's "
      "numbers, and a host session is not compared with a GPU session by default. The charts, "
      "the animation, the code view, stories and exports all work.</p>"
      "<h3>With an NVIDIA GPU</h3>"
      "<p>Pick it in <b>Device</b> (several: tick <b>Also run on</b>). Hardware counters and "
      "per-line samples are ticks in the panel; they need the profiling rights the panel names "
      "when they are missing. <b>View &gt; Sessions</b> (Ctrl+Shift+S) compares two sessions "
      "point by point.</p>"
      "<p>Help &gt; Keyboard shortcuts lists every key.</p>";
  return html;
}

QString about_html() {
  return QString(
             "<h2>ReductionLab %1</h2><p>Commit %2</p>"
             "<p>ReductionLab runs the classic ladder of CUDA parallel-reduction kernels and "
             "modern "
             "ones, measures what each optimisation buys, and shows what happens inside a "
             "block.</p><p>Qt %3. Font: DejaVu Sans (bundled; see "
             "resources/fonts/LICENSE).</p>")
      .arg(QString::fromStdString(tool_version()).toHtmlEscaped(),
           QString::fromStdString(git_commit()).toHtmlEscaped(), qVersion());
}

}  // namespace rl::gui
