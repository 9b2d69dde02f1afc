// The Sessions list: every open session with its name (editable), whether
// the charts draw it (the check box), which two are compared (A and B) and where it came from;
// Close, and the whole-session comparison of A and B: the engine's summary ("12 faster, 3
// slower, 5 same") and every point found in one session only, listed in full. Only presents:
// the store holds the sessions and the engine the rules.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace rl::gui {

class SessionStore;

// One row per open session (the primary first). Columns: name (editable; checked: drawn),
// A/B, points, origin.
class SessionsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Compared, Points, Origin, Columns };
  explicit SessionsModel(SessionStore* store, QObject* parent = nullptr);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  SessionStore* store_;
  int rows_ = 0;  // as the views last heard, so a grown list is announced as inserted rows
};

class SessionsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SessionsPanel(SessionStore* store, QWidget* parent = nullptr);
  SessionsModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  QComboBox* a_box() const { return a_; }
  QComboBox* b_box() const { return b_; }
  QString comparison_text() const;  // the summary and the unmatched points as shown

 private:
  void reload();  // the A / B choosers and the comparison, from the store
  void close_selected();
  SessionStore* store_;
  SessionsModel* model_;
  QTableView* view_;
  QComboBox *a_, *b_;
  QPushButton* close_;
  QLabel* summary_;
  QPlainTextEdit* unmatched_;
};

}  // namespace rl::gui
