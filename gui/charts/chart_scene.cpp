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
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "charts/palette.h"

namespace rl::gui::charts {

namespace {

enum class Scale { Linear, Log2, Log10, Category };

Scale resolve_x(const Chart& c) {
  switch (c.x.scale) {
    case AxisScale::Log2:
      return Scale::Log2;
    case AxisScale::Category:
      return Scale::Category;
    default:
      return Scale::Linear;
  }
}

// Log scale when the positive values span more than a decade and a half (a linear axis would
// flatten everything but the largest values); QLogValueAxis drops series with values <= 0.
Scale resolve_y(const Chart& c) {
  if (c.y.scale == AxisScale::Log2) return Scale::Log2;
  if (c.y.scale != AxisScale::Auto) return Scale::Linear;
  double lo = INFINITY, hi = 0;
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      if (s.kind == SeriesKind::Bars || p.y <= 0 || !std::isfinite(p.y)) continue;
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
  return hi > 0 && hi / lo >= 30 ? Scale::Log10 : Scale::Linear;
}

bool usable(double v, Scale s) {
  return std::isfinite(v) && (s == Scale::Linear || s == Scale::Category || v > 0);
}

double tx(double x, Scale s) {
  return s == Scale::Log2 ? std::log2(x) : x;
}

const char* kSuperscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};

QString tick_label(int k, TickStyle style) {
  if (style == TickStyle::Plain && k >= 0 && k < 53)
    return QString::number(std::ldexp(1.0, k), 'f', 0);
  QString exp;
  for (QChar ch : QString::number(k))
    exp += ch == '-' ? QString("⁻") : QString(kSuperscripts[ch.digitValue()]);
  return "2" + exp;
}

QFont scaled_font(double delta_pt, bool bold = false) {
  QFont f = QApplication::font();
  f.setPointSizeF(std::max(6.0, f.pointSizeF() + delta_pt));
  f.setBold(bold);
  return f;
}

}  // namespace

struct ChartScene::Drawn {
  SeriesKind kind = SeriesKind::Line;
  QLineSeries* line = nullptr;
  QLineSeries* upper = nullptr;
  QLineSeries* lower = nullptr;
  QBarSet* bar = nullptr;
  QList<int> shown;  // data point indices, in the order drawn (hover maps back through it)
};

ChartScene::ChartScene(const Chart& data, QChart* chart, QObject* parent)
    : QObject(parent), data_(data), chart_(chart) {
  build();
  fill();
  connect(chart_, &QChart::plotAreaChanged, this, [this] { place_overlays(); });
}

ChartScene::~ChartScene() {
  qDeleteAll(drawn_);
}

QString ChartScene::signature(const Chart& c) const {
  QString sig = QString("%1|%2|%3|%4|%5|")
                    .arg(int(resolve_x(c)))
                    .arg(int(resolve_y(c)))
                    .arg(c.x.categories.join(','))
                    .arg(c.title + c.subtitle + c.x.title + c.y.title)
                    .arg(c.empty());
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

void ChartScene::build() {
  signature_ = signature(data_);
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->setBackgroundRoundness(0);
  chart_->setTitleFont(scaled_font(2, true));
  chart_->setTitle(
      data_.subtitle.isEmpty()
          ? data_.title.toHtmlEscaped()
          : QString("%1<br><span style=\"font-size:%2pt; font-weight:normal\">%3</span>")
                .arg(data_.title.toHtmlEscaped())
                .arg(QApplication::font().pointSizeF() - 0.5)
                .arg(data_.subtitle.toHtmlEscaped()));
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->legend()->setFont(scaled_font(-0.5));
  chart_->legend()->setShowToolTips(true);

  const QFont tick_font = scaled_font(-1);
  const QFont axis_title_font = scaled_font(0);
  if (data_.empty()) {
    chart_->legend()->hide();
  } else {
    const Scale xs = resolve_x(data_), ys = resolve_y(data_);
    QAbstractAxis* x = nullptr;
    if (xs == Scale::Category) {
      auto* cat = new QBarCategoryAxis;
      cat->append(data_.x.categories);
      if (data_.x.categories.size() > 4)
        cat->setLabelsAngle(-45);  // -30 still truncates long names
      x = cat;
    } else if (xs == Scale::Log2) {
      auto* cat = new QCategoryAxis;
      cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
      x = cat;
    } else {
      x = new QValueAxis;
    }
    QAbstractAxis* y = nullptr;
    if (ys == Scale::Log10) {
      auto* log = new QLogValueAxis;
      log->setBase(10);
      log->setLabelFormat("%g");
      log->setMinorTickCount(8);
      y = log;
    } else {
      auto* lin = new QValueAxis;
      lin->setLabelFormat("%.4g");
      y = lin;
    }
    for (QAbstractAxis* a : {x, y}) {
      a->setLabelsFont(tick_font);
      a->setTitleFont(axis_title_font);
    }
    x->setTitleText(data_.x.title);
    y->setTitleText(data_.y.title + (ys == Scale::Log10 ? "  (log scale)" : ""));
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(y, Qt::AlignLeft);

    auto attach = [&](QAbstractSeries* s) {
      chart_->addSeries(s);
      s->attachAxis(x);
      s->attachAxis(y);
    };
    QBarSeries* bars = nullptr;
    int palette_index = 0;
    for (int i = 0; i < data_.series.size(); ++i) {
      const Series& s = data_.series[i];
      auto* d = new Drawn;
      d->kind = s.kind;
      drawn_.append(d);
      const QColor color = s.color.isValid() ? s.color : palette_color(palette_index++);
      if (s.kind == SeriesKind::Bars) {
        if (!bars) {
          bars = new QBarSeries;
          bars->setBarWidth(0.8);
        }
        d->bar = new QBarSet(s.name);
        d->bar->setColor(color);
        d->bar->setBorderColor(color.darker(130));
        bars->append(d->bar);
        connect(d->bar, &QBarSet::hovered, this, [this, i](bool on, int cat) {
          int idx = -1;
          for (int k = 0; k < data_.series[i].points.size(); ++k)
            if (int(data_.series[i].points[k].x) == cat) idx = k;
          emit hover_text(on && idx >= 0 ? tooltip(i, idx) : QString());
        });
        continue;
      }
      bool spread = false;
      for (const auto& p : s.points) spread = spread || p.has_spread();
      if (s.kind == SeriesKind::Line && spread) {
        d->upper = new QLineSeries(this);
        d->lower = new QLineSeries(this);
        auto* band = new QAreaSeries(d->upper, d->lower);
        band->setName(s.name + " (min-max)");
        QColor fill = color;
        fill.setAlpha(28);  // light: bands of several series overlap
        band->setBrush(fill);
        band->setPen(Qt::NoPen);
        attach(band);
        for (auto* m : chart_->legend()->markers(band)) m->setVisible(false);
      }
      d->line = new QLineSeries;
      d->line->setName(s.name);
      QPen pen(color, s.kind == SeriesKind::Roof ? 1.5 : 2.2);
      if (s.dashed || s.kind == SeriesKind::Roof)
        pen.setStyle(s.kind == SeriesKind::Roof ? Qt::DashDotLine : Qt::DashLine);
      d->line->setPen(pen);
      if (s.kind == SeriesKind::Line) {
        d->line->setPointsVisible(true);
        d->line->setMarkerSize(7);
      }
      attach(d->line);
      if (s.kind == SeriesKind::Line)
        connect(d->line, &QXYSeries::hovered, this,
                [this, i](const QPointF& p, bool state) { on_xy_hovered(i, p, state); });
    }
    if (bars) attach(bars);
    if (signature_.endsWith('W')) {
      auto* wrong = new QScatterSeries;
      wrong->setName("wrong result (differs from the host)");
      wrong->setColor(palette_wrong());
      wrong->setBorderColor(Qt::black);
      wrong->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
      wrong->setMarkerSize(13);
      attach(wrong);
      wrong_series_ = wrong;
      connect(wrong, &QXYSeries::hovered, this,
              [this](const QPointF& p, bool state) { on_xy_hovered(-1, p, state); });
    }
  }

  warnings_ = new QGraphicsTextItem(chart_);
  warnings_->setDefaultTextColor(palette_wrong());
  warnings_->setFont(scaled_font(-0.5, true));
  warnings_->setZValue(20);
  empty_hint_ = new QGraphicsTextItem(chart_);
  empty_hint_->setDefaultTextColor(QColor(90, 90, 90));
  empty_hint_->setFont(scaled_font(1));
  empty_hint_->setZValue(20);
}

bool ChartScene::update(const Chart& data) {
  if (signature(data) != signature_) return false;
  data_ = data;
  fill();
  return true;
}

void ChartScene::fill() {
  drawn_points_ = 0;
  wrong_points_.clear();
  qDeleteAll(bar_labels_);
  bar_labels_.clear();
  warnings_->setHtml(QString());
  empty_hint_->setPlainText(data_.empty() ? data_.empty_hint : QString());
  if (data_.empty()) {
    place_overlays();
    return;
  }
  const Scale xs = resolve_x(data_), ys = resolve_y(data_);
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  auto grow = [&](double x, double y) {
    if (std::isfinite(x)) xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    if (std::isfinite(y)) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  };
  QList<QPointF> wrong_xy;
  int dropped = 0;
  for (int i = 0; i < data_.series.size(); ++i) {
    const Series& s = data_.series[i];
    Drawn* d = drawn_[i];
    d->shown.clear();
    if (s.kind == SeriesKind::Roof) {
      if (!s.points.isEmpty() && usable(s.points[0].y, ys)) grow(NAN, s.points[0].y);
      continue;
    }
    for (int k = 0; k < s.points.size(); ++k) {
      const Point& p = s.points[k];
      if (!usable(p.x, xs) || !usable(p.y, ys)) {
        ++dropped;
        continue;
      }
      grow(tx(p.x, xs), p.y);
      if (s.kind == SeriesKind::Line && p.has_spread() && usable(p.lo, ys))
        grow(NAN, p.lo), grow(NAN, p.hi);
      if (p.wrong && s.kind == SeriesKind::Line) {
        wrong_points_.append({i, k});
        wrong_xy.append(QPointF(tx(p.x, xs), p.y));
        continue;
      }
      d->shown.append(k);
    }
    std::sort(d->shown.begin(), d->shown.end(),
              [&](int a, int b) { return s.points[a].x < s.points[b].x; });
    if (s.kind == SeriesKind::Bars) {
      QList<qreal> values(data_.x.categories.size(), 0.0);
      for (int k : d->shown)
        if (int(s.points[k].x) >= 0 && int(s.points[k].x) < values.size() && !s.points[k].wrong)
          values[int(s.points[k].x)] = s.points[k].y;
      d->bar->remove(0, d->bar->count());
      d->bar->append(values);
      drawn_points_ += d->shown.size();
      continue;
    }
    QList<QPointF> line, upper, lower;
    for (int k : d->shown) {
      const Point& p = s.points[k];
      line.append(QPointF(tx(p.x, xs), p.y));
      const bool spread = p.has_spread() && usable(p.lo, ys);
      upper.append(QPointF(tx(p.x, xs), spread ? p.hi : p.y));
      lower.append(QPointF(tx(p.x, xs), spread ? p.lo : p.y));
    }
    d->line->replace(line);  // one bulk update, not a signal per point
    if (d->upper) d->upper->replace(upper), d->lower->replace(lower);
    drawn_points_ += line.size();
  }
  if (wrong_series_) static_cast<QScatterSeries*>(wrong_series_)->replace(wrong_xy);
  drawn_points_ += wrong_xy.size();
  if (!std::isfinite(xmin)) xmin = xs == Scale::Log2 ? 0 : 0, xmax = 1;
  if (!std::isfinite(ymin)) ymin = ys == Scale::Log10 ? 1 : 0, ymax = 1;

  // x axis range and ticks
  QAbstractAxis* xa = chart_->axes(Qt::Horizontal).value(0);
  double x_lo = xmin, x_hi = xmax;
  if (xs == Scale::Log2) {
    const int k0 = int(std::floor(xmin + 1e-9)), k1 = int(std::ceil(xmax - 1e-9));
    x_lo = k0 - 0.3, x_hi = std::max(k1, k0 + 1) + 0.3;
    if (k1 == k0) x_lo = k0 - 1.3;
    auto* cat = static_cast<QCategoryAxis*>(xa);
    for (const QString& l : cat->categoriesLabels()) cat->remove(l);
    cat->setStartValue(x_lo);
    const int step = std::max(1, (k1 - k0 + 11) / 12);
    for (int k = k0; k <= k1; k += step) cat->append(tick_label(k, data_.x.ticks), k);
    cat->setRange(x_lo, x_hi);
  } else if (xs == Scale::Linear) {
    const double pad = xmax > xmin ? (xmax - xmin) * 0.05 : 1;
    x_lo = xmin - pad, x_hi = xmax + pad;
    static_cast<QValueAxis*>(xa)->setRange(x_lo, x_hi);
  } else {
    x_lo = -0.5, x_hi = data_.x.categories.size() - 0.5;
  }
  // y axis
  QAbstractAxis* ya = chart_->axes(Qt::Vertical).value(0);
  if (ys == Scale::Log10) {
    double lo = std::pow(10.0, std::floor(std::log10(ymin))),
           hi = std::pow(10.0, std::ceil(std::log10(ymax)));
    if (hi <= lo) hi = lo * 10;
    // A hair wider than the decades, so the end ticks are not lost to rounding.
    static_cast<QLogValueAxis*>(ya)->setRange(lo * 0.999, hi * 1.001);
  } else {
    auto* lin = static_cast<QValueAxis*>(ya);
    lin->setRange(
        std::min(0.0, ymin * 1.1),
        ymax > 0 ? ymax * (data_.series.value(0).kind == SeriesKind::Bars ? 1.18 : 1.08) : 1);
    lin->applyNiceNumbers();
  }
  // roof lines span the whole x range
  for (int i = 0; i < data_.series.size(); ++i) {
    const Series& s = data_.series[i];
    if (s.kind != SeriesKind::Roof || s.points.isEmpty()) continue;
    const double y = s.points[0].y;
    drawn_[i]->line->replace(usable(y, ys) ? QList<QPointF>{{x_lo, y}, {x_hi, y}}
                                           : QList<QPointF>{});
  }
  // bar labels
  for (int i = 0; i < data_.series.size(); ++i) {
    const Series& s = data_.series[i];
    if (s.kind != SeriesKind::Bars) continue;
    for (int k : drawn_[i]->shown) {
      auto* item = new QGraphicsSimpleTextItem(s.points[k].label, chart_);
      item->setFont(scaled_font(-1.5, s.points[k].wrong));
      item->setBrush(s.points[k].wrong ? palette_wrong() : QColor(40, 40, 40));
      item->setZValue(15);
      item->setData(0, i);
      item->setData(1, k);
      bar_labels_.append(item);
    }
  }
  QStringList warnings = data_.warnings;
  if (dropped > 0 && ys == Scale::Log10)
    warnings.append(
        QString("%1 value(s) at or below zero are not drawn on the log scale").arg(dropped));
  if (warnings.size() > 5) {
    const int more = warnings.size() - 4;
    warnings = warnings.mid(0, 4);
    warnings.append(QString("... and %1 more").arg(more));
  }
  if (!warnings.isEmpty()) {
    QStringList escaped;
    for (const QString& w : warnings) escaped.append(w.toHtmlEscaped());
    warnings_->setHtml(escaped.join("<br>"));
  }
  place_overlays();
}

void ChartScene::place_overlays() {
  const QRectF plot = chart_->plotArea();
  const QRectF whole = chart_->rect();
  if (!empty_hint_->toPlainText().isEmpty()) {
    empty_hint_->setTextWidth(std::min(whole.width() * 0.75, 620.0));
    const QSizeF sz = empty_hint_->boundingRect().size();
    empty_hint_->setPos(whole.center() - QPointF(sz.width() / 2, sz.height() / 2));
  }
  warnings_->setTextWidth(std::max(100.0, plot.width() - 16));
  warnings_->setPos(plot.topLeft() + QPointF(8, 4));
  int bar_sets = 0;
  QAbstractSeries* bars = nullptr;
  for (auto* s : chart_->series())
    if (s->type() == QAbstractSeries::SeriesTypeBar) bars = s;
  for (const Drawn* d : drawn_) bar_sets += d->kind == SeriesKind::Bars;
  if (!bars) return;
  const double width = static_cast<QBarSeries*>(bars)->barWidth();
  for (auto* item : bar_labels_) {
    const int i = item->data(0).toInt(), k = item->data(1).toInt();
    int set = 0;
    for (int j = 0; j < i; ++j) set += drawn_[j]->kind == SeriesKind::Bars;
    const Point& p = data_.series[i].points[k];
    const double x = p.x - width / 2 + (set + 0.5) * width / bar_sets;
    const QPointF at = chart_->mapToPosition(QPointF(x, p.wrong ? 0 : p.y), bars);
    const QRectF r = item->boundingRect();
    item->setPos(at.x() - r.width() / 2, at.y() - r.height() - 2);
  }
}

void ChartScene::fit_legend(double width) {
  const QFontMetricsF metrics(chart_->legend()->font());
  double needed = 0;
  for (QLegendMarker* m : chart_->legend()->markers())
    if (m->isVisible()) needed += metrics.horizontalAdvance(m->label()) + 3 * metrics.height();
  const Qt::Alignment side = needed > width - 40 ? Qt::AlignRight : Qt::AlignBottom;
  if (chart_->legend()->alignment() != side) chart_->legend()->setAlignment(side);
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
  const Scale xs = resolve_x(data_);
  QAbstractSeries* s = series < 0 ? wrong_series_ : drawn_[series]->line;
  const QPointF cursor = chart_->mapToPosition(p, s);
  double best = INFINITY;
  QPair<int, int> hit{-1, -1};
  auto consider = [&](int si, int k) {
    const Point& q = data_.series[si].points[k];
    const QPointF at = chart_->mapToPosition(QPointF(tx(q.x, xs), q.y), s);
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
