// The ReductionLab window: experiment panel on the left; chart pages, the results table, the
// device panel and the block animation on the right; a banner saying what session is shown
// and where it came from; the speed-up baseline and the time the charts draw. Owns the run
// controller (worker thread).
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QSize>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "engine/device/device.h"
#include "engine/measure/runner.h"
#include "engine/session/results.h"
#include "export_dialog.h"
#include "jobs/job.h"
#include "remote/remote_host.h"

class QAction;
class QComboBox;
class QDialog;
class QDockWidget;
class QDoubleSpinBox;
class QMenu;
class QLabel;
class QSettings;
class QTabWidget;
class QToolBar;

namespace rl::gui {

class ChartsPanel;
class CodePanel;
class DevicePanel;
class Job;
class JobTracker;
class JobsBar;
class MultiGpuView;
class ExperimentPanel;
class KernelEditorPanel;
class LabSheetBox;
struct UserKernelBuild;
class PresentationView;
class LocalRun;
class RemoteRun;
class ResultsModel;
class ResultsTable;
class RunController;
class SessionStore;
class SessionsPanel;
class StoryView;
struct OpenedSession;

QWidget* scrolled(QWidget* page);  // main_window.cpp

// The H200 session this build carries, shown at start (Options::open_bundled).
extern const char* const kBundledSession;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  struct Options {
    bool dialogs = true;       // errors in message boxes; tests turn them off (see last_error())
    bool settings = true;      // read and write QSettings
    bool discover = true;      // look for GPUs on the worker thread at start
    bool open_bundled = true;  // open ":/sessions/h200-ladder.json" when it exists
    // Where runs keep their checkpoint (checkpoint.json, written after every point) and where
    // the start looks for one to resume. "": $REDUCTIONLAB_CHECKPOINT_DIR, else the app data
    // directory, when `settings` is on; none when it is off (tests never see a real one).
    QString checkpoint_dir;
  };
  MainWindow();
  explicit MainWindow(Options options);
  ~MainWindow() override;

  // Opens a session; on error nothing changes and the error is reported. overlay: add it to
  // the charts beside the primary session instead of replacing it.
  bool open_session(const QString& path, bool overlay = false);
  // The same, read on a thread of its own as a job (jobs/job_tracker.h): the window repaints
  // while a large file is read, the status bar shows the bytes read, and the window takes the
  // session when it is read (what the File menu does). Cancel drops the session read.
  Job* open_session_in_background(const QString& path, bool overlay = false);

  // Files written as jobs (main_window_jobs.cpp): the session is serialized and written on a
  // thread, shared with it rather than copied (SessionStore::hold); the engine's writer writes
  // through a temporary file, so a cancelled or failed save leaves the file as it was. Each
  // returns the job, or null with the error reported where it cannot start.
  Job* start_save_session(const QString& path);
  // The primary session to path and every overlay beside it, named after its device
  // ("run.json", "run-gpu-box-H200.json"): a run on several devices kept whole, for
  // `reductionlab-cli compare`. The paths written go to *written when the job ends.
  Job* start_save_all_sessions(const QString& path, std::shared_ptr<QStringList> written = nullptr);
  Job* start_export_csv(const QString& path, bool samples);  // summary, or raw samples
  // Every chart the shown sessions have, as DIR/<chart>.png: drawn one per turn of the event
  // loop, encoded and written on a thread (jobs/chart_export_job.h).
  Job* start_export_all_charts(const QString& dir, QSize size);
  // The same, waiting for the job with the event loop running (scripts and tests); true when it
  // ended done. The menus start the jobs and return at once.
  bool save_session(const QString& path);
  bool save_all_sessions(const QString& path, QStringList* written = nullptr);
  bool export_summary_csv(const QString& path);
  bool export_samples_csv(const QString& path);
  bool export_chart(const QString& id, const QString& path, QSize size);  // .png or .svg

  // The app's background work, every kind, and its view in the status bar.
  JobTracker* jobs() const { return jobs_; }
  JobsBar* jobs_bar() const { return jobs_bar_; }

  void run();
  void cancel();
  // A run in progress on any device (this machine's job queue or a launcher's).
  bool running() const;

  // Machines reached through a launcher (main_window_remote.cpp; docs/remote.md): saved in the
  // settings, their devices listed with `LAUNCHER CLI devices --json` and shown in the Device
  // box and "Also run on" with the machine's name.
  void add_remote_host(const RemoteHost& host);
  void remove_remote_host(const QString& name);
  const QList<RemoteHost>& remote_hosts() const { return remote_hosts_; }
  void list_remote_devices(const RemoteHost& host);
  // What each machine answered last: its devices, or why there are none ("" while asking).
  QString remote_status(const QString& name) const { return remote_status_.value(name); }

  // A checkpoint of an unfinished run found at start (main_window_resume.cpp): offered in a bar
  // above the charts with Resume / Open as it is / Discard. A damaged one is moved aside.
  QString checkpoint_path() const;  // "" when checkpoints are off
  QWidget* resume_bar() const { return resume_bar_; }
  QString resume_offer() const;  // the bar's text
  bool resume_checkpoint();      // runs the missing points on the same device
  bool open_checkpoint();        // shows the finished points as they are
  void discard_checkpoint();
  // Presentation mode (F5): one chart at a time, full screen, text for a room; F5 again or Esc
  // leaves. The whole app's text size otherwise (Ctrl+= / Ctrl+- / Ctrl+0), remembered.
  void present();
  PresentationView* presentation() const { return presentation_; }
  // Story mode (main_window_story.cpp; gui/story/): a story file (":/stories/seed-ladder.json",
  // or a presenter's own) told step by step, full screen, over the shown session. False, with
  // the error reported, when the file is not a valid story. Shift+F5 presents the classic
  // ladder. Story > Predict, then reveal (P in the story) asks the room before each bar.
  bool present_story(const QString& path);
  StoryView* story_view() const { return story_; }
  void set_text_size(double pt);
  double text_size() const { return text_pt_; }

  ExperimentPanel* experiment() const { return experiment_; }
  RunController* controller() const { return controller_; }
  SessionStore* store() const { return store_; }
  ChartsPanel* charts() const { return charts_; }
  ResultsModel* results_model() const { return model_; }
  ResultsTable* results_table() const { return table_; }
  DevicePanel* device_panel() const { return device_panel_; }
  QTabWidget* tabs() const { return tabs_; }
  MultiGpuView* multi_gpu_view() const { return multi_view_; }
  // Writes the multi-GPU session shown to path (the tab's Save session...) as a job; false with
  // the reason reported where it could not. save_multi_session waits for it.
  Job* start_save_multi_session(const QString& path);
  bool save_multi_session(const QString& path);
  CodePanel* code_panel() const { return code_; }
  SessionsPanel* sessions_panel() const { return sessions_; }
  QDockWidget* sessions_dock() const { return sessions_dock_; }
  QDockWidget* experiment_dock() const { return experiment_dock_; }
  QDockWidget* kernel_dock() const { return kernel_dock_; }
  KernelEditorPanel* kernel_panel() const { return kernel_panel_; }
  // Opens a .cu file in the Your kernel editor (shown), as File > Open kernel... does.
  void open_kernel(const QString& path);
  LabSheetBox* lab_sheet_box() const { return lab_box_; }
  QToolBar* run_toolbar() const { return run_toolbar_; }
  QComboBox* time_basis_box() const { return time_basis_; }
  QString banner_text() const;

  // The Help menu's pages (main_window_help.cpp), each a window of its own.
  enum class HelpPage { GettingStarted, Keys, About };
  QDialog* show_help(HelpPage page);
  QString help_html(HelpPage page) const;
  QString last_error() const { return last_error_; }

  // Returns once the bundled session's job has ended (tests, and --export-charts at start): true
  // when it is in the window.
  bool wait_for_bundled_session();

 signals:
  void error_reported(const QString& message);
  void remote_devices_changed(const QString& host);  // listed, or failed (remote_status says)
  void run_ended();

 protected:
  void closeEvent(QCloseEvent* event) override;
  bool event(QEvent* event) override;  // a maximized window kept within the screen (view.cpp)

 private:
  // Waits for job with the event loop running; true when it ended done (null: false).
  bool wait_for_job(Job* job);
  // The bundled session, read as a job (the window shows at once and fills when it is read);
  // shown unless a run or a file took the window first.
  void open_bundled_session();  // kBundledSession
  QPointer<Job> bundled_job_;
  // Files written on a thread as one job: each made by its function there (main_window_jobs.cpp).
  struct FileToWrite;
  Job* start_writing(JobKind kind, const QString& title, const QString& error_title,
                     std::vector<FileToWrite> files, int holds,
                     std::shared_ptr<QStringList> written);
  // Quitting while jobs run: asks (with dialogs), then cancels them and waits for their threads.
  bool end_jobs_for_quit();
  void cancel_run_work();  // what the run's job does when cancelled (Esc, its Cancel button)
  // The run's job: its title ("Running 12 points on H200") and progress (main_window_jobs.cpp).
  void start_run_job(const ExperimentSpec& spec, const QString& where, bool remote);
  void end_run_job(bool failed, bool cancelled, const QString& message);
  // What open_session and open_session_in_background show, on the GUI thread.
  bool show_opened_session(const QString& path, bool overlay, OpenedSession opened);
  void fit_to_screen();
  void show_tab_of(QWidget* page);
  // The charts page of that title ("Rows and columns"), if there is one.
  void show_charts_page(const QString& title);
  void build_actions();
  void build_file_menu();
  void export_all_charts_interactive();  // File > Export all charts as PNG
  void build_view_menu();
  void build_story_menu();  // main_window_story.cpp
  void build_help_menu();   // main_window_help.cpp
  void build_run_toolbar();
  void open_story_interactive();
  void add_sessions_dock(QMenu* view);  // main_window_view.cpp
  void add_code_view();                 // main_window_code.cpp
  // main_window_user_kernel.cpp: the "Your kernel" dock and what it starts.
  void add_user_kernel_dock(QMenu* view);
  void open_kernel_interactive();
  void open_lab_sheet_interactive();
  void start_user_kernel(const QString& starter, const QString& name, const QString& started_from);
  void compile_user_kernel(const UserKernelSource& k, bool then_run);
  void user_kernel_compiled(const UserKernelBuild& b);
  void run_with_user_kernel(const UserKernelSource& k);
  // The experiment in the form, with what `add` puts in it (a user's rung), on the form's
  // targets: the one start of run() and the kernel dock's Run (main_window_run.cpp).
  void run_experiment(const std::function<void(ExperimentSpec&)>& add);
  void restore_view_settings();
  void remember_layout();    // before a full-screen mode (main_window_view.cpp)
  void restore_layout();     // after it
  void connect_run();        // main_window_run.cpp: the run controller's signals in the window
  void connect_multi_run();  // main_window_multi.cpp: the Several GPUs tab's runs
  void connect_store();
  void update_banner();
  void update_baselines();
  void report_error(const QString& title, const QString& message);
  void restore_settings();
  void save_settings() const;
  QString ask_save_path(const QString& title, const QString& filter, const QString& suggested);
  void export_chart_interactive(const QString& id);
  QWidget* build_resume_bar();  // main_window_resume.cpp
  void offer_checkpoint();
  void start_run(const ExperimentSpec& spec, int device, const DeviceInfo& info,
                 std::optional<Session> resume);
  // Several devices, or a remote one (main_window_remote.cpp): lane 0 is the primary session,
  // the others live overlays; this machine's first device runs in the job queue, a further one
  // in a queue of its own (local_run.h), a remote one through its launcher.
  void start_lanes(const ExperimentSpec& spec, const QList<DeviceTarget>& targets);
  void lane_started(int lane, const DeviceInfo& device);
  void lane_point(int lane, const PointResult& result);
  void lane_progress(int lane, const Progress& progress);
  void lane_finished(int lane, const Session& session, const QString& problem);
  void lane_failed(int lane, const QString& message);
  void finish_lanes();
  bool lane_of_overlay(int overlay) const;  // the overlay is a device of the last lanes run
  // A lane's run, remote or local: the same signals (lane_started, lane_point, ...).
  template <class LaneRun>
  void connect_lane_run(int lane, LaneRun* run);
  // The remote machine a target names; none when it is no longer in Remote machines.
  std::optional<RemoteHost> host_of(const DeviceTarget& target) const;
  DeviceInfo info_of(const DeviceTarget& target) const;
  void show_remote_hosts_dialog();
  void restore_remote_hosts();

  Options options_;
  JobTracker* jobs_;
  SessionStore* store_;
  RunController* controller_;
  ExperimentPanel* experiment_;
  ChartsPanel* charts_;
  ResultsModel* model_;
  ResultsTable* table_;
  DevicePanel* device_panel_;
  MultiGpuView* multi_view_;
  QTabWidget* tabs_;
  QLabel* banner_;
  QComboBox *baseline_, *time_basis_;
  QAction *run_action_, *cancel_action_;
  std::optional<Discovery> discovery_;
  std::optional<int> wanted_device_;  // from settings, applied once GPUs are known
  // From settings: a remote Device and the Also run on ticks, applied once their machines
  // have listed their devices (apply_wanted_devices).
  std::optional<DeviceTarget> wanted_target_;
  QList<DeviceTarget> wanted_also_;
  void apply_wanted_devices();
  void restore_wanted_devices(QSettings& settings);
  void save_wanted_devices(QSettings& settings) const;
  QString last_error_, last_dir_;
  QSize export_size_ = kDefaultExportSize;
  QElapsedTimer run_clock_;
  QStringList run_notices_;
  JobsBar* jobs_bar_ = nullptr;
  QPointer<Job> run_job_;  // the run in progress, local or on several devices  // what became of
                           // the GPU worker during the run (RunController::notice)
  CodePanel* code_ = nullptr;
  SessionsPanel* sessions_ = nullptr;
  QDockWidget* sessions_dock_ = nullptr;
  QDockWidget* kernel_dock_ = nullptr;
  KernelEditorPanel* kernel_panel_ = nullptr;
  LabSheetBox* lab_box_ = nullptr;
  std::pair<QString, QString> user_starter_;  // the editor's starting text: label, text
  bool run_after_compile_ = false;
  QDoubleSpinBox* kernel_limit_ = nullptr;  // the spec's user_kernel_limit_s for the rung's runs
  QDockWidget* experiment_dock_ = nullptr;
  QToolBar* run_toolbar_ = nullptr;
  bool sessions_offered_ = false;  // the list was shown once when a second session opened
  PresentationView* presentation_ = nullptr;  // deletes itself when closed
  StoryView* story_ = nullptr;                // deletes itself when closed
  QAction* predict_action_ = nullptr;         // Story > Predict, then reveal (remembered)
  QAction* present_action_ = nullptr;
  double presentation_zoom_ = 1.0;
  std::pair<QByteArray, QByteArray> layout_before_mode_;  // geometry, state
  bool presentation_contrast_ = true;  // presentation mode's high-contrast look (H toggles)
  double text_pt_ = 9.5;
  QWidget* resume_bar_ = nullptr;
  QLabel* resume_text_ = nullptr;
  QWidget *resume_button_ = nullptr, *open_button_ = nullptr, *discard_button_ = nullptr;
  std::optional<Session> checkpoint_;  // the offered one

  struct Lane {
    DeviceTarget target;
    QString label;
    RemoteRun* remote = nullptr;  // a device reached through a launcher
    LocalRun* local = nullptr;    // a further device of this machine, in a queue of its own
                                  // (both null: this machine's job queue, controller_)
    int overlay = -1;             // the store's overlay; -1 for lane 0 (the primary)
    Progress progress;
    bool done = false;
    QString problem;
    std::size_t points = 0;
  };
  std::vector<Lane> lanes_;  // empty: a plain run on this machine (start_run)
  int local_lane_ = -1;
  QList<RemoteHost> remote_hosts_;
  QHash<QString, QString> remote_status_;
};

}  // namespace rl::gui
