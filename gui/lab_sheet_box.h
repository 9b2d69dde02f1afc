// A lab sheet (engine/report/lab_sheet.h) beside the kernel editor: the sheets that ship
// (resources/labs/, embedded) and any the user opens, the task, the hints one at a time, and
// each goal judged on the session shown, with its numbers.
#pragma once

#include <QWidget>

#include <optional>

#include "engine/report/lab_sheet.h"
#include "engine/session/results.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace rl::gui {

class LabSheetBox : public QWidget {
  Q_OBJECT
 public:
  explicit LabSheetBox(QWidget* parent = nullptr);
  // Reads a sheet file the user chose; false with the reason (naming the field) in *why.
  bool open_sheet(const QString& path, QString* why);
  const std::optional<LabSheet>& sheet() const { return sheet_; }
  // The goals judged on this session's points of the rung named rung.
  void judge(const Session& session, const QString& rung);
  QString goals_text() const;
  QComboBox* picker() const { return picker_; }
  QPushButton* hint_button() const { return hint_; }
  QString hints_text() const;

 signals:
  // "Start from its kernel": the starter file (resources/kernels/), the suggested rung name and
  // the built-in variant it starts from.
  void start_requested(const QString& starter, const QString& rung, const QString& start);

 private:
  void choose(int index);
  void show_sheet();
  QComboBox* picker_;
  QLabel *task_, *hints_, *goals_;
  QPushButton *start_, *hint_;
  std::optional<LabSheet> sheet_;
  int hints_shown_ = 0;
  std::vector<LabSheet> opened_;  // sheets read from files, after the shipped ones
};

}  // namespace rl::gui
