// The measured timeline panel's side of what is shown: the session's stored timelines, the
// summary lines, the message that says what is shown or why nothing is, and the export
// (controls and recording: timeline_panel.cpp).
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

#include "animation/timeline_panel.h"
#include "animation/timeline_text.h"
#include "animation/timeline_view.h"
#include "format.h"
#include "run_worker.h"

namespace rl::gui {

namespace {

// "the bundled session", "the live run", "the recorded timelines", "the session big.json"
QString session_words(const QString& name) {
  if (name == "bundled session" || name == "live run" || name == "recorded timelines")
    return "the " + name;
  return "the session " + QFileInfo(name).fileName();
}

}  // namespace

void TimelinePanel::set_session(std::shared_ptr<const Session> session, const QString& name) {
  session_ = std::move(session);
  session_name_ = name;
  fill_stored();
  if (!showing_recorded_)
    show_stored();
  else  // the recording stays; its counter pass neighbour may be in the new session
    show_timelines(recorded_.first, recorded_.second);
  update_controls();
}

void TimelinePanel::fill_stored() {
  const QSignalBlocker a(stored_a_), b(stored_b_);
  stored_a_->clear();
  stored_b_->clear();
  stored_b_->addItem("nothing", -1);
  const int n = session_ ? int(session_->timelines.size()) : 0;
  for (int i = 0; i < n; ++i) {
    const QString text = timeline_text::title(session_->timelines[i]);
    stored_a_->addItem(text, i);
    stored_b_->addItem(text, i);
  }
  stored_row_->setVisible(n > 0);
}

void TimelinePanel::show_stored() {
  const auto pick = [this](QComboBox* c) -> std::shared_ptr<const MeasuredTimeline> {
    const int i = c->currentData().isValid() ? c->currentData().toInt() : -1;
    if (!session_ || i < 0 || i >= int(session_->timelines.size())) return nullptr;
    // Shares the session's ownership: the timeline lives as long as the view shows it.
    return std::shared_ptr<const MeasuredTimeline>(session_, &session_->timelines[i]);
  };
  showing_recorded_ = false;
  show_timelines(pick(stored_a_), pick(stored_b_));
  update_controls();
}

void TimelinePanel::show_timelines(std::shared_ptr<const MeasuredTimeline> first,
                                   std::shared_ptr<const MeasuredTimeline> second) {
  std::vector<std::shared_ptr<const MeasuredTimeline>> shown;
  for (auto& t : {first, second})
    if (t) shown.push_back(t);
  view_->set_timelines(shown);
  summaries_.clear();
  for (int i = 0; i < view_->timeline_count(); ++i) {
    const MeasuredTimeline& t = *view_->timeline(i);
    try {
      std::optional<double> stall;
      // The counters of the same point on the same GPU only.
      if (session_ && session_->device.name == t.device)
        stall = timeline_text::counter_barrier_stall(*session_, t);
      summaries_ << timeline_text::summary_line(t, summarize_timeline(t), stall);
    } catch (const std::exception& e) {
      summaries_ << timeline_text::title(t) + ": " + e.what();
    }
  }
  summary_->setText(summaries_.join('\n'));
  summary_->setVisible(!summaries_.isEmpty());
  view_->set_export_footer(summaries_);
  export_->setEnabled(view_->timeline_count() > 0);
}

// Whether this panel can record, in words: "" where it can.
QString TimelinePanel::gpu_words() const {
  if (!jobs_) return "Recording is not available here (no GPU job queue).";
  if (!discovered_) return "Looking for a GPU to record on...";
  if (gpu_device_ < 0)
    return "Recording a timeline needs a CUDA GPU" +
           (no_gpu_reason_.isEmpty() ? QString(".") : " (" + no_gpu_reason_ + ").");
  return {};
}

void TimelinePanel::update_controls() {
  const QString no_gpu = gpu_words();
  record_->setEnabled(no_gpu.isEmpty() && first_);
  record_->setToolTip(!no_gpu.isEmpty() ? no_gpu
                      : !first_         ? first_why_not_
                                        : QString("records the variant picked above and, when "
                                                          "picked, the rung beside it"));
  if (recording_ != 0) return;  // "Recording..." stays until the result comes
  view_->set_empty_message(no_gpu.isEmpty() ? "No timeline yet: Record on GPU measures one."
                                            : "No timeline to show.");  // the line above says why
  if (showing_recorded_) return;  // a recording's message stays until the next
  QString text = no_gpu.toHtmlEscaped();
  QString words = session_ ? session_words(session_name_).toHtmlEscaped() : QString();
  if (session_ && !session_->timelines.empty())
    text += QString(" Showing the timelines stored in %1, recorded on %2.")
                .arg(words, qstr(session_->timelines.front().device).toHtmlEscaped());
  else if (no_gpu.isEmpty() && !first_)
    text = "Nothing to record: " + first_why_not_.toHtmlEscaped();
  else if (no_gpu.isEmpty())
    text = "Record on GPU measures when each warp of a few blocks runs, waits and ends.";
  else if (session_)
    text +=
        " " + words.replace(0, 1, words.left(1).toUpper()) + " holds no recorded timelines yet.";
  else
    text += " No session is open: no stored timelines to show.";
  set_message(text.trimmed());
}

void TimelinePanel::set_message(const QString& html) {
  message_->setText(html);
  message_->setVisible(!html.isEmpty());
}

QString TimelinePanel::message() const {
  return message_->text();
}

bool TimelinePanel::export_to(const QString& path, QString* error) {
  if (view_->timeline_count() == 0) {
    if (error) *error = "Nothing to export: no timeline is shown.";
    return false;
  }
  const QSize size(std::max(view_->width(), 1200), std::max(view_->height(), 600));
  return QFileInfo(path).suffix().compare("svg", Qt::CaseInsensitive) == 0
             ? view_->export_svg(path, size, error)
             : view_->export_png(path, size, error);
}

}  // namespace rl::gui
