#include "story/story_bars.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

#include "engine/report/format.h"
#include "engine/report/time_basis.h"

namespace rl::gui {

namespace {
const QColor kDone("#4e79a7");     // bars already told
const QColor kCurrent("#f28e2b");  // the step on screen
const QColor kLive("#59a14f");     // outline of a bar measured in this sitting
}  // namespace

StoryBars::StoryBars(QWidget* parent) : QWidget(parent) {
  setObjectName("story_bars");
  anim_.setDuration(600);
  anim_.setStartValue(0.0);
  anim_.setEndValue(1.0);
  anim_.setEasingCurve(QEasingCurve::OutCubic);
  connect(&anim_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
    arrival_ = v.toDouble();
    update();
  });
}

void StoryBars::set_story(const ResolvedStory& story, int current) {
  std::vector<Bar> bars;
  for (const ResolvedStep& s : story.steps) bars.push_back({s.cumulative_speedup, s.live, s.noisy});
  const bool arrives = current != current_ || std::size_t(current) >= bars_.size() || current < 0 ||
                       bars_[std::size_t(current)].value != bars[std::size_t(current)].value;
  bars_ = std::move(bars);
  current_ = std::clamp(current, -1, int(bars_.size()) - 1);
  axis_title_ =
      QString("speed-up over step 1 (%1)").arg(QString::fromStdString(time_basis_name(story.time)));
  if (arrives && current_ >= 0) {
    anim_.stop();
    arrival_ = 0;
    anim_.start();
  }
  update();
}

int StoryBars::shown_bars() const {
  int n = 0;
  for (int i = 0; i <= current_ && i < int(bars_.size()); ++i)
    n += bars_[i].value.has_value() && !(i == current_ && current_hidden_);
  return n;
}

void StoryBars::set_current_hidden(bool hidden) {
  if (hidden == current_hidden_) return;
  current_hidden_ = hidden;
  if (!hidden && current_ >= 0) {  // revealed: the bar arrives now
    anim_.stop();
    arrival_ = 0;
    anim_.start();
  }
  update();
}

void StoryBars::set_guesses(const std::map<int, double>& guesses) {
  guesses_ = guesses;
  update();
}

std::optional<double> StoryBars::value(int step) const {
  if (step < 0 || step >= int(bars_.size())) return std::nullopt;
  return bars_[step].value;
}

bool StoryBars::live(int step) const {
  return step >= 0 && step < int(bars_.size()) && bars_[step].live;
}

void StoryBars::finish_arrival() {
  anim_.stop();
  arrival_ = 1;
  update();
}

double StoryBars::top_value() const {
  double top = 1;
  for (const Bar& b : bars_)
    if (b.value) top = std::max(top, *b.value);
  // A guess within reason widens the scale; a wild one is drawn at the top, its label saying it.
  const double measured = top;
  for (const auto& [step, guess] : guesses_) top = std::max(top, std::min(guess, 2 * measured));
  return top * 1.12;  // room for the value over the tallest bar
}

QRect StoryBars::plot_rect() const {
  const QFontMetrics fm(font());
  // Left: the axis' numbers; bottom: the step numbers; top: the axis title.
  return rect().adjusted(fm.horizontalAdvance("×00") + 12, fm.height() + 8, -8,
                         -(fm.height() + 10));
}

QRect StoryBars::bar_rect(int step) const {
  if (step < 0 || step > current_ || step >= int(bars_.size()) || !bars_[step].value) return {};
  if (step == current_ && current_hidden_) return {};
  const QRect plot = plot_rect();
  const double slot = double(plot.width()) / double(bars_.size());
  double h = plot.height() * *bars_[step].value / top_value();
  if (step == current_) h *= arrival_;
  const int w = std::max(4, int(slot * 0.62));
  const int x = plot.left() + int(slot * step + (slot - w) / 2);
  return QRect(x, plot.bottom() - int(h), w, int(h));
}

void StoryBars::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), Qt::white);
  const QRect plot = plot_rect();
  const QFontMetrics fm(font());
  p.setPen(QColor("#444444"));
  p.drawText(QRect(4, 0, width() - 8, fm.height() + 4), Qt::AlignLeft | Qt::AlignTop,
             fm.elidedText(axis_title_, Qt::ElideRight, width() - 8));
  // Gridlines at whole speed-ups, few enough to read from the back.
  const double top = top_value();
  const double step = top <= 3    ? 0.5
                      : top <= 8  ? 1
                      : top <= 20 ? 2
                                  : std::pow(10, std::floor(std::log10(top)));
  for (double v = 0; v <= top; v += step) {
    const int y = plot.bottom() - int(plot.height() * v / top);
    p.setPen(QColor("#e4e4e4"));
    p.drawLine(plot.left(), y, plot.right(), y);
    p.setPen(QColor("#555555"));
    p.drawText(QRect(0, y - fm.height() / 2, plot.left() - 6, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter,
               QString::fromStdString(format_fixed(v, step < 1 ? 1 : 0)));
  }
  p.setPen(QColor("#888888"));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());

  const double slot = double(plot.width()) / std::max<double>(1, bars_.size());
  QFont small = font();
  small.setPointSizeF(std::max(8.0, font().pointSizeF() * 0.8));
  for (int i = 0; i < int(bars_.size()); ++i) {
    const QRect label(plot.left() + int(slot * i), plot.bottom() + 4, int(slot), fm.height());
    QFont f = font();
    f.setBold(i == current_);
    p.setFont(f);
    p.setPen(i <= current_ ? QColor("#222222") : QColor("#bbbbbb"));
    p.drawText(label, Qt::AlignCenter, QString::number(i + 1));
    if (i > current_) continue;
    if (i == current_ && current_hidden_) {  // the room is guessing: no bar yet
      p.drawText(QRect(label.left(), plot.bottom() - fm.height() - 4, label.width(), fm.height()),
                 Qt::AlignCenter, "?");
      continue;
    }
    const QRect bar = bar_rect(i);
    if (bar.isEmpty() && !bars_[i].value) {  // told, but nothing measured to draw
      p.setFont(small);
      p.drawText(QRect(label.left(), plot.bottom() - fm.height() - 4, label.width(), fm.height()),
                 Qt::AlignCenter, "n/a");
      continue;
    }
    QColor fill = i == current_ ? kCurrent : kDone;
    if (i != current_) fill.setAlpha(170);
    p.setPen(bars_[i].live ? QPen(kLive, 3) : Qt::NoPen);
    p.setBrush(fill);
    p.drawRect(bar);
    if (bars_[i].noisy) {  // hatched, as the app's other charts mark noisy points
      p.setBrush(QBrush(QColor(255, 255, 255, 160), Qt::BDiagPattern));
      p.drawRect(bar);
    }
  }
  paint_guesses(p);
  for (const ValueLabel& l : value_labels()) {
    p.setFont(l.font);
    p.setPen(QColor("#222222"));
    p.drawText(l.rect, Qt::AlignCenter, l.text);
  }
}

QRect StoryBars::guess_rect(int step) const {
  const auto it = guesses_.find(step);
  const QRect bar = bar_rect(step);
  if (it == guesses_.end() || bar.isEmpty()) return {};
  const QRect plot = plot_rect();
  const double top = top_value();
  const int y = plot.bottom() - int(plot.height() * std::min(it->second, top) / top);
  QFont f = font();
  f.setPointSizeF(std::max(8.0, font().pointSizeF() * 0.7));
  const QFontMetrics fm(f);
  const int w = fm.horizontalAdvance(guess_text(it->second)) + 4;
  // The mark spans the bar; the current step's label stands right of it, inside the plot (the
  // earlier guesses keep their mark, their numbers said under the chart as each was revealed).
  const int left = bar.left() - 3;
  const int right =
      step == current_ ? std::min(plot.right(), bar.right() + 3 + w) : bar.right() + 3;
  return QRect(left, y - fm.height(), right - left, fm.height() + 2);
}

QString StoryBars::guess_text(double guess) {
  return "guess " + QString::fromStdString(format_speedup(guess));
}

void StoryBars::paint_guesses(QPainter& p) const {
  QFont f = font();
  f.setPointSizeF(std::max(8.0, font().pointSizeF() * 0.7));
  p.setFont(f);
  for (const auto& [step, guess] : guesses_) {
    const QRect r = guess_rect(step);
    if (r.isEmpty()) continue;
    const QRect bar = bar_rect(step);
    p.setPen(QPen(QColor("#6a3d9a"), 2, Qt::DashLine));
    p.drawLine(bar.left() - 3, r.bottom(), bar.right() + 3, r.bottom());
    if (step != current_) continue;
    p.setPen(QColor("#6a3d9a"));
    p.fillRect(QRect(bar.right() + 4, r.top(), r.right() - bar.right() - 4, r.height() - 2),
               QColor(255, 255, 255, 210));
    p.drawText(QRect(bar.right() + 4, r.top(), r.right() - bar.right() - 4, r.height()),
               Qt::AlignLeft | Qt::AlignVCenter, guess_text(guess));
  }
}

// Each drawn bar's value over it ("×8.36"): in the room's font, made smaller (to 8 pt) where it
// is wider than its slot, and lifted above its left neighbour's where the two would still touch
// (steps of nearly the same height, "×8.36×8.48"), so every value reads whole.
std::vector<StoryBars::ValueLabel> StoryBars::value_labels() const {
  std::vector<ValueLabel> out;
  const QRect plot = plot_rect();
  const double slot = double(plot.width()) / std::max<double>(1, bars_.size());
  QRect previous;
  for (int i = 0; i <= current_ && i < int(bars_.size()); ++i) {
    const QRect bar = bar_rect(i);
    if (!bars_[i].value) continue;
    // The value appears as the bar lands; none while the room guesses.
    if (i == current_ && (arrival_ < 0.6 || current_hidden_)) continue;
    ValueLabel l;
    l.step = i;
    l.text = QString::fromStdString(format_speedup(bars_[i].value));
    l.font = font();
    l.font.setBold(i == current_);
    if (i != current_) l.font.setPointSizeF(std::max(8.0, font().pointSizeF() * 0.8));
    while (QFontMetrics(l.font).horizontalAdvance(l.text) > slot - 2 && l.font.pointSizeF() > 8)
      l.font.setPointSizeF(std::max(8.0, l.font.pointSizeF() - 0.5));
    const QFontMetrics fm(l.font);
    const int tw = fm.horizontalAdvance(l.text) + 4;
    l.rect = QRect(bar.center().x() - tw / 2, bar.top() - fm.height() - 2, tw, fm.height());
    if (!previous.isNull() && l.rect.intersects(previous)) l.rect.moveBottom(previous.top() - 1);
    l.rect.moveTop(std::max(0, l.rect.top()));
    previous = l.rect;
    out.push_back(l);
  }
  return out;
}

}  // namespace rl::gui
