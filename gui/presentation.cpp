#include "presentation.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFont>
#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "session_store.h"

namespace rl::gui {

PresentationView::PresentationView(SessionStore* store, double zoom, QWidget* parent)
    : QWidget(parent),
      store_(store),
      zoom_(clamp_slide_zoom(zoom)),
      chart_(new charts::ChartWidget),
      footer_(new QLabel),
      saved_font_(QApplication::font()) {
  setWindowTitle("ReductionLab: presentation");
  set_slide_look(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 4);
  layout->addWidget(chart_, 1);
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
}

void PresentationView::apply_font() {
  const QFont f = slide_font(*this, saved_font_, zoom_);
  QApplication::setFont(f);  // every chart rebuilds with it (ApplicationFontChange)
  QFont small = f;
  small.setPointSizeF(std::max(10.0, f.pointSizeF() * 0.6));
  footer_->setFont(small);
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
    footer_->setText("Esc leaves");
    return;
  }
  page_ = std::clamp(index, 0, int(pages_.size()) - 1);
  charts::Chart c = store_->chart(pages_[page_]);
  c.pointer_notes.clear();  // a room has no pointer to hover with
  chart_->set_chart(c);
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
