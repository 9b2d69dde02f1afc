// The Code view's diff side by side: the old variant's source on the left, the new one
// on the right, a change's removed lines beside the lines that replaced them
// (engine/code/line_diff.h side_by_side), both sides scrolling together.
#pragma once

#include <QWidget>

#include <vector>

#include "engine/code/line_diff.h"

class QLabel;
class QPlainTextEdit;

namespace rl::gui {

class SideBySideDiff : public QWidget {
  Q_OBJECT
 public:
  explicit SideBySideDiff(QWidget* parent = nullptr);
  void show_rows(const std::vector<code::DiffRow>& rows, const QString& old_name,
                 const QString& new_name);
  QString left_text() const;
  QString right_text() const;
  void set_code_font(const QFont& font);

 private:
  QLabel *old_name_, *new_name_;
  QPlainTextEdit *left_, *right_;
};

}  // namespace rl::gui
