// The window's Code tab (issue 11) and what selects its variant: a row of the results table (a
// double click also opens the tab) and the first variant of the block animation.
#include <QComboBox>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QTabWidget>

#include "code_panel.h"
#include "main_window.h"
#include "results_model.h"
#include "results_table.h"

namespace rl::gui {

void MainWindow::add_code_view() {
  code_ = new CodePanel;
  code_->setObjectName("code_panel");
  tabs_->addTab(code_, "Code");
  auto show_row = [this](const QModelIndex& proxy_index) {
    if (!proxy_index.isValid()) return;
    const QModelIndex source = table_->proxy()->mapToSource(proxy_index);
    const auto& rows = model_->results();
    if (source.row() < 0 || source.row() >= static_cast<int>(rows.size())) return;
    const PointSpec& p = rows[static_cast<std::size_t>(source.row())].point;
    code_->show_variant(QString::fromStdString(p.variant), p.block_size, p.unroll, p.type,
                        p.workspace);
  };
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, code_,
          [show_row](const QModelIndex& current) { show_row(current); });
  connect(table_, &QTableView::doubleClicked, code_, [this, show_row](const QModelIndex& i) {
    show_row(i);
    tabs_->setCurrentWidget(code_);
  });
  // The animation's first variant and its shape (gui/animation names its pickers).
  auto* variant = findChild<QComboBox*>("variant_a");
  auto* block = findChild<QComboBox*>("block_size");
  if (variant != nullptr) {
    connect(variant, &QComboBox::currentIndexChanged, code_, [this, variant, block] {
      const int b = block != nullptr ? block->currentText().toInt() : 0;
      code_->show_variant(variant->currentData().toString(), b);
    });
  }
}

}  // namespace rl::gui
