#include "results_table.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QSet>
#include <QSortFilterProxyModel>

#include <algorithm>

#include "results_model.h"

namespace rl::gui {

ResultsTable::ResultsTable(ResultsModel* model, QWidget* parent)
    : QTableView(parent), proxy_(new QSortFilterProxyModel(this)) {
  proxy_->setSourceModel(model);
  proxy_->setSortRole(ResultsModel::SortRole);
  setModel(proxy_);
  setSortingEnabled(true);
  sortByColumn(-1, Qt::AscendingOrder);  // run order until the user picks a column
  setSelectionBehavior(QAbstractItemView::SelectItems);
  setAlternatingRowColors(true);
  setWordWrap(false);
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  horizontalHeader()->setStretchLastSection(true);
  // Columns are fitted to the rows around the top (Qt looks at 1,000 by default): a session of
  // 100,000 points then fits in a few milliseconds, and its rows are alike in width.
  horizontalHeader()->setResizeContentsPrecision(100);
  setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* copy = new QAction("Copy as TSV", this);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  connect(copy, &QAction::triggered, this, &ResultsTable::copy_selection);
  addAction(copy);
  connect(model, &QAbstractItemModel::modelReset, this, [this] { resizeColumnsToContents(); });
  // While a run streams rows in, fit the columns to the first ones (later rows rarely differ
  // much, and fitting a long table on every row would cost more than it shows).
  connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex&, int first) {
    if (first < 40) resizeColumnsToContents();
  });
}

QString ResultsTable::selection_as_tsv() const {
  const QModelIndexList selected =
      selectionModel() ? selectionModel()->selectedIndexes() : QModelIndexList{};
  QList<int> rows, cols;
  if (selected.isEmpty()) {
    for (int r = 0; r < proxy_->rowCount(); ++r) rows << r;
    for (int c = 0; c < proxy_->columnCount(); ++c) cols << c;
  } else {
    QSet<int> rs, cs;
    for (const QModelIndex& i : selected) rs.insert(i.row()), cs.insert(i.column());
    rows = rs.values();
    cols = cs.values();
    std::sort(rows.begin(), rows.end());
    // columns in the order the header shows them (the user may have moved some)
    std::sort(cols.begin(), cols.end(), [this](int a, int b) {
      return horizontalHeader()->visualIndex(a) < horizontalHeader()->visualIndex(b);
    });
  }
  auto clean = [](QString s) { return s.replace('\t', ' ').replace('\n', ' '); };
  QStringList lines, header;
  for (int c : cols)
    header << clean(proxy_->headerData(c, Qt::Horizontal, ResultsModel::CopyRole).toString());
  lines << header.join('\t');
  for (int r : rows) {
    QStringList cells;
    for (int c : cols) cells << clean(proxy_->index(r, c).data(ResultsModel::CopyRole).toString());
    lines << cells.join('\t');
  }
  return lines.join('\n') + '\n';
}

void ResultsTable::copy_selection() const {
  QApplication::clipboard()->setText(selection_as_tsv());
}

void ResultsTable::keyPressEvent(QKeyEvent* event) {
  if (event->matches(QKeySequence::Copy)) {
    copy_selection();
    event->accept();
    return;
  }
  QTableView::keyPressEvent(event);
}

}  // namespace rl::gui
