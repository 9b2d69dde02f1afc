// The window's Story menu: the stories that ship with the app (resources/stories/, Shift+F5 for
// the classic ladder) and File > Open story... for a presenter's own, each told full screen by a
// StoryView over the session the window shows, with "Run this step now" on the window's GPU job
// queue.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>

#include "main_window.h"
#include "presentation.h"
#include "session_store.h"
#include "story/story_files.h"
#include "story/story_view.h"

namespace rl::gui {

void MainWindow::build_story_menu() {
  QMenu* menu = menuBar()->addMenu("S&tory");
  for (int i = 0; i < int(shipped_stories().size()); ++i) {
    const ShippedStory& s = shipped_stories()[i];
    QAction* a = menu->addAction(s.menu);
    // Like F5, from the window or from a story already on screen (which it replaces).
    if (i == 0) a->setShortcut(QKeySequence("Shift+F5"));
    a->setShortcutContext(Qt::ApplicationShortcut);
    connect(a, &QAction::triggered, this, [this, path = s.path] { present_story(path); });
  }
  // Off by default: a presenter who wants the room to guess turns it on once; remembered.
  predict_action_ = menu->addAction("Predict, then reveal (the room guesses each speed-up)");
  predict_action_->setCheckable(true);
  predict_action_->setChecked(options_.settings && QSettings().value("story/predict").toBool());
  connect(predict_action_, &QAction::toggled, this, [this](bool on) {
    if (options_.settings) QSettings().setValue("story/predict", on);
    if (story_) story_->set_predict(on);
  });
  menu->addSeparator();
  QAction* open = menu->addAction("Open story...");
  connect(open, &QAction::triggered, this, &MainWindow::open_story_interactive);
}

void MainWindow::open_story_interactive() {
  const QString path = QFileDialog::getOpenFileName(this, "Open story (a presenter's JSON)",
                                                    last_dir_, "Stories (*.json);;All files (*)");
  if (!path.isEmpty()) present_story(path);
}

bool MainWindow::present_story(const QString& path) {
  QString error;
  std::optional<Story> story = read_story_file(path, &error);
  if (!story) {
    report_error("Cannot open the story", error);
    return false;
  }
  if (presentation_) presentation_->close();
  if (story_) story_->close();
  if (!path.startsWith(':')) last_dir_ = QFileInfo(path).absolutePath();
  remember_layout();
  story_ = new StoryView(std::move(*story), store_->primary(), controller_, presentation_zoom_);
  connect(story_, &StoryView::zoom_changed, this, [this](double z) {
    presentation_zoom_ = z;
    if (options_.settings) QSettings().setValue("presentation/zoom", z);
  });
  story_->set_predict(predict_action_ && predict_action_->isChecked());
  connect(story_, &StoryView::predict_changed, this, [this](bool on) {
    if (predict_action_) predict_action_->setChecked(on);  // P in the story: remembered too
  });
  connect(story_, &StoryView::closed, this, [this] {
    story_ = nullptr;
    restore_layout();
    activateWindow();
  });
  story_->showFullScreen();
  story_->start();
  return true;
}

}  // namespace rl::gui
