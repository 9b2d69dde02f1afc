// Help > Getting started, Keyboard shortcuts and About: each opens its page, and the shortcuts
// page lists every key the app takes (the window's actions, the animation's keys, the full-screen
// modes' keys), from the same tables the handlers use.
#include <gtest/gtest.h>

#include <QAction>
#include <QDialog>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenuBar>
#include <QShortcut>
#include <QTextBrowser>

#include "app_test_support.h"
#include "engine/core/build_info.h"
#include "help_pages.h"
#include "slide_mode.h"

using namespace rl::gui;

namespace {

QAction* help_action(MainWindow& w, const QString& text) {
  for (QAction* menu : w.menuBar()->actions())
    if (menu->text().remove('&') == "Help")
      for (QAction* a : menu->menu()->actions())
        if (a->text().remove('&') == text) return a;
  return nullptr;
}

QString page_text(MainWindow& w, const char* name) {
  auto* d = w.findChild<QDialog*>(name);
  return d && d->isVisible() ? d->findChild<QTextBrowser*>()->toPlainText() : QString();
}

}  // namespace

TEST(AppHelp, GettingStartedSaysWhatToClickWithAndWithoutAGpu) {
  MainWindow w(test::quiet_options());
  QAction* a = help_action(w, "Getting started");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->shortcut(), QKeySequence(Qt::Key_F1));
  a->trigger();
  const QString text = page_text(w, "help_getting_started");
  for (const char* part : {"What to click first", "Ctrl+R", "Without a GPU", "host emulation",
                           "With an NVIDIA GPU", "Shift+F5", "F5"})
    EXPECT_TRUE(text.contains(part)) << part << "\n" << text.toStdString();
}

TEST(AppHelp, AboutGivesVersionAndCommit) {
  MainWindow w(test::quiet_options());
  QAction* a = help_action(w, "About ReductionLab");
  ASSERT_NE(a, nullptr);
  a->trigger();
  const QString text = page_text(w, "help_about");
  EXPECT_TRUE(text.contains(QString::fromStdString(rl::tool_version()))) << text.toStdString();
  EXPECT_TRUE(text.contains("Commit " + QString::fromStdString(rl::git_commit())))
      << text.toStdString();
}

TEST(AppHelp, KeyboardShortcutsListEveryKeyTheAppTakes) {
  MainWindow w(test::quiet_options());
  QAction* a = help_action(w, "Keyboard shortcuts");
  ASSERT_NE(a, nullptr);
  a->trigger();
  const QString text = page_text(w, "help_keys");
  ASSERT_FALSE(text.isEmpty());
  // Every action of the window with a key, by its key and its name.
  int actions = 0;
  for (const QAction* action : w.findChildren<QAction*>())
    for (const QKeySequence& k : action->shortcuts()) {
      ++actions;
      EXPECT_TRUE(text.contains(k.toString(QKeySequence::NativeText)))
          << action->text().toStdString() << " " << k.toString().toStdString();
      EXPECT_TRUE(text.contains(QString(action->text()).remove('&')))
          << action->text().toStdString();
    }
  EXPECT_GE(actions, 20);
  // The animation's keys, each with what it does.
  int shortcuts = 0;
  for (const QShortcut* s : w.findChildren<QShortcut*>()) {
    ++shortcuts;
    EXPECT_FALSE(s->property("help").toString().isEmpty()) << s->key().toString().toStdString();
    EXPECT_TRUE(text.contains(s->property("help").toString()));
  }
  EXPECT_GE(shortcuts, 10);
  // The full-screen modes' keys, from slide_move's own table: each row's keys give its move.
  for (const char* part : {"Presentation mode", "Story mode", "high contrast", "run this step",
                           "predict, then reveal"})
    EXPECT_TRUE(text.contains(part)) << part;
  for (const KeyHelp& row : slide_key_help()) {
    EXPECT_TRUE(text.contains(row.keys + "\t" + row.what) || text.contains(row.keys))
        << row.keys.toStdString();
    for (const QString& key : row.keys.split(", ")) {
      const QKeySequence seq(key, QKeySequence::NativeText);
      ASSERT_EQ(seq.count(), 1) << key.toStdString();
      const QKeyCombination combo = seq[0];
      const QKeyEvent event(QEvent::KeyPress, combo.key(), combo.keyboardModifiers());
      EXPECT_NE(slide_move(event, 1, 3, 1.0).kind, SlideMove::None) << key.toStdString();
    }
  }
}
