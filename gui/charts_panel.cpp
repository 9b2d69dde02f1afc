#include "charts_panel.h"

#include <QGridLayout>
#include <QMap>
#include <QTimer>
#include <QWidget>

#include "chart_builders.h"
#include "charts/chart_widget.h"
#include "session_store.h"

namespace rl::gui {

ChartsPanel::ChartsPanel(SessionStore* store, QObject* parent)
    : QObject(parent), store_(store), timer_(new QTimer(this)) {
  timer_->setSingleShot(true);
  timer_->setInterval(150);
  connect(timer_, &QTimer::timeout, this, &ChartsPanel::refresh_visible);
  // Pages: two charts one above the other (full width, so bar labels and legends fit); three
  // as two side by side with the third full width below.
  QMap<QString, QList<charts::ChartWidget*>> groups;
  for (const ChartKind& kind : chart_kinds()) {
    if (!groups.contains(kind.group)) {
      auto* page = new QWidget;
      page->setObjectName("charts_page_" + kind.group);
      pages_.append({kind.group, page});
    }
    auto* widget = new charts::ChartWidget;
    widget->setObjectName("chart_" + kind.id);
    widget->setMinimumSize(300, 240);
    groups[kind.group].append(widget);
    charts_.append({kind.id, widget});
    connect(widget, &charts::ChartWidget::export_requested, this,
            [this, id = kind.id] { emit export_requested(id); });
    stale_.insert(kind.id);
  }
  for (auto& [group, page] : pages_) {
    auto* grid = new QGridLayout(page);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setSpacing(6);
    const QList<charts::ChartWidget*>& widgets = groups[group];
    for (int i = 0; i < widgets.size(); ++i) {
      if (widgets.size() == 3)
        grid->addWidget(widgets[i], i / 2, i % 2, 1, i == 2 ? 2 : 1);
      else
        grid->addWidget(widgets[i], i, 0);
    }
  }
  auto stale_all = [this] {
    for (const auto& [id, w] : charts_) stale_.insert(id);
    schedule_refresh();
  };
  connect(store_, &SessionStore::reset, this, stale_all);
  connect(store_, &SessionStore::appended, this, stale_all);
  connect(store_, &SessionStore::speedups_changed, this, stale_all);
  connect(store_, &SessionStore::overlays_changed, this, stale_all);
  connect(store_, &SessionStore::metadata_changed, this, stale_all);
  connect(store_, &SessionStore::time_basis_changed, this, stale_all);
  refresh_all();
}

ChartsPanel::~ChartsPanel() {
  for (auto& [title, page] : pages_)
    if (page && !page->parent()) delete page;  // pages never handed to a window
}

charts::ChartWidget* ChartsPanel::chart(const QString& id) const {
  for (const auto& [cid, w] : charts_)
    if (cid == id) return w;
  return nullptr;
}

QStringList ChartsPanel::ids() const {
  QStringList out;
  for (const auto& [id, w] : charts_) out << id;
  return out;
}

QString ChartsPanel::name(const QString& id) const {
  for (const ChartKind& k : chart_kinds())
    if (k.id == id) return k.name;
  return id;
}

QString ChartsPanel::first_chart_on(QWidget* page) const {
  for (const auto& [id, w] : charts_)
    if (page && page->isAncestorOf(w)) return id;
  return {};
}

void ChartsPanel::schedule_refresh() {
  if (!timer_->isActive()) timer_->start();
}

void ChartsPanel::refresh(const QString& id) {
  chart(id)->set_chart(build_chart(id, store_->shown(), store_->baseline(), store_->time_basis()));
  stale_.remove(id);
}

void ChartsPanel::refresh_visible() {
  for (const auto& [id, w] : charts_)
    if (stale_.contains(id) && w->isVisible()) refresh(id);
}

void ChartsPanel::refresh_all() {
  timer_->stop();
  for (const auto& [id, w] : charts_) refresh(id);
}

}  // namespace rl::gui
