#include "charts/chart_scene.h"

#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_legend.h"
#include "charts/palette.h"

namespace rl::gui::charts {

using namespace detail;

ChartScene::ChartScene(const Chart& data, QChart* chart, QObject* parent, bool high_contrast)
    : QObject(parent), data_(data), chart_(chart), high_contrast_(high_contrast) {
  build();
  fill();
  connect(chart_, &QChart::plotAreaChanged, this, [this] {
    place_overlays();
    update_wanted_height(chart_->plotArea());
  });
  connect(chart_, &QGraphicsWidget::geometryChanged, this, [this] { place_legend(); });
}

ChartScene::~ChartScene() {
  qDeleteAll(drawn_);
}

QString ChartScene::signature(const Chart& c) const {
  QString sig = QString("%1|%2|%3|%4|%5|")
                    .arg(int(resolve_x(c)))
                    .arg(int(resolve_y(c)))
                    .arg(c.x.categories.join(','))
                    .arg(c.title + c.subtitle + c.pointer_notes.join(",") + c.x.title + c.y.title)
                    .arg(c.empty());
  if (c.stacked) sig += "stacked|";
  if (c.horizontal_bars) sig += "horizontal|";
  bool wrong = false;
  for (const auto& s : c.series) {
    bool spread = false;
    for (const auto& p : s.points) {
      spread = spread || p.has_spread();
      wrong = wrong || p.wrong;
    }
    sig += QString("%1:%2:%3:%4:%5;")
               .arg(s.name)
               .arg(int(s.kind))
               .arg(s.color.name())
               .arg(s.dashed)
               .arg(spread);
  }
  return sig + (wrong ? "W" : "");
}

namespace {

QAbstractAxis* make_x_axis(const Chart& data, Scale xs) {
  if (xs == Scale::Category) {
    // Labels are rich text; fit_categories() wraps or turns them once the plot's width is
    // known.
    auto* cat = new QBarCategoryAxis;
    QStringList labels;
    for (const QString& c : data.x.categories) labels << c.toHtmlEscaped();
    cat->append(labels);
    return cat;
  }
  if (xs == Scale::Log2) {
    auto* cat = new QCategoryAxis;
    cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    return cat;
  }
  return new QValueAxis;
}

QAbstractAxis* make_y_axis(Scale ys) {
  if (ys == Scale::Log2) {
    auto* cat = new QCategoryAxis;
    cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    return cat;
  }
  if (ys == Scale::Log10) {
    auto* log = new QLogValueAxis;
    log->setBase(10);
    log->setLabelFormat("%g");
    log->setMinorTickCount(8);
    return log;
  }
  auto* lin = new QValueAxis;
  lin->setLabelFormat("%.4g");
  return lin;
}

QAbstractBarSeries* make_bar_series(const Chart& data) {
  if (data.horizontal_bars)
    return data.stacked ? static_cast<QAbstractBarSeries*>(new QHorizontalStackedBarSeries)
                        : static_cast<QAbstractBarSeries*>(new QHorizontalBarSeries);
  return data.stacked ? static_cast<QAbstractBarSeries*>(new QStackedBarSeries)
                      : static_cast<QAbstractBarSeries*>(new QBarSeries);
}

void attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y) {
  chart->addSeries(s);
  s->attachAxis(x);
  s->attachAxis(y);
}

}  // namespace

void ChartScene::build() {
  signature_ = signature(data_);
  build_title();
  if (data_.empty()) {
    chart_->legend()->hide();
  } else {
    const Scale xs = resolve_x(data_), ys = resolve_y(data_);
    QAbstractAxis* x = make_x_axis(data_, xs);
    QAbstractAxis* y = make_y_axis(ys);
    for (QAbstractAxis* a : {x, y}) {
      // On a projector the tick labels are as large as the text and black, the grid darker.
      a->setLabelsFont(scaled_font(high_contrast_ ? 0 : -1, high_contrast_));
      a->setTitleFont(scaled_font(high_contrast_ ? 0.5 : 0, high_contrast_));
      if (high_contrast_) {
        a->setLabelsBrush(Qt::black);
        a->setTitleBrush(Qt::black);
        a->setLinePen(QPen(Qt::black, 1.5));
        a->setGridLinePen(QPen(QColor(150, 150, 150), 1));
      }
    }
    x->setTitleText(data_.x.title);
    y->setTitleText(data_.y.title + (ys == Scale::Log10 ? "  (log scale)" : ""));
    chart_->addAxis(x, data_.horizontal_bars ? Qt::AlignLeft : Qt::AlignBottom);
    chart_->addAxis(y, data_.horizontal_bars ? Qt::AlignBottom : Qt::AlignLeft);
    build_series(x, y);
    if (signature_.endsWith('W')) build_wrong_series(x, y);
    build_legend();
  }
  empty_hint_ = new QGraphicsTextItem(chart_);
  empty_hint_->setDefaultTextColor(QColor(90, 90, 90));
  empty_hint_->setFont(scaled_font(1));
  empty_hint_->setZValue(20);
}

void ChartScene::build_title() {
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->setBackgroundRoundness(0);
  chart_->setTitleFont(scaled_font(2, true));
  chart_->setTitle(
      shown_subtitle().isEmpty()
          ? data_.title.toHtmlEscaped()
          : QString("%1<br><span style=\"font-size:%2pt; font-weight:normal\">%3</span>")
                .arg(data_.title.toHtmlEscaped())
                .arg(QApplication::font().pointSizeF() - 0.5)
                .arg(subtitle_html(shown_subtitle())));
  // Our own legend stands below the plot (ChartLegend: it wraps where Qt's cuts names).
  chart_->legend()->hide();
  base_bottom_margin_ = chart_->margins().bottom();
}

void ChartScene::build_series(QAbstractAxis* x, QAbstractAxis* y) {
  QAbstractBarSeries* bars = nullptr;
  int palette_index = 0;
  for (int i = 0; i < data_.series.size(); ++i) {
    const Series& s = data_.series[i];
    auto* d = new Drawn;
    d->kind = s.kind;
    drawn_.append(d);
    QColor color = s.color.isValid() ? s.color : palette_color(palette_index++);
    if (high_contrast_) color = high_contrast_twin(color);
    if (s.kind == SeriesKind::Bars) {
      if (!bars) {
        bars = make_bar_series(data_);
        bars->setBarWidth(data_.stacked ? 0.6 : 0.8);
      }
      build_bar_set(i, *d, color, bars);
    } else if (s.kind == SeriesKind::Cells) {
      build_cells(i, *d, color, x, y);
    } else {
      build_line(i, *d, color, x, y);
    }
  }
  if (bars) attach(chart_, bars, x, y);
}

void ChartScene::build_bar_set(int i, Drawn& d, const QColor& color, QAbstractBarSeries* bars) {
  d.bar = new QBarSet(data_.series[i].name);
  d.bar->setColor(color);
  d.bar->setBorderColor(color.darker(130));
  bars->append(d.bar);
  connect_clicks(i, d);
  connect(d.bar, &QBarSet::hovered, this, [this, i](bool on, int cat) {
    int idx = -1;
    for (int k = 0; k < data_.series[i].points.size(); ++k)
      if (int(data_.series[i].points[k].x) == cat) idx = k;
    emit hover_text(on && idx >= 0 ? tooltip(i, idx) : QString());
  });
}

void ChartScene::build_line(int i, Drawn& d, const QColor& color, QAbstractAxis* x,
                            QAbstractAxis* y) {
  const Series& s = data_.series[i];
  bool spread = false;
  for (const auto& p : s.points) spread = spread || p.has_spread();
  if (s.kind == SeriesKind::Line && spread) {
    d.upper = new QLineSeries(this);
    d.lower = new QLineSeries(this);
    auto* band = new QAreaSeries(d.upper, d.lower);
    band->setName(s.name + " (min-max)");
    QColor fill = color;
    fill.setAlpha(28);  // light: bands of several series overlap
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    attach(chart_, band, x, y);
    d.band = band;
    for (auto* m : chart_->legend()->markers(band)) m->setVisible(false);
  }
  d.line = new QLineSeries;
  d.line->setName(s.name);
  QPen pen(color, line_width(s.kind, high_contrast_));
  if (s.dashed || s.kind == SeriesKind::Roof)
    pen.setStyle(s.kind == SeriesKind::Roof ? Qt::DashDotLine : Qt::DashLine);
  d.line->setPen(pen);
  if (s.kind == SeriesKind::Line) {
    // Each line its own shape (palette_marker), so lines of one colour still differ.
    const double size = marker_size(high_contrast_);
    d.line->setPointsVisible(true);
    d.line->setMarkerSize(size);
    d.line->setLightMarker(marker_image(line_index(i), color, size));
  }
  attach(chart_, d.line, x, y);
  connect_clicks(i, d);
  if (s.kind == SeriesKind::Line)
    connect(d.line, &QXYSeries::hovered, this,
            [this, i](const QPointF& p, bool state) { on_xy_hovered(i, p, state); });
}

void ChartScene::build_wrong_series(QAbstractAxis* x, QAbstractAxis* y) {
  auto* wrong = new QScatterSeries;
  wrong->setName("wrong result (differs from the host)");
  wrong->setColor(palette_wrong());
  wrong->setBorderColor(Qt::black);
  wrong->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
  wrong->setMarkerSize(16);  // larger than the line markers it may sit on
  attach(chart_, wrong, x, y);
  wrong_series_ = wrong;
  connect(wrong, &QXYSeries::hovered, this,
          [this](const QPointF& p, bool state) { on_xy_hovered(-1, p, state); });
}

bool ChartScene::update(const Chart& data) {
  if (signature(data) != signature_) return false;
  data_ = data;
  fill();
  return true;
}

QString ChartScene::tooltip(int series, int index) const {
  if (series < 0 || series >= data_.series.size()) return {};
  const auto& pts = data_.series[series].points;
  return index >= 0 && index < pts.size() ? pts[index].tooltip : QString();
}

void ChartScene::on_xy_hovered(int series, const QPointF& p, bool state) {
  if (!state) {
    emit hover_text(QString());
    return;
  }
  // The nearest drawn point on screen: hovered() reports the cursor, not the point.
  const Scale xs = resolve_x(data_), ys = resolve_y(data_);
  QAbstractSeries* s = series < 0              ? wrong_series_
                       : drawn_[series]->cells ? drawn_[series]->cells
                                               : drawn_[series]->line;
  const QPointF cursor = chart_->mapToPosition(p, s);
  double best = INFINITY;
  QPair<int, int> hit{-1, -1};
  auto consider = [&](int si, int k) {
    const Point& q = data_.series[si].points[k];
    const QPointF at = chart_->mapToPosition(QPointF(tx(q.x, xs), tx(q.y, ys)), s);
    const double dist = QLineF(at, cursor).length();
    if (dist < best) best = dist, hit = {si, k};
  };
  if (series < 0) {
    for (const auto& wp : wrong_points_) consider(wp.first, wp.second);
  } else {
    for (int k : drawn_[series]->shown) consider(series, k);
  }
  emit hover_text(best < 30 ? tooltip(hit.first, hit.second) : QString());
}

}  // namespace rl::gui::charts
