// The Code view (issue 11): for the selected variant at a block size, unroll factor, type and
// workspace, its CUDA source with the phases marked, the source diff from the previous rung (or
// any variant), its SASS with barriers, shuffles, branches, loads and stores highlighted and
// counted, and its registers, local and shared memory and theoretical occupancy. All of it was
// embedded at build time (engine/code/); the view never calls CUDA.
#pragma once

#include <QWidget>

#include "engine/code/code_view.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace rl::gui {

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
  QString sass_text() const;
  QString counts_text() const;
  QString resources_text() const;
  QTabWidget* pages() const { return pages_; }

 protected:
  void changeEvent(QEvent* event) override;  // the app's text size: the code font follows

 private:
  void build_ui();
  QHBoxLayout* build_pickers();  // the pickers, and the row of them over the pages
  void build_pages();
  void fill_shapes();  // block, unroll, type, workspace choices of the chosen variant
  void refresh();      // everything from the current choices
  void show_source();
  void show_diff();
  void show_sass();
  void show_resources();
  void apply_font();

  QComboBox *variant_, *block_, *unroll_, *type_, *workspace_, *arch_, *compare_;
  QTabWidget* pages_;
  QPlainTextEdit *source_, *diff_, *sass_;
  QLabel *phases_, *counts_, *resources_, *diff_note_;
  code::CodeEntry entry_;
  bool filling_ = false;
};

}  // namespace rl::gui
