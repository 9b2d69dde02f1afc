// The animation's source strip, where the source line of the current step is highlighted: a few
// lines of the first view's kernel, read-only, in the Code view's font and
// highlighter, with the lines the current step runs (engine/code/step_source.h) marked and
// scrolled into view. A caption says which step and phase, or why a step has no lines. The
// "Show source" box folds the code away (the caption row stays, so the box can bring it back).
#pragma once

#include <QWidget>

#include <optional>
#include <vector>

#include "engine/code/code_view.h"
#include "engine/trace/trace.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;

namespace rl::gui {

class StepSourceStrip : public QWidget {
  Q_OBJECT
 public:
  explicit StepSourceStrip(QWidget* parent = nullptr);

  // Frame f of trace t (frame 0: the block as the kernel starts; frame k: after step k - 1, as
  // BlockView counts). Cheap when nothing changed: the panel calls it on every animation tick.
  void show_step(const Trace* t, int frame);
  void set_code_shown(bool on);
  bool code_shown() const;
  // Source line indices highlighted now (into the kernel's CodeEntry::source), and the caption.
  const std::vector<int>& highlighted() const { return lines_; }
  QString caption() const;
  QPlainTextEdit* code() const { return code_; }

 signals:
  void code_shown_changed(bool on);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void load(const Trace& t);  // the kernel's source, when the variant or shape changed
  void mark();                // highlight lines_ and scroll to them
  void apply_font();
  void set_caption(const QString& text);

  QCheckBox* toggle_ = nullptr;
  QLabel* caption_ = nullptr;
  QPlainTextEdit* code_ = nullptr;
  std::optional<code::CodeEntry> entry_;
  std::string entry_key_;  // the query the entry answers ("" none)
  std::string load_error_;
  const Trace* trace_ = nullptr;
  int frame_ = -1;
  std::vector<int> lines_;
};

}  // namespace rl::gui
