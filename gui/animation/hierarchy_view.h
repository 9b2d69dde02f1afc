// The levels above the block (the animation's "Levels above the block" view): the engine's
// hierarchy plan (engine/views/hierarchy_plan.h) drawn as a strip of the GPUs' shards with
// their grids and partials, the exchange between them, and the plan's steps as a list whose
// current step is highlighted. It only draws: every number is the plan's; times appear only
// when a multi-GPU session measured the plan's point, and are labelled as measured.
#pragma once

#include <QWidget>

#include <optional>

#include "engine/views/hierarchy_plan.h"

namespace rl::gui {

class HierarchyView : public QWidget {
  Q_OBJECT
 public:
  explicit HierarchyView(QWidget* parent = nullptr);

  void set_plan(std::optional<HierarchyPlan> plan);
  // What the open multi-GPU session measured for the plan's point (nullopt: none), and a line
  // saying which session is open or that none is.
  void set_measured(std::optional<MeasuredPhases> measured, const QString& session_note);
  const HierarchyPlan* plan() const { return plan_ ? &*plan_ : nullptr; }
  int step_count() const { return plan_ ? int(plan_->steps.size()) : 0; }
  void set_step(int step);
  int step() const { return step_; }
  // The text beside step i: the plan's caption and, for a timed phase, the measured time.
  QString step_text(int i) const;
  QString measured_text(int i) const;  // "" when nothing measured that phase
  QString note_text() const;           // what the plan is, and what the session measured

  QSize sizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int paint_shards(class QPainter& p, int top) const;  // returns the next free y
  int paint_exchange(class QPainter& p, int top) const;
  int paint_steps(class QPainter& p, int top, int width) const;
  bool level_active(HierarchyLevel l) const;

  std::optional<HierarchyPlan> plan_;
  std::optional<MeasuredPhases> measured_;
  QString session_note_;
  int step_ = 0;
};

}  // namespace rl::gui
