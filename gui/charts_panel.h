// The chart pages: every chart of chart_kinds(), grouped on pages ("Ladder", "Unroll",
// "Block size", "Size"), rebuilt from the session store. The Ladder page's three bar charts
// stand one above the other in a scroll area, two to a screen, and lead with the block model's
// counts where the shown sessions were measured on the host (chart_kinds_for). Updates are
// coalesced (a live run streams points faster than it is worth redrawing) and only charts on screen
// are redrawn; the others catch up when shown.
#pragma once

#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/views/ladder_setting.h"

class QComboBox;
class QTimer;
class QWidget;

namespace rl::gui {

namespace charts {
class ChartWidget;
}
class SessionStore;

class ChartsPanel : public QObject {
  Q_OBJECT
 public:
  explicit ChartsPanel(SessionStore* store, QObject* parent = nullptr);
  ~ChartsPanel() override;

  // (title, page) in display order; the caller puts the pages on screen and owns them then.
  const QList<QPair<QString, QWidget*>>& pages() const { return pages_; }
  charts::ChartWidget* chart(const QString& id) const;
  QStringList ids() const;
  QString name(const QString& id) const;
  // The first chart on a page (for "export the current chart").
  QString first_chart_on(QWidget* page) const;

  void schedule_refresh();  // soon, charts on screen only
  void refresh_visible();   // now, charts on screen (and mark the rest stale)
  void refresh_all();       // now, every chart (tests, exports)

 signals:
  void export_requested(const QString& id);
  // A bar or point of a measured point was clicked (twice: double-clicked): its code.
  void point_clicked(const rl::PointSpec& point, bool twice);

 private:
  void refresh(const QString& id);
  // The Ladder page's Setting selector: every setting of the primary session, the drawn one
  // current; choosing one sets it in the store (which redraws the ladder charts).
  QWidget* setting_row();
  void fill_setting_selector();
  // The rows and columns page's Total selector: the primary session's totals M x N, the one the
  // row length chart draws current; choosing one sets it in the store.
  QWidget* total_row();
  void fill_total_selector();
  // Places each page's charts in chart_kinds_for(the shown sessions) order: on the Ladder page
  // one above the other, two to a screen, in a scroll area (the lead chart first: the counts
  // where the times are CPU times); on other pages three as two side by side and the third
  // below, four two by two, two one above the other.
  void arrange();
  // The Ladder charts' height (viewport resizes); a chart shown while stale is drawn.
  bool eventFilter(QObject* watched, QEvent* event) override;
  // Sets a page's charts to share the visible height (the Ladder's two a screen, >= 380 px
  // each), each at least as tall as it asks (ChartWidget::wanted_height); -1: the viewport's.
  void fit_heights(const QString& group, int viewport_height = -1);
  SessionStore* store_;
  QMap<QString, QList<charts::ChartWidget*>> arranged_;  // per page, as last placed
  QList<QPair<QString, QWidget*>> pages_;
  QList<QPair<QString, charts::ChartWidget*>> charts_;
  QSet<QString> stale_;
  QTimer* timer_;
  QComboBox* setting_ = nullptr;
  std::vector<LadderSetting> settings_;  // the selector's items, in order
  QComboBox* total_ = nullptr;
  std::vector<std::uint64_t> totals_;  // the Total selector's items, in order
};

}  // namespace rl::gui
