#include "jobs/jobs_bar.h"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSizePolicy>

#include "jobs/job_tracker.h"

namespace rl::gui {

namespace {

QString job_line(const Job& job) {
  QString line = job.title();
  if (job.cancelling()) line += " - cancelling...";
  return line;
}

}  // namespace

JobsBar::JobsBar(JobTracker* tracker, QWidget* parent)
    : QWidget(parent),
      tracker_(tracker),
      label_(new QLabel),
      bar_(new QProgressBar),
      cancel_(new QPushButton("Cancel")) {
  setObjectName("jobs_bar");
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_);
  layout->addWidget(bar_);
  layout->addWidget(cancel_);
  // Room for a title at 1024 x 768 beside the status bar's own messages; longer ones are elided
  // and whole in the tooltip.
  label_->setMinimumWidth(label_->fontMetrics().averageCharWidth() * 20);
  label_->setMaximumWidth(label_->fontMetrics().averageCharWidth() * 44);
  bar_->setFixedWidth(bar_->fontMetrics().averageCharWidth() * 18);
  bar_->setTextVisible(true);
  cancel_->setToolTip("Cancel this job (Esc cancels a run)");
  // As wide as its contents: the status bar's message keeps the rest of the line.
  cancel_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
  connect(cancel_, &QPushButton::clicked, this, [this] {
    if (shown_) shown_->cancel();
  });
  connect(tracker_, &JobTracker::started, this, &JobsBar::update_view);
  connect(tracker_, &JobTracker::progress, this, &JobsBar::update_view);
  connect(tracker_, &JobTracker::finished, this, &JobsBar::update_view);
  update_view();
}

QString JobsBar::text() const {
  return text_;
}

void JobsBar::update_view() {
  QList<Job*> jobs;
  for (Job* j : tracker_->running())
    if (j->running()) jobs << j;
  setVisible(!jobs.isEmpty());
  if (jobs.isEmpty()) {
    shown_ = nullptr;
    text_.clear();
    return;
  }
  // The oldest job stays in view while it runs: the bar does not jump between jobs.
  if (!shown_ || !jobs.contains(shown_.data())) shown_ = jobs.front();
  Job& job = *shown_;
  text_ = job_line(job);
  if (jobs.size() > 1) text_ += QString("  (+%1 more)").arg(jobs.size() - 1);
  label_->setText(label_->fontMetrics().elidedText(text_, Qt::ElideMiddle, label_->maximumWidth()));
  QStringList all;
  for (const Job* j : jobs) all << job_kind_name(j->kind()) + ": " + job_line(*j);
  setToolTip(all.join("\n"));
  if (job.indeterminate()) {
    bar_->setRange(0, 0);  // busy: no total known
  } else {
    // Byte counts past int's range are shown in thousandths.
    const double scale = job.total() > 1'000'000 ? 1000.0 / double(job.total()) : 1.0;
    bar_->setRange(0, int(double(job.total()) * scale));
    bar_->setValue(int(double(job.done()) * scale));
  }
  bar_->setFormat(job.indeterminate() ? QString() : "%p%");
  cancel_->setEnabled(job.can_cancel() && !job.cancelling());
}

}  // namespace rl::gui
