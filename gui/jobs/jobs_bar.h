// The window's one view of its background work: in the status bar, the job in progress (its title,
// a progress bar, how many more run beside it) and a Cancel button for it; hidden while nothing
// runs. Every job of the tracker shows here the same way; the tooltip lists them all.
#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace rl::gui {

class Job;
class JobTracker;

class JobsBar : public QWidget {
  Q_OBJECT
 public:
  explicit JobsBar(JobTracker* tracker, QWidget* parent = nullptr);

  Job* shown_job() const { return shown_; }
  QString text() const;  // what the label says, whole (it may be elided on screen)
  QProgressBar* bar() const { return bar_; }
  QPushButton* cancel_button() const { return cancel_; }

 private:
  void update_view();
  JobTracker* tracker_;
  QPointer<Job> shown_;
  QLabel* label_;
  QProgressBar* bar_;
  QPushButton* cancel_;
  QString text_;
};

}  // namespace rl::gui
