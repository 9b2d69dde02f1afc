// The window fits the screen it is on, in every state: at start, during and after a run on the
// host backend, with Sessions shown, in every tab, after presentation and story mode, with the
// Your kernel dock open, on a busy ladder (27 rungs). Run once per screen size by the gui_fit_WxH
// ctests (tests/CMakeLists.txt), which give the offscreen platform a screen of that size; in a
// plain gui_tests run (the offscreen default, 800 x 600) it skips.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMainWindow>
#include <QScreen>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "event_loop_support.h"
#include "presentation.h"
#include "session_files.h"
#include "session_store.h"
#include "story/story_view.h"

using namespace rl::gui;

namespace {

// The size the ctest asked for ("1366x768"), or an empty size in a plain run.
QSize wanted_screen() {
  const QStringList wh = qEnvironmentVariable("RL_TEST_SCREEN").split('x');
  return wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
}

// What a person sees a moment later: the charts' coalesced refresh (ChartsPanel waits 150 ms
// before redrawing) done and the layouts it starts settled. A few event passes alone check the
// charts of the state before.
void settle() {
  rl::gui::test::settle_events(250);
}

QString name_of(const QWidget* w) {
  QString text;
  if (const auto* b = qobject_cast<const QAbstractButton*>(w)) text = b->text();
  if (const auto* l = qobject_cast<const QLabel*>(w)) text = l->text();
  return QString("%1 '%2'").arg(w->metaObject()->className(), text.left(60));
}

// A dock tabified with another whose tab is in front: Qt keeps it "visible" but moves it out of
// sight (nothing of it is drawn), so its contents are not on the screen at all.
bool behind_another_tab(const QWidget* w) {
  for (; w; w = w->parentWidget())
    if (const auto* dock = qobject_cast<const QDockWidget*>(w)) {
      const auto* window = qobject_cast<const QMainWindow*>(dock->parentWidget());
      return window && !window->tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty() &&
             dock->visibleRegion().isEmpty();
    }
  return false;
}

// A control squeezed below the size its text needs, running past the right edge of what holds
// it (a scroll area's viewport included: a form scrolls down, never sideways), or past the
// bottom of what holds it, up to the scroll area it stands in (a row laid out taller than the
// room it was given is clipped).
QStringList cut_controls(const QWidget& window) {
  QStringList cut;
  for (const QWidget* w : window.findChildren<QWidget*>()) {
    if (!w->isVisible() || w->isWindow() || behind_another_tab(w)) continue;
    const auto* label = qobject_cast<const QLabel*>(w);
    const bool control =
        qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QComboBox*>(w) ||
        (label && !label->wordWrap() && !label->text().isEmpty() && label->pixmap().isNull());
    // The docks' float and close buttons: an icon, drawn at the title bar's size by Qt itself.
    // The tab bar's scroll arrows likewise.
    if (!control || w->inherits("QDockWidgetTitleButton") ||
        (w->parentWidget() && w->parentWidget()->inherits("QTabBar")))
      continue;
    if (w->width() < w->minimumSizeHint().width() || w->height() < w->minimumSizeHint().height())
      cut << QString("%1 squeezed to %2x%3, needs %4x%5")
                 .arg(name_of(w))
                 .arg(w->width())
                 .arg(w->height())
                 .arg(w->minimumSizeHint().width())
                 .arg(w->minimumSizeHint().height());
    // Below the bottom of what holds it, up to the scroll area it is in (which scrolls down).
    bool scrolled = false;
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
      const QRect r(w->mapTo(p, QPoint(0, 0)), w->size());
      if (r.left() < -1 || r.right() > p->width() + 1) {
        cut << QString("%1 runs past the edge of %2").arg(name_of(w), p->metaObject()->className());
        break;
      }
      const auto* area =
          p->parentWidget() ? qobject_cast<const QAbstractScrollArea*>(p->parentWidget()) : nullptr;
      scrolled = scrolled || (area && area->viewport() == p);
      if (!scrolled && (r.top() < -1 || r.bottom() > p->height() + 1)) {
        cut << QString("%1 runs past the bottom of %2")
                   .arg(name_of(w), p->metaObject()->className());
        break;
      }
      if (p->isWindow()) break;
    }
  }
  return cut;
}

// Everything that can run past the screen in one state: the window, its docks, the controls, the
// text of the charts on the tab shown.
QStringList problems(MainWindow& w, const QString& state) {
  QStringList found;
  const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
  auto add = [&](const QString& what) { found << state + ": " + what; };
  const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
  if (min.width() > room.width() || min.height() > room.height())
    add(QString("minimum size %1x%2 (experiment panel %3, charts %4, Sessions %5)")
            .arg(min.width())
            .arg(min.height())
            .arg(w.experiment_dock()->minimumSizeHint().width())
            .arg(w.centralWidget()->minimumSizeHint().width())
            .arg(w.sessions_dock()->isVisible() ? w.sessions_dock()->minimumSizeHint().width()
                                                : 0));
  if (!room.contains(w.frameGeometry()))
    add(QString("window at %1x%2+%3+%4").arg(w.width()).arg(w.height()).arg(w.x()).arg(w.y()));
  if (min.width() > room.width()) {  // what asks for the width: each page, the form's parts
    QStringList widths;
    for (int i = 0; i < w.tabs()->count(); ++i)
      widths << QString("%1 %2")
                    .arg(w.tabs()->tabText(i))
                    .arg(w.tabs()->widget(i)->minimumSizeHint().width());
    for (const QWidget* c : w.experiment()->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
      if (c->minimumSizeHint().width() > 250)
        widths << QString("form %1 %2").arg(name_of(c)).arg(c->minimumSizeHint().width());
    // The kernel dock's widest parts, where it is open.
    if (w.kernel_dock()->isVisible())
      for (const QWidget* c : w.kernel_dock()->widget()->findChildren<QWidget*>())
        if (c->isVisible() && c->minimumSizeHint().width() > 300)
          widths << QString("kernel dock %1 %2").arg(name_of(c)).arg(c->minimumSizeHint().width());
    add("widths: " + widths.join(", "));
  }
  for (const QDockWidget* d : w.findChildren<QDockWidget*>())
    if (d->isVisible() && !behind_another_tab(d) &&
        !w.rect().contains(QRect(d->mapTo(&w, QPoint(0, 0)), d->size())))
      add(d->windowTitle() + " panel runs past the window");
  for (const QString& c : cut_controls(w)) add(c);
  for (const auto* chart : w.findChildren<charts::ChartWidget*>())
    if (chart->isVisible())
      for (const QString& c : chart->cut_text()) add(chart->chart().id + ": " + c);
  // Run and Cancel in view, whatever else is shown.
  QToolBar* bar = w.run_toolbar();
  for (QAction* a : bar->actions().mid(0, 2)) {
    const QWidget* button = bar->widgetForAction(a);
    if (!button || !button->isVisible() ||
        !w.rect().contains(QRect(button->mapTo(&w, QPoint(0, 0)), button->size())))
      add(a->iconText() + " not in view");
  }
  return found;
}

QStringList every_tab(MainWindow& w, const QString& state) {
  QStringList found;
  for (int i = 0; i < w.tabs()->count(); ++i) {
    w.tabs()->setCurrentIndex(i);
    settle();
    found << problems(w, state + ", tab " + w.tabs()->tabText(i));
  }
  w.tabs()->setCurrentIndex(0);
  settle();
  return found;
}

}  // namespace

TEST(AppFitScreen, EveryStateFitsTheScreen) {
  const QSize screen = wanted_screen();
  if (screen.isEmpty()) GTEST_SKIP() << "run by the gui_fit_WxH ctests, with a screen size";
  ASSERT_EQ(QGuiApplication::primaryScreen()->availableGeometry().size(), screen);
  MainWindow::Options options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  w.wait_for_bundled_session();
  w.show();
  settle();
  QStringList found = every_tab(w, "at start");

  rl::ExperimentSpec spec = test::tiny_spec();
  spec.sizes = {1000, 4096, 1 << 16};
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(spec);
  w.run();
  ASSERT_TRUE(w.running());
  ASSERT_TRUE(test::wait_until([&] { return w.store()->primary().results.size() >= 1; }, 60000));
  settle();  // what the person sees: the charts laid out after the point's arrival
  found << problems(w, "during a run");
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 60000));
  w.sessions_dock()->show();
  settle();
  found << every_tab(w, "after a run, Sessions shown");

  w.present();
  settle();
  ASSERT_NE(w.presentation(), nullptr);
  for (const QString& c : w.presentation()->chart_widget()->cut_text())
    found << "presentation: " + c;
  QTest::keyClick(w.presentation(), Qt::Key_Equal, Qt::ControlModifier);
  settle();
  for (const QString& c : w.presentation()->chart_widget()->cut_text())
    found << "presentation after Ctrl+=: " + c;
  QTest::keyClick(w.presentation(), Qt::Key_Escape);
  settle();
  found << every_tab(w, "after presentation mode");
  if (QFile::exists(":/stories/seed-ladder.json")) {
    ASSERT_TRUE(w.present_story(":/stories/seed-ladder.json"));
    settle();
    QTest::keyClick(w.story_view(), Qt::Key_Escape);
    settle();
    found << every_tab(w, "after story mode");
  }
  // The Your kernel dock open (Ctrl+Shift+K): beside the Code tab on a wide screen, sharing the
  // experiment form's side on a small one.
  w.kernel_dock()->show();
  w.kernel_dock()->raise();
  settle();
  found << every_tab(w, "Your kernel open");
  w.kernel_dock()->hide();
  settle();
  // A busy ladder: the lab solutions' 27 rungs, every name whole.
  QString error;
  std::optional<rl::Session> busy = read_session_file(":/sessions/h200-lab-solutions.json", &error);
  ASSERT_TRUE(busy.has_value()) << error.toStdString();
  w.store()->set_primary(std::move(*busy), "lab solutions");
  settle();
  found << every_tab(w, "27 rungs");
  EXPECT_TRUE(found.isEmpty()) << found.join("\n").toStdString();
}

// Side by side where both views fit; the second under the first where they do not, never past
// the right edge (the tab at 1366 px with the experiment panel open).
TEST(AppFit, SecondAnimationViewStaysInsideTheTab) {
  BlockAnimationPanel panel;
  ASSERT_TRUE(panel.show_variants("neighbored", "interleaved", 256));
  for (int width : {900, 1100, 2400}) {
    panel.resize(width, 700);
    panel.show();
    settle();
    const QWidget* b = panel.second_view();
    const auto* area =
        qobject_cast<const QAbstractScrollArea*>(b->parentWidget()->parentWidget()->parentWidget());
    ASSERT_NE(area, nullptr);
    const QRect in_view(b->mapTo(area->viewport(), QPoint(0, 0)), b->size());
    EXPECT_LE(in_view.right(), area->viewport()->width()) << width;
    const bool beside = b->x() > panel.first_view()->x();
    EXPECT_EQ(beside, width >= 2400) << width;
  }
}
