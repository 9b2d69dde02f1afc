// The results table view: sortable through a QSortFilterProxyModel on raw numbers, and
// copyable: Ctrl+C puts the selected cells on the clipboard as TSV with a header row.
#pragma once

#include <QTableView>

class QSortFilterProxyModel;

namespace rl::gui {

class ResultsModel;

class ResultsTable : public QTableView {
  Q_OBJECT
 public:
  explicit ResultsTable(ResultsModel* model, QWidget* parent = nullptr);
  QSortFilterProxyModel* proxy() const { return proxy_; }
  // The selection (whole rows' selected columns, in view order) as TSV; all rows when nothing
  // is selected.
  QString selection_as_tsv() const;
  void copy_selection() const;

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QSortFilterProxyModel* proxy_;
};

}  // namespace rl::gui
