// The text editor of a user kernel: the app's monospaced font (following its text size), line
// numbers, the current line, CUDA colours (KernelHighlighter), Tab as spaces, and the compiler's
// errors and warnings shown at their lines (a tinted line, a marker in the gutter, the messages
// as the line's tooltip). A diagnostic keeps to its line while lines are added or removed above
// it, so the marks stay right while the user fixes the code.
#pragma once

#include <QPainter>
#include <QPlainTextEdit>
#include <QStringList>
#include <QTextCursor>
#include <vector>

#include "engine/user/user_kernel.h"

namespace rl::gui {

class KernelHighlighter;

class KernelEditor : public QPlainTextEdit {
  Q_OBJECT

 public:
  enum class LineMark { None, Warning, Error };
  static constexpr int kIndentWidth = 2;  // the spaces a Tab inserts: the shipped kernels' indent

  explicit KernelEditor(QWidget* parent = nullptr);

  // Marks the lines of these diagnostics (replacing the previous ones); a diagnostic with no line
  // (0) or past the end marks none.
  void set_diagnostics(std::vector<rl::CompileDiagnostic> diagnostics);
  void clear_diagnostics() { set_diagnostics({}); }
  const std::vector<rl::CompileDiagnostic>& diagnostics() const { return diagnostics_; }
  // Where diagnostic `index` is now (1-based), after the edits since it was set; 0 when none.
  int diagnostic_line(int index) const;
  // The strongest mark of a line (1-based), and its messages ("error: ...", one a diagnostic).
  LineMark mark_at_line(int line) const;
  QStringList messages_at_line(int line) const;

  // Moves the cursor to a line (1-based, clamped to the document), at a column (1-based; 0 or
  // past the end: the line's start or end), and shows it.
  void go_to_line(int line, int column = 0);
  int current_line() const { return textCursor().blockNumber() + 1; }

  // The code font at a point size (the panel passes the app's text size on).
  void set_code_point_size(double point_size);

  KernelHighlighter* highlighter() const { return highlighter_; }

  // The background a marked line gets, and the gutter marker's colour.
  static QColor line_background(LineMark mark);
  static QColor marker_color(LineMark mark);
  // The gutter's marker in `box`: a circle with "!" for an error, a triangle for a warning, so
  // they differ in shape as well as colour. The diagnostics list draws the same as its icons.
  static void paint_marker(QPainter& p, LineMark mark, const QRectF& box, const QFont& font);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  friend class KernelEditorGutter;
  int gutter_width() const;
  void paint_gutter(QPaintEvent* event);
  void update_gutter_width();
  void update_gutter(const QRect& rect, int dy);
  void update_line_backgrounds();
  bool show_line_tooltip(int line, const QPoint& global_pos);
  int line_at_y(int y) const;  // the line at a viewport y, 0 when below the last
  void indent_selection(bool outdent);
  void insert_newline_keeping_indent();

  QWidget* gutter_ = nullptr;
  KernelHighlighter* highlighter_ = nullptr;
  std::vector<rl::CompileDiagnostic> diagnostics_;
  // A cursor at the start of each diagnostic's line: the document moves it with the edits.
  std::vector<QTextCursor> anchors_;
};

}  // namespace rl::gui
