// The window's Code tab and what selects its variant: a row of the results table (a
// double click also opens the tab), a bar or point of a chart (likewise) and the first variant of
// the block animation; and the animation's "Show source" setting.
#include <QComboBox>
#include <QItemSelectionModel>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>

#include "animation/block_animation.h"
#include "charts_panel.h"
#include "code_panel.h"
#include "engine/report/format.h"
#include "main_window.h"
#include "results_model.h"
#include "results_table.h"
#include "session_store.h"

namespace rl::gui {

void MainWindow::add_code_view() {
  code_ = new CodePanel;
  code_->setObjectName("code_panel");
  tabs_->addTab(scrolled(code_), "Code");
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
    show_tab_of(code_);
  });
  // A bar or point of any chart: its variant in the Code tab; a double click opens the tab.
  connect(charts_, &ChartsPanel::point_clicked, code_, [this](const PointSpec& p, bool twice) {
    code_->show_variant(QString::fromStdString(p.variant), p.block_size, p.unroll, p.type,
                        p.workspace);
    if (twice)
      show_tab_of(code_);
    else
      statusBar()->showMessage(
          QString("%1 is in the Code tab (double-click the bar to open it)")
              .arg(QString::fromStdString(rl::variant_label(p.variant, p.unroll))),
          6000);
  });
  // The shown session's line samples annotate the code (the primary session: a run or a file).
  auto sampled = [this] { code_->set_sampled_session(store_->shared_primary()); };
  connect(store_, &SessionStore::reset, code_, sampled);
  connect(store_, &SessionStore::metadata_changed, code_, sampled);
  sampled();
  // The animation's first variant and its shape (gui/animation names its pickers). Looked up
  // in the tabs: the window does not hold them yet (its central widget is set after this).
  auto* variant = tabs_->findChild<QComboBox*>("variant_a");
  auto* block = tabs_->findChild<QComboBox*>("block_size");
  if (variant != nullptr) {
    connect(variant, &QComboBox::currentIndexChanged, code_, [this, variant, block] {
      const int b = block != nullptr ? block->currentText().toInt() : 0;
      code_->show_variant(variant->currentData().toString(), b);
    });
  }
  // "Show source" under the animation (its source strip) is remembered across runs.
  auto* panel = tabs_->findChild<BlockAnimationPanel*>();
  // Its tab shown, the panel takes the keys: a clicker's PageDown steps the animation at once.
  if (panel != nullptr)
    connect(tabs_, &QTabWidget::currentChanged, panel, [this, panel] {
      if (tabs_->currentWidget()->isAncestorOf(panel)) panel->setFocus();
    });
  if (panel != nullptr && options_.settings) {
    panel->set_source_shown(QSettings().value("animation/show_source", true).toBool());
    connect(panel, &BlockAnimationPanel::source_shown_changed, this,
            [](bool on) { QSettings().setValue("animation/show_source", on); });
  }
}

}  // namespace rl::gui
