// The window's View menu: the text size of the whole app (Ctrl+= / Ctrl+- / Ctrl+0, remembered),
// presentation mode (F5), which shows one chart at a time full screen for a room, and the
// Sessions list.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QWindow>

#include <algorithm>

#include "main_window.h"
#include "presentation.h"
#include "session_store.h"
#include "sessions_panel.h"
#include "story/story_view.h"

namespace rl::gui {

namespace {
constexpr double kDefaultTextPt = 9.5;  // app_setup's

// The screen's available area less the window's frame (title bar, borders): where the window's
// own geometry may go with its whole frame on screen. setGeometry places the contents, so the
// bare available area puts the title bar above the screen.
QRect room_for_contents(const QWidget& w) {
  const QRect room = w.screen()->availableGeometry();
  const QWindow* handle = w.windowHandle();
  return handle ? room.marginsRemoved(handle->frameMargins()) : room;
}
}  // namespace

void MainWindow::build_view_menu() {
  QMenu* view = menuBar()->addMenu("&View");
  // F5 works from the presentation too (it leaves); the text keys of the window only, so that
  // in the presentation they reach its own zoom.
  auto add = [&](const QString& text, const QList<QKeySequence>& keys, auto slot,
                 Qt::ShortcutContext context = Qt::WindowShortcut) {
    QAction* a = view->addAction(text);
    a->setShortcuts(keys);
    a->setShortcutContext(context);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  present_action_ = add(
      "&Presentation mode", {QKeySequence(Qt::Key_F5)}, [this] { present(); },
      Qt::ApplicationShortcut);
  QAction* form = experiment_dock_->toggleViewAction();
  form->setText("&Experiment panel");
  form->setShortcut(QKeySequence(Qt::Key_F9));
  view->addAction(form);
  add_sessions_dock(view);
  add_user_kernel_dock(view);
  view->addSeparator();
  add("Larger text", {QKeySequence("Ctrl+="), QKeySequence("Ctrl++")},
      [this] { set_text_size(text_pt_ + 1); });
  add("Smaller text", {QKeySequence("Ctrl+-")}, [this] { set_text_size(text_pt_ - 1); });
  add("Normal text size", {QKeySequence("Ctrl+0")}, [this] { set_text_size(kDefaultTextPt); });
  // Every page from the keyboard (a presenter at a lectern, a screenshot script): Ctrl+1 is the
  // first tab (Ladder), Ctrl+9 the ninth; the tab's own name is read when the menu opens.
  QMenu* pages = view->addMenu("Go to &page");
  for (int i = 0; i < 9; ++i) {
    QAction* a = pages->addAction(QString("Page %1").arg(i + 1));
    a->setShortcut(QKeySequence(QString("Ctrl+%1").arg(i + 1)));
    connect(a, &QAction::triggered, this, [this, i] {
      if (i < tabs_->count()) tabs_->setCurrentIndex(i);
    });
  }
  connect(pages, &QMenu::aboutToShow, this, [this, pages] {
    const QList<QAction*> actions = pages->actions();
    for (int i = 0; i < int(actions.size()); ++i) {
      actions[i]->setVisible(i < tabs_->count());
      if (i < tabs_->count()) actions[i]->setText(tabs_->tabText(i).remove('&'));
    }
  });
}

// The Sessions list beside the charts: hidden while one session is open, shown the first time
// a second one opens (a run adds one), then as the person leaves it (Ctrl+Shift+S). On a screen
// narrower than kNarrowScreen it is a tab beside the experiment panel: both panels and the
// charts' two columns side by side would not fit.
void MainWindow::add_sessions_dock(QMenu* view) {
  constexpr int kNarrowScreen = 1300;
  sessions_ = new SessionsPanel(store_);
  sessions_dock_ = new QDockWidget("Sessions", this);
  sessions_dock_->setObjectName("sessions_dock");
  sessions_dock_->setWidget(sessions_);
  const QScreen* screen = QGuiApplication::primaryScreen();
  const bool narrow = !screen || screen->availableGeometry().width() < kNarrowScreen;
  addDockWidget(narrow ? Qt::LeftDockWidgetArea : Qt::RightDockWidgetArea, sessions_dock_);
  if (narrow) tabifyDockWidget(experiment_dock_, sessions_dock_);
  sessions_dock_->hide();
  QAction* toggle = sessions_dock_->toggleViewAction();
  toggle->setText("&Sessions (rename, hide, close, compare)");
  toggle->setShortcut(QKeySequence("Ctrl+Shift+S"));
  view->addAction(toggle);
  connect(store_, &SessionStore::overlays_changed, this, [this] {
    if (sessions_offered_ || store_->open().size() < 2) return;
    sessions_offered_ = true;
    sessions_dock_->show();
    sessions_dock_->raise();  // the front tab where it shares the left side with the form
  });
}

void MainWindow::set_text_size(double pt) {
  if (presentation_) return;  // the presentation has its own size (its Ctrl+= / Ctrl+-)
  text_pt_ = std::clamp(pt, 7.0, 32.0);
  QFont f = QApplication::font();
  if (f.pointSizeF() == text_pt_) return;
  f.setPointSizeF(text_pt_);
  QApplication::setFont(f);
  statusBar()->showMessage(QString("Text size %1 pt (Ctrl+0: normal)").arg(text_pt_), 3000);
  if (options_.settings) QSettings().setValue("view/text_pt", text_pt_);
}

void MainWindow::present() {
  if (presentation_ || story_) {  // F5 leaves either
    if (presentation_) presentation_->close();
    if (story_) story_->close();
    return;
  }
  remember_layout();
  presentation_ = new PresentationView(store_, presentation_zoom_);
  connect(presentation_, &PresentationView::zoom_changed, this, [this](double z) {
    presentation_zoom_ = z;
    if (options_.settings) QSettings().setValue("presentation/zoom", z);
  });
  presentation_->set_high_contrast(presentation_contrast_);
  connect(presentation_, &PresentationView::high_contrast_changed, this, [this](bool on) {
    presentation_contrast_ = on;
    if (options_.settings) QSettings().setValue("presentation/high_contrast", on);
  });
  connect(presentation_, &PresentationView::closed, this, [this] {
    presentation_ = nullptr;
    restore_layout();
    activateWindow();
  });
  presentation_->showFullScreen();
  presentation_->start();
}

// A full-screen mode sets the application font for the room, which grows every widget of the
// window, and a window grows to its minimum size but never shrinks back by itself: the panels'
// sizes and the window's geometry come back as they were when the mode began.
void MainWindow::remember_layout() {
  layout_before_mode_ = {saveGeometry(), saveState()};
}

void MainWindow::restore_layout() {
  if (layout_before_mode_.first.isEmpty()) return;
  layout()->activate();  // the minimum size of the app's own font again, not the room's
  restoreState(layout_before_mode_.second);
  if (isMaximized())  // the screen's area again (a maximized window keeps its state)
    setGeometry(room_for_contents(*this));
  else
    restoreGeometry(layout_before_mode_.first);
  layout_before_mode_ = {};
}

// Leaving a full-screen mode gives the app font back, but widgets' size hints (the charts', the
// form's) follow it a few events later: a window fitted to the screen meanwhile was held wider by
// the room's minimum and would stay so. Once the layout asks again, it comes back within the
// screen's available area (all of it when maximized).
bool MainWindow::event(QEvent* event) {
  const bool done = QMainWindow::event(event);
  if (event->type() == QEvent::LayoutRequest && !isFullScreen() && screen()) {
    const QRect room = screen()->availableGeometry();
    if (!room.contains(frameGeometry())) {
      layout()->invalidate();  // the minimum of the fonts now, not of those the mode had
      layout()->activate();
      const QRect area = room_for_contents(*this);
      QRect inside(geometry().topLeft(), geometry().size().boundedTo(area.size()));
      inside.moveLeft(std::clamp(inside.left(), area.left(), area.right() - inside.width() + 1));
      inside.moveTop(std::clamp(inside.top(), area.top(), area.bottom() - inside.height() + 1));
      setGeometry(isMaximized() ? area : inside);
    }
  }
  return done;
}

void MainWindow::restore_view_settings() {
  if (!options_.settings) return;
  QSettings settings;
  presentation_zoom_ = settings.value("presentation/zoom", 1.0).toDouble();
  presentation_contrast_ = settings.value("presentation/high_contrast", true).toBool();
  const double pt = settings.value("view/text_pt", kDefaultTextPt).toDouble();
  if (pt != kDefaultTextPt) set_text_size(pt);
}

}  // namespace rl::gui
