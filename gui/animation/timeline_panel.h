// The measured timeline under the block animation: "Record on GPU" records the animation's
// variant, block size, unroll, workspace, type and N (a job in the app's job list, queued on the
// one GPU worker behind any run: run_worker.h), with a second rung beside it when one is picked;
// both are drawn on one time axis (timeline_view.h) with a summary line each
// (summarize_timeline, and the shown session's counter pass barrier stall for the same point
// where it has one). Without a GPU it says recording needs one and shows the timelines stored in
// the session the window shows (the bundled H200 session at start), or says it holds none.
// A recording is kept in the window's sessions (SessionStore::add_timelines), so that saving the
// session keeps it. Export: PNG or SVG, the summary lines under the drawing.
#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

#include "engine/session/results.h"
#include "engine/trace/measured_timeline.h"
#include "metatypes.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace rl::gui {

class Job;
class JobTracker;
class RunController;
class SessionStore;
class TimelineView;

class TimelinePanel : public QWidget {
  Q_OBJECT
 public:
  explicit TimelinePanel(QWidget* parent = nullptr);
  ~TimelinePanel() override;

  // The app's GPU job queue: its discovery enables "Record on GPU", recordings queue there.
  void set_gpu_jobs(RunController* jobs);
  // Recordings show in the app's job list (and cancel from it).
  void set_job_tracker(JobTracker* tracker);
  // The window's sessions: each recording is kept there (null: shown only).
  void set_store(SessionStore* store);
  // The session the window shows (name: "bundled session", a path): its stored timelines and
  // its counter pass results. Null: none.
  void set_session(std::shared_ptr<const Session> session, const QString& name);
  // What "Record on GPU" records first: the animation's picks. nullopt: they are not valid (why).
  void set_first_request(std::optional<TimelineRequest> r, const QString& why_not = {});
  // Starts a recording; false with the reason in message() when it cannot.
  bool record();
  // The job id of the recording waited for (RunController::record_timelines); 0: none.
  quint64 recording() const { return recording_; }
  // Shows these on one axis (the second may be null), with their summary lines.
  void show_timelines(std::shared_ptr<const MeasuredTimeline> first,
                      std::shared_ptr<const MeasuredTimeline> second);

  TimelineView* view() const { return view_; }
  QString message() const;  // what is shown, or why nothing is
  QStringList summary_lines() const { return summaries_; }
  bool gpu_available() const { return gpu_device_ >= 0; }
  // The view as PNG, or SVG where the path ends in .svg, summary lines under it; false, *error.
  bool export_to(const QString& path, QString* error);

 signals:
  // A step's span was clicked in the timeline of this variant, unroll and block size.
  void step_requested(const QString& variant, int unroll, int block_size, const QString& phase,
                      unsigned index);

 private:
  void build_ui();
  void fill_second_unrolls();
  void fill_stored();
  void show_stored();
  void on_discovery(const Discovery& d);
  void on_recorded(const TimelineRecording& r);
  // Keeps r in the store and shows the session that has it; false without a store. *words:
  // where it was kept, and what was dropped for it.
  bool keep(const TimelineRecording& r, QString* words);
  void update_controls();
  QString gpu_words() const;
  void set_message(const QString& html);
  std::optional<TimelineRequest> second_request() const;

  QPushButton *record_ = nullptr, *export_ = nullptr;
  QComboBox *second_ = nullptr, *second_unroll_ = nullptr, *stored_a_ = nullptr,
            *stored_b_ = nullptr;
  QSpinBox *sm_ = nullptr, *blocks_ = nullptr;
  QWidget* stored_row_ = nullptr;
  QLabel *message_ = nullptr, *summary_ = nullptr;
  TimelineView* view_ = nullptr;
  QStringList summaries_;
  std::optional<TimelineRequest> first_;
  QString first_why_not_;
  bool discovered_ = false;  // the GPU queue's discovery has answered
  int gpu_device_ = -1;
  std::optional<DeviceInfo> gpu_;  // the GPU recordings are made on
  QString no_gpu_reason_;
  QPointer<RunController> jobs_;
  QPointer<JobTracker> tracker_;
  QPointer<SessionStore> store_;
  QPointer<Job> job_;
  quint64 recording_ = 0;
  std::shared_ptr<const Session> session_;
  QString session_name_;
  bool showing_recorded_ = false;
  TimelineRecording recorded_;  // the latest recording's timelines
};

}  // namespace rl::gui
