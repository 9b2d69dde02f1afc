#include "charts/chart_widget.h"

#include <QAbstractAxis>
#include <QAction>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

#include "charts/chart_axes.h"
#include "charts/chart_legend.h"
#include "charts/chart_scene.h"

namespace rl::gui::charts {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent), view_(new QChartView(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* export_action = new QAction("Export this chart as PNG or SVG...", view_);
  connect(export_action, &QAction::triggered, this, &ChartWidget::export_requested);
  view_->addAction(export_action);
  log_action_ = new QAction("Logarithmic value axis", view_);
  log_action_->setCheckable(true);
  connect(log_action_, &QAction::triggered, this, [this](bool on) { set_value_log(on); });
  view_->addAction(log_action_);
  pct_action_ = new QAction("Bandwidth as % of the read floor", view_);
  pct_action_->setCheckable(true);
  connect(pct_action_, &QAction::triggered, this, &ChartWidget::pct_of_limit_toggled);
  view_->addAction(pct_action_);
  set_chart(Chart{});
}

namespace {

// Line charts of positive quantities can be drawn either way; bars and log2 axes cannot.
bool value_scale_is_choosable(const Chart& c) {
  if (c.y.scale == AxisScale::Log2 || c.y.scale == AxisScale::Category) return false;
  for (const Series& s : c.series)
    if (s.kind == SeriesKind::Bars) return false;
  return !c.series.isEmpty();
}

// Turned names need slots a line of small text thick (Qt Charts gives each the axis's width over
// the count + 2, less 2 x 4 px, and cuts what is thicker), and a bar's turned value label (one
// line or two: "×9.47", "step ×2.53") is shrunk to the bar's thickness. Where this width gives
// neither (27 rungs beside the docks on a laptop), the bars lie along the value axis instead, a
// row per name, their labels on one line beside them.
bool bars_crowded(const Chart& c, int width) {
  if (c.x.scale != AxisScale::Category || c.x.categories.isEmpty() || c.series.isEmpty())
    return false;
  int sets = 0, lines = 0;
  for (const Series& s : c.series) {
    if (s.kind != SeriesKind::Bars) return false;
    ++sets;
    for (const Point& p : s.points) lines = std::max(lines, int(p.label.count('\n')) + 1);
  }
  const int n = int(c.x.categories.size());
  const double slot = width / double(n + 2) - 8;
  if (slot < 1.2 * QFontMetricsF(detail::scaled_font(-1)).height()) return true;
  if (c.stacked || lines == 0) return false;  // a stack carries no value labels
  // The plot is the width less the value axis (about 120 px); bars fill 0.8 of a slot.
  const double bar = (width - 120) / double(n) * 0.8 / sets;
  return bar + 2 < 0.6 * lines * QFontMetricsF(detail::scaled_font(-1.5)).height();
}

}  // namespace

Chart ChartWidget::with_choices(const Chart& chart) const {
  Chart c = chart;
  c.horizontal_bars = bars_crowded(c, width());
  if (c.horizontal_bars) {
    // Qt draws the first category at the bottom: the rows go in reverse, so the ladder reads
    // from its first rung at the top.
    const int n = int(c.x.categories.size());
    std::reverse(c.x.categories.begin(), c.x.categories.end());
    for (Series& s : c.series)
      for (Point& p : s.points) p.x = n - 1 - p.x;
  }
  if (value_log_ && value_scale_is_choosable(c))
    c.y.scale = *value_log_ ? AxisScale::Log10 : AxisScale::Linear;
  return c;
}

void ChartWidget::after_show() {
  scene_->set_hidden(hidden_);
  const QSignalBlocker quiet(log_action_);
  log_action_->setEnabled(value_scale_is_choosable(source_));
  log_action_->setChecked(value_axis_is_log());
  const QSignalBlocker quiet_pct(pct_action_);
  const bool offered = !source_.pct_of_limit_note.isEmpty();
  pct_action_->setVisible(offered);
  pct_action_->setEnabled(source_.pct_of_limit_available);
  pct_action_->setChecked(source_.pct_of_limit);
  // A disabled entry shows no tooltip: its text says why.
  pct_action_->setText(source_.pct_of_limit_available
                           ? QString("Bandwidth as % of the read floor")
                           : "Bandwidth as % of the read floor: " + source_.pct_of_limit_note);
  pct_action_->setToolTip(source_.pct_of_limit_note);
}

void ChartWidget::toggle_series(const QString& name) {
  if (!hidden_.remove(name)) hidden_.insert(name);
  if (scene_) scene_->set_hidden(hidden_);
}

bool ChartWidget::series_visible(const QString& name) const {
  return scene_ && scene_->series_visible(name);
}

void ChartWidget::set_value_log(std::optional<bool> log) {
  value_log_ = log;
  build(with_choices(source_));
}

bool ChartWidget::value_axis_is_log() const {
  return scene_ && detail::resolve_y(scene_->data()) == detail::Scale::Log10;
}

ChartWidget::~ChartWidget() {
  delete scene_;  // before the view deletes the QChart it refers to
}

void ChartWidget::set_chart(const Chart& chart) {
  source_ = chart;
  const Chart shown = with_choices(chart);
  if (scene_ && scene_->update(shown)) {
    after_show();
    return;
  }
  build(shown);
}

// The chart's texts take their sizes from the application font when built: a new one (the text
// zoom, a full-screen mode coming or going) rebuilds it. Qt delivers the change as FontChange
// (propagated), as ApplicationFontChange or both: one rebuild, after the events of the change.
bool ChartWidget::event(QEvent* event) {
  const bool handled = QWidget::event(event);
  if (event->type() == QEvent::ApplicationFontChange || event->type() == QEvent::FontChange)
    rebuild_later();
  return handled;
}

void ChartWidget::rebuild_later() {
  if (rebuild_pending_ || !scene_) return;
  rebuild_pending_ = true;
  QMetaObject::invokeMethod(
      this,
      [this] {
        rebuild_pending_ = false;
        if (scene_) build(with_choices(source_));
      },
      Qt::QueuedConnection);
}

void ChartWidget::build(const Chart& chart) {
  auto* qchart = new QChart;
  auto* next = new ChartScene(chart, qchart, nullptr, high_contrast_);
  connect(next, &ChartScene::legend_clicked, this, &ChartWidget::toggle_series);
  connect(next, &ChartScene::wanted_height_changed, this, &ChartWidget::wanted_height_changed);
  connect(next, &ChartScene::point_clicked, this, [this](int series, int index, bool twice) {
    const Chart& c = scene_->data();
    if (series < 0 || series >= int(c.series.size())) return;
    const auto& points = c.series[series].points;
    if (index >= 0 && index < int(points.size()) && points[index].source)
      emit point_clicked(*points[index].source, twice);
  });
  connect(next, &ChartScene::hover_text, this, [](const QString& text) {
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(QCursor::pos(), text);
  });
  QChart* old = view_->chart();
  view_->setChart(qchart);  // the view does not delete the chart it shows no longer
  delete scene_;
  delete old;
  scene_ = next;
  scene_->fit_legend(width());
  after_show();
  emit wanted_height_changed();
}

void ChartWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (!scene_) return;
  scene_->fit_legend(width());
  if (bars_crowded(scene_->data(), width()) != scene_->data().horizontal_bars) rebuild_later();
}

void ChartWidget::set_high_contrast(bool on) {
  if (on == high_contrast_) return;
  high_contrast_ = on;
  if (scene_) build(Chart(scene_->data()));
}

QStringList ChartWidget::cut_text() const {
  QStringList cut;
  const QChart* chart = view_->chart();
  const QRectF room = chart->sceneBoundingRect().adjusted(-1, -1, 1, 1);
  for (const QGraphicsItem* item : view_->scene()->items()) {
    // Bar value labels are the chart layer's only simple text items: one left out is cut too.
    if (const auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item);
        t && !t->isVisible() && !t->text().isEmpty())
      cut << "bar label left out: " + t->text();
    if (!item->isVisible()) continue;
    QString text;
    if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item))
      text = t->toPlainText();
    else if (const auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
      text = t->text();
    else
      continue;
    if (text.trimmed().isEmpty()) continue;
    // Qt Charts elides what does not fit with "...".
    if (text.contains("...") || text.contains(QChar(0x2026))) cut << "elided: " + text;
    if (!room.contains(item->sceneBoundingRect())) cut << "outside the chart: " + text;
  }
  if (const ChartLegend* legend = scene_ ? scene_->legend() : nullptr)
    for (int i = 0; i < int(legend->entry_rects().size()); ++i)
      if (!room.contains(legend->mapRectToScene(legend->entry_rects()[i])))
        cut << "legend entry outside the chart: " + legend->entries()[i].text;
  return cut;
}

QStringList ChartWidget::text_fonts() const {
  QStringList fonts;
  const QChart* chart = view_->chart();
  auto add = [&fonts](const QString& what, const QFont& font) {
    fonts << what + kFontMark + font.toString();
  };
  add("title", chart->titleFont());
  fonts << "title text: " + chart->title();  // the subtitle's size is in the title's HTML
  for (const QAbstractAxis* a : chart->axes()) {
    add("axis labels", a->labelsFont());
    add("axis title", a->titleFont());
  }
  for (const QGraphicsItem* item : view_->scene()->items()) {
    if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item))
      add(t->toPlainText(), t->font());
    else if (const auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
      add(t->text(), t->font());
  }
  fonts.sort();
  return fonts;
}

int ChartWidget::wanted_height() const {
  if (!scene_ || scene_->wanted_height() <= 0) return 0;
  // Hidden, this widget's new height reaches the chart only when shown: the difference between
  // them would ask for more and more. The last answer stands until then.
  if (!isVisible()) return last_wanted_;
  // The view's frame and anything else between the widget's edge and the chart's.
  const double around = height() - view_->chart()->size().height();
  last_wanted_ = int(std::ceil(scene_->wanted_height() + std::max(0.0, around)));
  return last_wanted_;
}

const Chart& ChartWidget::chart() const {
  return scene_->data();
}
int ChartWidget::drawn_points() const {
  return scene_->drawn_points();
}
QString ChartWidget::tooltip(int series, int index) const {
  return scene_->tooltip(series, index);
}
QImage ChartWidget::grab_image() const {
  return view_->grab().toImage();
}

}  // namespace rl::gui::charts
