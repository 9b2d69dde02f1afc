// Story mode: the ladder told step by step, full screen like presentation mode
// (presentation.h) and with the same keys: PageDown / Space / Right next step, PageUp / Left /
// Backspace back, Home / End, Ctrl+= / Ctrl+- text, Esc leaves. Each step shows its bar arriving
// on the ladder chart (story_bars.h) with the step and cumulative speed-ups, what changed in its
// code from the previous step (the Code view's diff, else the variant's explanation), the counter
// that explains it, and the block animation of that rung. "Run this step now" (R) measures the
// step's point on the app's GPU job queue (run_worker.h) and updates its bar when the result
// arrives; the GUI thread never waits, and a result for another step or an older request is
// dropped.
#pragma once

#include <QFont>
#include <QPointer>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "engine/session/results.h"
#include "engine/views/story.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace rl::gui {

inline constexpr int kStoryTickMs = 40;  // the block animation's timer

class BlockView;
class RunController;
class StoryBars;

class StoryView : public QWidget {
  Q_OBJECT
 public:
  // session: what the bars are measured from (the window's shown session); jobs: the app's GPU
  // job queue, or null (no runs); zoom: the presenter's text factor (slide_mode.h).
  StoryView(Story story, Session session, RunController* jobs, double zoom,
            QWidget* parent = nullptr);

  void start();  // the room's font, step 1, keyboard focus
  int step() const { return step_; }
  int step_count() const { return int(story_.steps.size()); }
  void show_step(int index);  // clamped
  const ResolvedStory& resolved() const { return resolved_; }
  double zoom() const { return zoom_; }
  void set_zoom(double zoom);

  // Which device "Run this step now" uses: a CUDA ordinal (or kHostDevice in tests), or none
  // with the reason the button shows. Set from the job queue's discovery when there is one.
  // why: the full reason, in the button's tooltip.
  void set_run_device(std::optional<int> device, const QString& unavailable = {},
                      const QString& why = {});
  bool run_step();  // queues the current step's point; false (saying why) when it cannot
  bool measuring() const { return pending_job_ != 0; }

  StoryBars* bars() const { return bars_; }
  BlockView* block_view() const { return block_; }
  QPushButton* run_button() const { return run_; }
  QString heading_text() const;
  QString caption_text() const;
  QString numbers_text() const;  // the time and speed-ups, then where they come from
  QString counter_text() const;
  QString code_text() const;
  QString run_status() const;

  // Predict, then reveal (story_view_predict.cpp; off by default, P toggles it): each step past
  // the first, moved to forward, first asks the room for the speed-up over step 1 with its bar
  // hidden; digits typed are the room's guess; Enter (or the clicker's next key) reveals the
  // bar, the guess marked beside it. A step once revealed is not asked again.
  void set_predict(bool on);
  bool predict() const { return predict_; }
  bool predicting() const { return predicting_; }  // the current step waits for a guess
  QString typed_guess() const { return typed_; }
  std::optional<double> guess(int step) const;
  void reveal();

 signals:
  void zoom_changed(double zoom);
  void predict_changed(bool on);
  void closed();

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;  // the block view's cell size

 private:
  void build_ui();
  void apply_font();
  void resolve();                         // resolved_ from the session and the live points
  void fill_step();                       // every panel from resolved_ at step_
  void fill_code(const ResolvedStep& s);  // story_view_panels.cpp
  void fill_animation(const ResolvedStep& s);
  void tick_animation();
  void update_run_button();
  void on_measured(quint64 job, const Session& session);  // story_view_run.cpp
  void on_measure_failed(quint64 job, const QString& message);
  bool predict_key(QKeyEvent* event);  // story_view_predict.cpp: true when it took the key
  QString prompt_text() const;

  Story story_;
  Session session_;
  std::vector<LivePoint> live_;
  ResolvedStory resolved_;
  QPointer<RunController> jobs_;
  double zoom_;
  int step_ = 0;
  bool predict_ = false, predicting_ = false;
  QString typed_;                  // the room's guess as typed so far
  std::map<int, double> guesses_;  // by step
  std::set<int> revealed_;         // steps whose bar the room has seen
  std::optional<int> device_;
  QString unavailable_ = "no GPU job queue", unavailable_why_;
  quint64 pending_job_ = 0;
  int pending_step_ = -1;
  QString run_status_;

  QLabel *heading_, *caption_, *numbers_, *source_, *counter_, *code_title_, *footer_, *status_,
      *animation_note_;
  QPlainTextEdit* code_;
  StoryBars* bars_;
  BlockView* block_;
  QPushButton* run_;
  QTimer* timer_;
  double phase_ = 0;
  int hold_ = 0;  // ticks the last frame stays before the animation starts over
  QFont saved_font_;
};

}  // namespace rl::gui
