#include "presentation.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFont>
#include <QKeyEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "animation/timeline_text.h"
#include "animation/timeline_view.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "session_store.h"

namespace {
const QString kTimelinePage = "timeline:";
}  // namespace

namespace rl::gui {

PresentationView::PresentationView(SessionStore* store, double zoom, QWidget* parent)
    : QWidget(parent),
      store_(store),
      zoom_(clamp_slide_zoom(zoom)),
      chart_(new charts::ChartWidget),
      timeline_(new TimelineView),
      timeline_summary_(new QLabel),
      stack_(new QStackedWidget),
      footer_(new QLabel),
      saved_font_(QApplication::font()) {
  setWindowTitle("ReductionLab: presentation");
  set_slide_look(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 4);
  auto* timeline_page = new QWidget;
  auto* timeline_layout = new QVBoxLayout(timeline_page);
  timeline_layout->setContentsMargins(0, 0, 0, 0);
  timeline_layout->addWidget(timeline_, 1);
  timeline_layout->addWidget(timeline_summary_);
  timeline_summary_->setWordWrap(true);
  timeline_->setFocusPolicy(Qt::NoFocus);
  stack_->addWidget(chart_);
  stack_->addWidget(timeline_page);
  layout->addWidget(stack_, 1);
  layout->addWidget(footer_);
  footer_->setStyleSheet("color: #444444;");
  chart_->setFocusPolicy(Qt::NoFocus);
  chart_->set_high_contrast(true);
  collect_pages();
}

void PresentationView::start() {
  apply_font();
  show_page(0);
  setFocus();
}

void PresentationView::collect_pages() {
  pages_.clear();
  // In the window's order: on a host session the model's counts lead (chart_kinds_for).
  for (const ChartKind& kind : store_->chart_kinds())
    if (!store_->chart(kind.id).empty()) pages_ << kind.id;
  for (int i = 0; i < int(store_->primary().timelines.size()); ++i)
    pages_ << kTimelinePage + QString::number(i);
}

bool PresentationView::showing_timeline() const {
  return stack_->currentIndex() == 1;
}

void PresentationView::show_timeline(int index) {
  std::shared_ptr<const Session> s = store_->shared_primary();
  if (index < 0 || index >= int(s->timelines.size())) return;
  // Shares the session's ownership: the timeline lives as long as the view shows it.
  auto t = std::shared_ptr<const MeasuredTimeline>(s, &s->timelines[size_t(index)]);
  timeline_->set_timelines({t});
  QString line;
  try {
    std::optional<double> stall;
    if (s->device.name == t->device) stall = timeline_text::counter_barrier_stall(*s, *t);
    line = timeline_text::summary_line(*t, summarize_timeline(*t), stall);
  } catch (const std::exception& e) {
    line = timeline_text::title(*t) + ": " + e.what();
  }
  timeline_summary_->setText(line);
  stack_->setCurrentIndex(1);
}

void PresentationView::apply_font() {
  const QFont f = slide_font(*this, saved_font_, zoom_);
  QApplication::setFont(f);  // every chart rebuilds with it (ApplicationFontChange)
  QFont small = f;
  small.setPointSizeF(std::max(10.0, f.pointSizeF() * 0.6));
  footer_->setFont(small);
  timeline_->setFont(f);  // set, not inherited: the room's size even before the view is shown
  timeline_summary_->setFont(f);  // the numbers the room reads: the same size as the drawing
  show_page(page_);
}

void PresentationView::set_zoom(double zoom) {
  if (!change_slide_zoom(zoom_, zoom)) return;
  apply_font();
  emit zoom_changed(zoom_);
}

void PresentationView::set_high_contrast(bool on) {
  if (on == chart_->high_contrast()) return;
  chart_->set_high_contrast(on);
  emit high_contrast_changed(on);
}

bool PresentationView::high_contrast() const {
  return chart_->high_contrast();
}

void PresentationView::show_page(int index) {
  if (pages_.isEmpty()) {
    charts::Chart empty;
    empty.empty_hint = "Nothing to present: open a session or run an experiment first.";
    chart_->set_chart(empty);
    stack_->setCurrentIndex(0);
    footer_->setText("Esc leaves");
    return;
  }
  page_ = std::clamp(index, 0, int(pages_.size()) - 1);
  if (pages_[page_].startsWith(kTimelinePage)) {
    show_timeline(pages_[page_].mid(kTimelinePage.size()).toInt());
  } else {
    charts::Chart c = store_->chart(pages_[page_]);
    c.pointer_notes.clear();  // a room has no pointer to hover with
    chart_->set_chart(c);
    stack_->setCurrentIndex(0);
  }
  footer_->setText(QString("%1 / %2  ·  PageDown / Space: next  ·  PageUp: back  ·  Ctrl+= / "
                           "Ctrl+-: text  ·  H: contrast  ·  Shift+F5: story  ·  Esc: leave")
                       .arg(page_ + 1)
                       .arg(pages_.size()));
}

void PresentationView::keyPressEvent(QKeyEvent* event) {
  const SlideControls controls{page_, int(pages_.size()), zoom_, [this](int i) { show_page(i); },
                               [this](double z) { set_zoom(z); }};
  if (handle_slide_key(*event, this, controls)) return;
  if (event->key() == kContrastKey) return set_high_contrast(!high_contrast());  // any modifier
  QWidget::keyPressEvent(event);
}

void PresentationView::closeEvent(QCloseEvent* event) {
  QApplication::setFont(saved_font_);
  emit closed();
  QWidget::closeEvent(event);
}

}  // namespace rl::gui
