// The block animation panel: pickers (variant, block size, unroll, workspace, type, N, block),
// an optional second variant stepping in lock-step beside the first (or aligned by phase:
// engine/views/phase_align.h), transport controls (play, pause, step, scrub, speed, loop, zoom)
// with keyboard shortcuts, PNG export of the current frame or of every frame and an animated
// GIF. "Show: levels above the block" swaps the block views for the hierarchy view (the grid,
// the GPUs' shards and the exchange: engine/views/hierarchy_plan.h), stepped by the same
// transport, with the open multi-GPU session's measured phases beside its steps. Traces come from
// the engine's block model, or are recorded on the GPU by the instrumented kernels, queued on the
// app's one GPU worker (run_worker.h) so they never run during a timed run; the GUI thread never
// waits on them.
#pragma once

#include <QElapsedTimer>
#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

#include "engine/session/multi_results.h"
#include "engine/session/results.h"
#include "engine/trace/trace.h"
#include "engine/views/phase_align.h"
#include "metatypes.h"
#include "run_worker.h"

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QSplitter;
class QVBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QTimer;

namespace rl::gui {

class BlockView;
class HierarchyView;
class Job;
class JobTracker;
class StepSourceStrip;
class TimelinePanel;

class BlockAnimationPanel : public QWidget {
  Q_OBJECT
 public:
  explicit BlockAnimationPanel(QWidget* parent = nullptr);
  ~BlockAnimationPanel() override;

  // The app's GPU job queue (run_worker.h): device discovery's answer enables "recorded on the
  // GPU", and recordings queue there behind any run. Without one, only the block model shows.
  void set_gpu_jobs(RunController* jobs);

  // Programmatic control (tests, presets). Returns false and shows the reason on a bad pick.
  bool show_variants(const QString& first, const QString& second, int block_size,
                     std::optional<int> unroll = std::nullopt,
                     Workspace workspace = Workspace::Global);
  // The matrix the rows variants (row_per_warp, row_per_block) sum: "6x40", "2^10x1000"; the
  // whole-array variants ignore it. Rebuilds the views.
  void set_shape(const QString& shape);
  BlockView* first_view() const { return view_a_; }
  BlockView* second_view() const { return view_b_; }
  bool side_by_side() const;
  int frame() const { return frame_; }
  int frame_count() const;  // the longer of the two traces
  void set_frame(int f);
  void step(int delta);
  bool playing() const;
  void set_playing(bool on);
  QString status_text() const;
  QImage render_frame() const;  // both views as they are now
  // Writes the current frame; false with *error on failure.
  bool export_frame(const QString& path, QString* error = nullptr);
  // Writes frame_0000.png ... for every frame; returns the number written (-1 on error).
  int export_sequence(const QString& directory, QString* error = nullptr);
  // Every frame as one animated GIF (256 colours, the delay from the speed); returns the number
  // of frames written (-1 on error, the file left as it was).
  int export_gif(const QString& path, QString* error = nullptr);
  // The same as a job of the app's tracker (jobs/job_tracker.h): the frames are drawn here, then
  // quantized, encoded and written on the job's thread; the status line says how it ended.
  // Without a tracker (set_job_tracker), export_gif's way.
  void set_job_tracker(JobTracker* tracker);
  Job* start_export_gif(const QString& path);

  // Side by side with different step counts: frames aligned by phase (both views show "last
  // warp" together); the phase label says which phase is shown.
  void set_aligned(bool on);
  bool aligned() const;
  QString phase_text() const;
  // The levels above the block instead of the block views.
  void set_levels_shown(bool on);
  bool levels_shown() const;
  HierarchyView* hierarchy_view() const { return hierarchy_; }
  // false and the reason shown on a bad pick; n: "2^28", "1000003" (empty: 2^28)
  bool set_levels(int gpus, Exchange exchange, const QString& n = QString());
  // The multi-GPU session open in the app (its measured phases sit beside the plan's steps).
  void set_multi_session(const MultiSession& session, const QString& path);
  // The source strip under the views: the first view's kernel, the current step's lines marked.
  StepSourceStrip* source_strip() const { return source_strip_; }
  void set_source_shown(bool on);
  bool source_shown() const;
  // The measured warp timeline under the views (timeline_panel.h), shown by its box: it records
  // what the pickers show; a click on a step's span steps the animation there (step_to).
  TimelinePanel* timeline_panel() const { return timeline_; }
  void set_timeline_shown(bool on);
  bool timeline_shown() const;
  // The session the window shows: its stored timelines and counter pass results.
  void set_session(std::shared_ptr<const Session> session, const QString& name);
  // Shows the step a timeline span was drawn from: "load", "tree" / "last warp" with their
  // stride, "write". False, and the status says why, where no view shows that variant, unroll
  // and block size.
  bool step_to(const QString& variant, int unroll, int block_size, const QString& phase,
               unsigned index);

 signals:
  void source_shown_changed(bool on);  // the "Show source" box (the app remembers it)

 private:
  void build_ui();
  void build_pickers(QVBoxLayout* root);
  void build_compare_row(QVBoxLayout* root);
  void build_views(QVBoxLayout* root);
  void build_transport(QVBoxLayout* root);
  void build_levels_row(QVBoxLayout* root);
  void build_timeline_toggle(QHBoxLayout* part);
  void connect_timeline();
  void update_timeline_request();  // the timeline records the pickers' variant
  void rebuild_levels();           // the hierarchy plan from the pickers
  void realign();                  // the aligned frames of the two traces shown
  void update_phase_label();
  void ask_export_gif();
  std::vector<QImage> render_all_frames();  // every frame, the current one kept
  void connect_transport();
  void connect_pickers();
  void add_shortcuts();
  void ask_export_frame();     // asks for a path, writes the current frame as PNG
  void rebuild();              // traces from the pickers
  void update_shape_fields();  // N for whole arrays, Shape for matrices
  void tick();                 // the play timer
  void show_frame(int f, double progress);
  void update_transport();
  void on_discovery(const Discovery& d);
  void on_recorded(const TraceRecording& r);
  void record_on_gpu(const TraceRequest& a, std::optional<TraceRequest> b);
  std::optional<TraceRequest> request_from(QComboBox* variant, QComboBox* unroll,
                                           QString* error) const;
  void fill_unrolls(QComboBox* variant, QComboBox* unroll);

  QComboBox *variant_a_ = nullptr, *variant_b_ = nullptr, *unroll_a_ = nullptr,
            *unroll_b_ = nullptr, *block_ = nullptr, *workspace_ = nullptr, *type_ = nullptr,
            *speed_ = nullptr, *source_ = nullptr;
  QLineEdit* size_ = nullptr;
  QLineEdit* shape_ = nullptr;  // rows x cols of a matrix variant
  QSpinBox* block_index_ = nullptr;
  QCheckBox *compare_ = nullptr, *loop_ = nullptr;
  QPushButton *play_ = nullptr, *back_ = nullptr, *forward_ = nullptr, *first_ = nullptr,
              *last_ = nullptr;
  QSlider *scrub_ = nullptr, *zoom_ = nullptr;
  QLabel *frame_label_ = nullptr, *status_ = nullptr;
  QWidget* views_ = nullptr;
  BlockView *view_a_ = nullptr, *view_b_ = nullptr;
  QCheckBox* align_ = nullptr;
  QLabel* phase_label_ = nullptr;
  std::vector<AlignedFrame> aligned_;  // empty unless aligned and side by side
  QComboBox *show_ = nullptr, *exchange_ = nullptr;
  QSpinBox* gpus_ = nullptr;
  QLineEdit* levels_n_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  HierarchyView* hierarchy_ = nullptr;
  StepSourceStrip* source_strip_ = nullptr;
  QSplitter* splitter_ = nullptr;  // the views (or levels) above, the timeline below
  TimelinePanel* timeline_ = nullptr;
  QCheckBox* timeline_box_ = nullptr;
  std::optional<MultiSession> multi_;
  QString multi_path_;
  QTimer* timer_ = nullptr;
  QElapsedTimer clock_;
  double phase_ = 0;  // position inside the current step, 0..1
  int frame_ = 0;
  bool building_ = false;
  int gpu_device_ = -1;  // first CUDA device, once discovery found one
  QPointer<RunController> jobs_;
  QPointer<JobTracker> tracker_;
  quint64 recording_ = 0;  // the job whose traces the views wait for (0: none)
};

}  // namespace rl::gui
