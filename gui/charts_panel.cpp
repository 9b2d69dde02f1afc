#include "charts_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>

#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "engine/experiment/grammar.h"
#include "session_store.h"

namespace rl::gui {

namespace {

// The Ladder page's bar charts need the whole width (a bar and its label per rung, three bar
// sets in a GPU session): they stand one above the other in a scroll area, two to a screen. The
// rows and columns page's maps need the width too (a cell and its label per power of two).
bool stacked(const QString& group) {
  return group == "Ladder" || group == kMatrixPage;
}

// A page of more than four charts (Unroll: time, bandwidth, speed-up, registers, barrier stall)
// would stack them past a laptop's screen (each at least 240 px high): two rows of two to a
// screen, the rest a scroll away. Smaller pages fill the screen.
bool scrolls(const QString& group) {
  const auto& kinds = chart_kinds();
  return std::count_if(kinds.begin(), kinds.end(),
                       [&](const ChartKind& k) { return k.group == group; }) > 4;
}

// The rows arrange() lays n charts out in: one above the other up to two, then two a row.
int grid_rows(int n) {
  return n <= 2 ? n : (n + 1) / 2;
}

QScrollArea* scroll_page(QWidget* inner) {
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(inner);
  return scroll;
}

QLayout* charts_layout(QWidget* page) {
  if (auto* scroll = qobject_cast<QScrollArea*>(page)) return scroll->widget()->layout();
  return page->layout();
}

}  // namespace

ChartsPanel::ChartsPanel(SessionStore* store, QObject* parent)
    : QObject(parent), store_(store), timer_(new QTimer(this)) {
  timer_->setSingleShot(true);
  timer_->setInterval(150);
  connect(timer_, &QTimer::timeout, this, &ChartsPanel::refresh_visible);
  // Pages: two charts one above the other (full width, so bar labels and legends fit); three
  // as two side by side with the third full width below; four or more two by two (more than
  // four: two rows a screen, scrolls()); the Ladder page's one above the other, two to a screen
  // (arrange()).
  QSet<QString> groups;
  for (const ChartKind& kind : chart_kinds()) {
    if (!groups.contains(kind.group)) {
      // Every page scrolls: a chart whose legend or names need more height than the screen
      // leaves it (ChartWidget::wanted_height) gets it, and the page scrolls.
      auto* inner = new QWidget;
      if (stacked(kind.group)) {
        auto* box = new QVBoxLayout(inner);
        box->setContentsMargins(4, 4, 4, 4);
        box->setSpacing(6);
        box->addWidget(kind.group == kMatrixPage ? total_row() : setting_row());
      } else {
        auto* grid = new QGridLayout(inner);
        grid->setContentsMargins(4, 4, 4, 4);
        grid->setSpacing(6);
      }
      QScrollArea* page = scroll_page(inner);
      page->viewport()->installEventFilter(this);
      page->setObjectName("charts_page_" + kind.group);
      pages_.append({kind.group, page});
      groups.insert(kind.group);
    }
    auto* widget = new charts::ChartWidget;
    widget->setObjectName("chart_" + kind.id);
    widget->setMinimumSize(300, 240);
    widget->installEventFilter(this);
    charts_.append({kind.id, widget});
    connect(widget, &charts::ChartWidget::export_requested, this,
            [this, id = kind.id] { emit export_requested(id); });
    connect(widget, &charts::ChartWidget::point_clicked, this, &ChartsPanel::point_clicked);
    connect(widget, &charts::ChartWidget::pct_of_limit_toggled, this,
            [this, id = kind.id](bool on) { store_->set_pct_of_limit(id, on); });
    connect(widget, &charts::ChartWidget::wanted_height_changed, this,
            [this, group = kind.group] { fit_heights(group); });
    stale_.insert(kind.id);
  }
  arrange();
  fill_setting_selector();
  fill_total_selector();
  auto stale_all = [this] {
    arrange();
    fill_setting_selector();
    fill_total_selector();
    for (const auto& [id, w] : charts_) stale_.insert(id);
    schedule_refresh();
  };
  connect(store_, &SessionStore::reset, this, stale_all);
  connect(store_, &SessionStore::appended, this, stale_all);
  connect(store_, &SessionStore::speedups_changed, this, stale_all);
  connect(store_, &SessionStore::overlays_changed, this, stale_all);
  connect(store_, &SessionStore::metadata_changed, this, stale_all);
  connect(store_, &SessionStore::time_basis_changed, this, stale_all);
  connect(store_, &SessionStore::ladder_setting_changed, this, stale_all);
  connect(store_, &SessionStore::matrix_total_changed, this, stale_all);
  connect(store_, &SessionStore::chart_view_changed, this, [this](const QString& id) {
    if (chart(id)) refresh(id);
  });
  refresh_all();
}

QWidget* ChartsPanel::setting_row() {
  auto* row = new QWidget;
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel("Setting");
  setting_ = new QComboBox;
  setting_->setObjectName("ladder_setting");
  setting_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  setting_->setToolTip(
      "The N, block size and type the ladder charts draw. By default the classic ladder's "
      "experiment "
      "(N=2^24, B=1024, int32) when the session holds it with the most rungs, else the setting "
      "with the most rungs. Exports: reductionlab --export-charts DIR --setting N=2^24,B=1024.");
  label->setBuddy(setting_);
  h->addWidget(label);
  h->addWidget(setting_);
  h->addStretch(1);
  connect(setting_, &QComboBox::activated, this, [this](int i) {
    if (i >= 0 && i < int(settings_.size())) store_->set_ladder_setting(settings_[size_t(i)]);
  });
  return row;
}

QWidget* ChartsPanel::total_row() {
  auto* row = new QWidget;
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel("Total M x N");
  total_ = new QComboBox;
  total_->setObjectName("matrix_total");
  total_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  total_->setToolTip(
      "The elements of every matrix the row length chart draws (a sweep of widths at a fixed "
      "total); the strategy maps show every shape measured");
  label->setBuddy(total_);
  h->addWidget(label);
  h->addWidget(total_);
  h->addStretch(1);
  connect(total_, &QComboBox::activated, this, [this](int i) {
    if (i >= 0 && i < int(totals_.size())) store_->set_matrix_total(totals_[size_t(i)]);
  });
  return row;
}

void ChartsPanel::fill_total_selector() {
  totals_ = store_->has_primary() ? matrix_totals(store_->primary()) : std::vector<std::uint64_t>{};
  const std::optional<std::uint64_t> drawn =
      store_->has_primary() ? drawn_matrix_total(store_->primary(), store_->matrix_total())
                            : std::nullopt;
  const QSignalBlocker quiet(total_);
  total_->clear();
  for (size_t i = 0; i < totals_.size(); ++i) {
    total_->addItem(QString::fromStdString(rl::format_size(totals_[i])));
    if (drawn && totals_[i] == *drawn) total_->setCurrentIndex(int(i));
  }
  total_->setEnabled(totals_.size() > 1);
}

void ChartsPanel::fill_setting_selector() {
  // The store lists a session's settings once; overlays, baselines and time bases leave them.
  settings_ = *store_->primary_ladder_settings();
  const std::optional<LadderSetting> drawn =
      store_->has_primary() ? drawn_ladder_setting(settings_, store_->ladder_setting())
                            : std::nullopt;
  const QSignalBlocker quiet(setting_);
  setting_->clear();
  for (const LadderSetting& l : settings_)
    setting_->addItem(QString::fromStdString(l.label()) +
                      QString(" (%1 rung%2)").arg(l.rungs).arg(l.rungs == 1 ? "" : "s"));
  for (size_t i = 0; i < settings_.size(); ++i)
    if (drawn && settings_[i] == *drawn) setting_->setCurrentIndex(int(i));
  setting_->setEnabled(settings_.size() > 1);
}

void ChartsPanel::arrange() {
  const std::vector<ChartKind> kinds = store_->chart_kinds();
  for (auto& [group, page] : pages_) {
    QList<charts::ChartWidget*> widgets;
    for (const ChartKind& k : kinds)
      if (k.group == group) widgets << chart(k.id);
    if (arranged_.value(group) == widgets) continue;
    arranged_[group] = widgets;
    fit_heights(group);
    QLayout* layout = charts_layout(page);
    for (charts::ChartWidget* w : widgets) layout->removeWidget(w);
    if (auto* box = qobject_cast<QVBoxLayout*>(layout)) {
      for (charts::ChartWidget* w : widgets) box->addWidget(w);
      continue;
    }
    auto* grid = static_cast<QGridLayout*>(layout);
    for (int i = 0; i < widgets.size(); ++i) {
      if (widgets.size() == 3)
        grid->addWidget(widgets[i], i / 2, i % 2, 1, i == 2 ? 2 : 1);
      else if (widgets.size() >= 4)  // two columns; an odd last one full width
        grid->addWidget(widgets[i], i / 2, i % 2, 1, i == widgets.size() - 1 && i % 2 == 0 ? 2 : 1);
      else
        grid->addWidget(widgets[i], i, 0);
    }
  }
}

bool ChartsPanel::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Resize)
    for (auto& [group, page] : pages_)
      if (auto* scroll = qobject_cast<QScrollArea*>(page); scroll && scroll->viewport() == watched)
        fit_heights(group, static_cast<QResizeEvent*>(event)->size().height());
  // A chart shown after the refresh that found it hidden (a page rearranged for a new session
  // shows its charts a moment later) is drawn now, not left saying "No results yet".
  if (event->type() == QEvent::Show)
    for (const auto& [id, w] : charts_)
      if (w == watched && stale_.contains(id)) schedule_refresh();
  return QObject::eventFilter(watched, event);
}

void ChartsPanel::fit_heights(const QString& group, int viewport_height) {
  QWidget* page = nullptr;
  for (auto& [g, p] : pages_)
    if (g == group) page = p;
  auto* scroll = qobject_cast<QScrollArea*>(page);
  if (scroll == nullptr) return;
  if (viewport_height < 0) viewport_height = scroll->viewport()->height();
  const QList<charts::ChartWidget*>& widgets = arranged_.value(group);
  const QLayout* box = charts_layout(page);
  const QMargins m = box->contentsMargins();
  if (qobject_cast<const QGridLayout*>(box)) {
    // The rows share the visible height (a page of more than four: two rows a screen), never
    // less than 240 px nor than a chart of the page asks (its legend, its names): the charts
    // of a page stand equally tall.
    const int rows = std::max(1, scrolls(group) ? 2 : grid_rows(int(widgets.size())));
    const int room = viewport_height - m.top() - m.bottom() - box->spacing() * (rows - 1);
    int wanted = 0;
    for (const charts::ChartWidget* w : widgets) wanted = std::max(wanted, w->wanted_height());
    for (charts::ChartWidget* w : widgets) w->setFixedHeight(std::max({240, wanted, room / rows}));
    return;
  }
  // Two charts fill the visible height; the others are a scroll away. Never shorter than
  // 380 px, nor than a chart asks (turned category names whole): on a small screen one chart
  // and a half show and the rest scroll. The Setting row stands above the charts.
  const int row = setting_ ? setting_->parentWidget()->sizeHint().height() + box->spacing() : 0;
  const int room = viewport_height - m.top() - m.bottom() - box->spacing() - row;
  for (charts::ChartWidget* w : widgets)
    w->setFixedHeight(std::max({380, w->wanted_height(), room / 2}));
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
  for (const auto& [group, p] : pages_)
    if (p == page && !arranged_.value(group).isEmpty()) {
      const charts::ChartWidget* lead = arranged_.value(group).first();
      for (const auto& [id, w] : charts_)
        if (w == lead) return id;
    }
  for (const auto& [id, w] : charts_)
    if (page && page->isAncestorOf(w)) return id;
  return {};
}

void ChartsPanel::schedule_refresh() {
  if (!timer_->isActive()) timer_->start();
}

void ChartsPanel::refresh(const QString& id) {
  chart(id)->set_chart(store_->chart(id));
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
