#include "animation/hierarchy_view.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

#include "format.h"

namespace rl::gui {

namespace {

constexpr int kMargin = 10;
constexpr int kShardH = 70;
constexpr int kExchangeH = 54;
const QColor kShard(222, 233, 250), kActive(255, 163, 60), kLine(30, 60, 140),
    kFuture(150, 150, 150), kMeasured(0, 110, 60);

QString exchange_name(Exchange e) {
  return QString::fromStdString(std::string(to_string(e)));
}

}  // namespace

HierarchyView::HierarchyView(QWidget* parent) : QWidget(parent) {
  QSizePolicy sp(QSizePolicy::Expanding, QSizePolicy::Preferred);
  sp.setHeightForWidth(true);
  setSizePolicy(sp);
}

void HierarchyView::set_plan(std::optional<HierarchyPlan> plan) {
  plan_ = std::move(plan);
  step_ = 0;
  updateGeometry();
  update();
}

void HierarchyView::set_measured(std::optional<MeasuredPhases> measured,
                                 const QString& session_note) {
  measured_ = std::move(measured);
  session_note_ = session_note;
  updateGeometry();
  update();
}

void HierarchyView::set_step(int step) {
  step_ = std::clamp(step, 0, std::max(0, step_count() - 1));
  update();
}

bool HierarchyView::level_active(HierarchyLevel l) const {
  return plan_ && step_ < step_count() && plan_->steps[step_].level == l;
}

QString HierarchyView::measured_text(int i) const {
  if (!plan_ || !measured_ || i < 0 || i >= step_count()) return "";
  const std::string& phase = plan_->steps[i].phase;
  const double ms = phase == "local"      ? measured_->local_ms
                    : phase == "exchange" ? measured_->exchange_ms
                                          : -1;
  if (ms < 0) return "";
  return QString("measured: %1 (median of %2 samples%3)")
      .arg(format_time_ms(ms))
      .arg(measured_->samples)
      .arg(measured_->noisy ? ", noisy" : "");
}

QString HierarchyView::step_text(int i) const {
  if (!plan_ || i < 0 || i >= step_count()) return "";
  const HierarchyStep& s = plan_->steps[i];
  return QString("%1. %2: %3").arg(i + 1).arg(qstr(s.title), qstr(s.caption));
}

QString HierarchyView::note_text() const {
  return "The plan is arithmetic (shards, grids, partials, bytes): it has no times. " +
         session_note_;
}

int HierarchyView::heightForWidth(int width) const {
  const QFontMetrics fm(font());
  const int text_w = std::max(200, width - 2 * kMargin - 16);
  int h = kMargin + fm.height() + 8 + kShardH + kExchangeH +
          fm.boundingRect(QRect(0, 0, text_w, 10000), Qt::TextWordWrap, note_text()).height();
  for (int i = 0; i < step_count(); ++i) {
    h += fm.boundingRect(QRect(0, 0, text_w, 10000), Qt::TextWordWrap, step_text(i)).height() + 6;
    if (!measured_text(i).isEmpty()) h += fm.height();
  }
  return h + kMargin;
}

QSize HierarchyView::sizeHint() const {
  return {800, heightForWidth(800)};
}

int HierarchyView::paint_shards(QPainter& p, int top) const {
  const HierarchyPlan& plan = *plan_;
  const int W = width() - 2 * kMargin;
  const int G = int(plan.shards.size());
  const bool filled = level_active(HierarchyLevel::Grid) || level_active(HierarchyLevel::Shards);
  int x = kMargin;
  for (const HierarchyShard& s : plan.shards) {
    // Widths follow the shard sizes; every shard keeps room for its label.
    const int w = s.rank + 1 == G ? kMargin + W - x
                                  : std::max(60, int(double(W) * s.elements / plan.request.size));
    const QRect box(x, top, w - 4, kShardH - 8);
    const bool reduces = s.grid > 0 || !plan.grid_note.empty();
    p.setPen(QPen(filled ? kActive : kLine, filled ? 2 : 1));
    p.setBrush(filled && reduces ? kActive.lighter(160) : kShard);
    p.drawRect(box);
    if (level_active(HierarchyLevel::Block) && s.rank == 0) {  // the block: a sliver of GPU 0
      p.setBrush(kActive);
      p.drawRect(
          QRect(box.left() + 2, box.top() + 2, std::max(4, box.width() / 40), box.height() - 4));
    }
    p.setPen(Qt::black);
    QString text = QString("GPU %1: %2 elements").arg(s.rank).arg(s.elements);
    if (s.grid > 0)
      text += QString("\ngrid %1 blocks -> %2")
                  .arg(s.grid)
                  .arg(s.partials == 0 ? QString("atomics, no partials")
                                       : QString("%1 partials%2")
                                             .arg(s.partials)
                                             .arg(s.finishing_pass ? " + finishing pass" : ""));
    else if (!reduces)
      text += "\nhands its shard to GPU 0";
    p.drawText(box.adjusted(8, 4, -4, -4), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    x += w;
  }
  return top + kShardH;
}

int HierarchyView::paint_exchange(QPainter& p, int top) const {
  const HierarchyPlan& plan = *plan_;
  const int G = int(plan.shards.size());
  const bool active = level_active(HierarchyLevel::Exchange);
  const bool total = level_active(HierarchyLevel::Total);
  p.setPen(QPen(active ? kActive : total ? kMeasured : kLine, active ? 3 : 1));
  QString label;
  if (G == 1) {
    label = "one GPU: its result is the total, nothing to exchange";
  } else {
    // Arrows from every other GPU towards GPU 0 (the root), one line per GPU.
    const int y = top + 14, root_x = kMargin + 40;
    for (int g = 1; g < G; ++g) {
      const int from_x = kMargin + 40 + (width() - 2 * kMargin - 80) * g / (G - 1);
      p.drawLine(from_x, y + 8, root_x + 8, y + 8);
      p.drawLine(root_x + 8, y + 8, root_x + 16, y + 3);
      p.drawLine(root_x + 8, y + 8, root_x + 16, y + 13);
      if (plan.request.exchange == Exchange::NcclAllReduce) {  // the total comes back to all
        p.drawLine(from_x, y + 8, from_x - 8, y + 3);
        p.drawLine(from_x, y + 8, from_x - 8, y + 13);
      }
    }
    label = QString("%1: %2 bytes between GPUs")
                .arg(exchange_name(plan.request.exchange))
                .arg(plan.exchange_bytes);
  }
  p.setPen(Qt::black);
  p.drawText(QRect(kMargin, top + 26, width() - 2 * kMargin, kExchangeH - 26),
             Qt::AlignLeft | Qt::AlignTop, label);
  return top + kExchangeH;
}

int HierarchyView::paint_steps(QPainter& p, int top, int width) const {
  const QFontMetrics fm(font());
  const int text_w = std::max(200, width - 2 * kMargin - 16);
  int y = top;
  for (int i = 0; i < step_count(); ++i) {
    const QString text = step_text(i);
    const QRect r = fm.boundingRect(QRect(0, 0, text_w, 10000), Qt::TextWordWrap, text);
    const QString measured = measured_text(i);
    const int h = r.height() + (measured.isEmpty() ? 0 : fm.height());
    if (i == step_) {
      p.fillRect(QRect(kMargin, y - 2, width - 2 * kMargin, h + 4), kActive.lighter(170));
      p.fillRect(QRect(kMargin, y - 2, 5, h + 4), kActive);
    }
    p.setPen(i <= step_ ? Qt::black : kFuture);
    p.drawText(QRect(kMargin + 12, y, text_w, r.height()), Qt::TextWordWrap, text);
    if (!measured.isEmpty()) {
      p.setPen(kMeasured);
      p.drawText(QRect(kMargin + 12, y + r.height(), text_w, fm.height()), Qt::AlignLeft, measured);
    }
    y += h + 6;
  }
  return y;
}

void HierarchyView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm(font());
  if (!plan_) {
    p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::TextWordWrap,
               "No plan: pick a variant the kernels can launch, and N of at least one element "
               "per GPU.");
    return;
  }
  const HierarchyPlan& plan = *plan_;
  int y = kMargin;
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.drawText(QRect(kMargin, y, width() - 2 * kMargin, fm.height()), Qt::AlignLeft,
             QString("Levels above the block: %1, N = %2 over %3 GPU%4")
                 .arg(qstr(plan.label))
                 .arg(plan.request.size)
                 .arg(plan.request.gpus)
                 .arg(plan.request.gpus == 1 ? "" : "s"));
  p.setFont(font());
  y += fm.height();
  const int text_w = std::max(200, width() - 2 * kMargin - 16);
  const QRect note = fm.boundingRect(QRect(0, 0, text_w, 10000), Qt::TextWordWrap, note_text());
  p.drawText(QRect(kMargin, y, text_w, note.height()), Qt::TextWordWrap, note_text());
  y += note.height() + 8;
  y = paint_shards(p, y);
  y = paint_exchange(p, y);
  paint_steps(p, y, width());
}

}  // namespace rl::gui
