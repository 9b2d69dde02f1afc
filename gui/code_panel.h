// The Code view: for the selected variant at a block size, unroll factor, type and
// workspace, its CUDA source with the phases marked, the source diff from the previous rung (or
// any variant), its SASS with barriers, shuffles, branches, loads and stores highlighted and
// counted, and its registers, local and shared memory and theoretical occupancy. All of it was
// embedded at build time (engine/code/); the view never calls CUDA.
#pragma once

#include <QTextEdit>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>

#include "engine/code/code_view.h"
#include "engine/code/line_metrics.h"
#include "engine/session/results.h"

class QCheckBox;
class QComboBox;
class QStackedWidget;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QPlainTextEdit;
class QTabWidget;

namespace rl::gui {

class SideBySideDiff;

class CodePanel : public QWidget {
  Q_OBJECT
 public:
  explicit CodePanel(QWidget* parent = nullptr);

  // Shows a variant; block/unroll 0 keep the current choice where the variant takes it.
  void show_variant(const QString& id, int block_size = 0, int unroll = 0,
                    std::optional<DType> type = {}, std::optional<Workspace> workspace = {});
  const code::CodeEntry& entry() const { return entry_; }
  QString source_text() const;
  QString diff_text() const;
  SideBySideDiff* side_by_side() const { return side_by_side_; }
  QCheckBox* side_by_side_toggle() const { return side_toggle_; }
  QString sass_text() const;
  QString counts_text() const;
  QString resources_text() const;
  QTabWidget* pages() const { return pages_; }
  // The session whose line samples (run --line-samples) or line counts (run --line-counts)
  // annotate the source and SASS: each line's share of the kernel's warp samples and its largest
  // stall, or its executed instructions and thread efficiency, for the point matching the shown
  // instantiation (the largest N); and the CUDA runtime's occupancy of its kernels, on the
  // resources page. The session is shared, not copied (the store's: a large session's samples
  // are held once); null: none.
  void set_sampled_session(std::shared_ptr<const Session> session);
  QString samples_text() const;  // the summary over the pages, "" without samples or counts
  const std::optional<code::LineMetrics>& line_metrics() const { return metrics_; }
  // A kernel the user wrote, compiled (engine/code/user_code.h): listed among the variants under
  // its name and shown; its diff is against the kernel it started from. A later entry of the
  // same name replaces it. Its other shapes are compiled from the editor.
  // starter: the text it was copied from (the Changes page diffs against it), or "".
  void show_user_entry(const code::CodeEntry& entry, const QString& starter_name,
                       const QString& starter);
  QPushButton* new_rung_button() const { return new_rung_; }

 signals:
  // "New rung from this kernel": the shown variant's id.
  void new_rung_requested(const QString& variant_id);
  // A kernel the user wrote, shown at a shape it was not compiled for: compile it for this one
  // (the answer comes back through show_user_entry). Once per shape.
  void user_shape_wanted(const QString& variant_id, int block_size, int unroll, int type);

 protected:
  void changeEvent(QEvent* event) override;  // the app's text size: the code font follows

 private:
  void build_ui();
  // The pickers, over the pages: the variant on a row of its own, its shape on the next, so the
  // tab fits beside the experiment form on a 1024-pixel screen.
  QLayout* build_pickers();
  void build_pages();
  void fill_shapes();  // block, unroll, type, workspace choices of the chosen variant
  void refresh();      // everything from the current choices
  void show_source();
  void show_diff();
  void show_user_diff(const QString& label, const QString& text);
  void show_sass();
  void show_resources();
  // What the CUDA runtime said of this instantiation's kernels in a run of the session, or "".
  QString measured_occupancy_html() const;
  void apply_font();
  // code_panel_samples.cpp: the metrics of the shown entry, the summary, each line's columns.
  void compute_line_metrics();
  bool show_sampled_shape();  // moves to the shape the session sampled; false: stays
  bool has_samples() const;   // the sample column is shown (old sessions: even without samples)
  QString sample_column(const code::ReasonSamples& line) const;
  QString sample_note(const code::ReasonSamples& line) const;
  // The columns' widths from the notes of a page's lines (show_source, show_sass call it first).
  void fit_sample_columns(const std::vector<code::ReasonSamples>& lines);
  void mark_sample_heat(QPlainTextEdit* page, const std::vector<code::ReasonSamples>& lines,
                        QList<QTextEdit::ExtraSelection>& marks) const;

  QComboBox *variant_, *block_, *unroll_, *type_, *workspace_, *arch_, *compare_;
  QTabWidget* pages_;
  QPlainTextEdit *source_, *diff_, *sass_;
  SideBySideDiff* side_by_side_;
  QCheckBox* side_toggle_;
  QStackedWidget* diff_views_;  // inline, or side by side
  QLabel *phases_, *counts_, *resources_, *diff_note_, *samples_;
  code::CodeEntry entry_;
  std::map<std::string, code::CodeEntry> user_entries_;               // the user's kernels, by name
  std::map<std::string, std::pair<QString, QString>> user_starters_;  // name -> (label, text)
  std::string user_shape_asked_;  // the last user_shape_wanted, "name B U type"
  QPushButton* new_rung_ = nullptr;
  std::shared_ptr<const Session> sampled_ = std::make_shared<const Session>();  // never null
  std::optional<code::LineMetrics> metrics_;
  bool filling_ = false;
  int sample_width_ = 2, count_width_ = 2;  // the columns' widths in characters, separators in
};

}  // namespace rl::gui
