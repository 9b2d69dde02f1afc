#include "presentation.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFont>
#include <QKeyEvent>
#include <QLabel>
#include <QScreen>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "session_store.h"

namespace rl::gui {

double presentation_point_size(int screen_height, double zoom) {
  return std::max(12.0, std::round(screen_height / 54.0 * zoom * 2) / 2);
}

PresentationView::PresentationView(SessionStore* store, double zoom, QWidget* parent)
    : QWidget(parent),
      store_(store),
      zoom_(std::clamp(zoom, 0.5, 3.0)),
      chart_(new charts::ChartWidget),
      footer_(new QLabel),
      saved_font_(QApplication::font()) {
  setWindowTitle("ReductionLab: presentation");
  setAttribute(Qt::WA_DeleteOnClose);
  setAutoFillBackground(true);
  QPalette p = palette();
  p.setColor(QPalette::Window, Qt::white);
  p.setColor(QPalette::WindowText, Qt::black);
  setPalette(p);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 4);
  layout->addWidget(chart_, 1);
  layout->addWidget(footer_);
  footer_->setStyleSheet("color: #444444;");
  chart_->setFocusPolicy(Qt::NoFocus);
  chart_->set_high_contrast(true);
  setFocusPolicy(Qt::StrongFocus);
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
  const QScreen* s = screen() ? screen() : QApplication::primaryScreen();
  const int height = s ? s->geometry().height() : 1080;
  QFont f = saved_font_;
  f.setPointSizeF(presentation_point_size(height, zoom_));
  QApplication::setFont(f);  // every chart rebuilds with it (ApplicationFontChange)
  QFont small = f;
  small.setPointSizeF(std::max(10.0, f.pointSizeF() * 0.6));
  footer_->setFont(small);
  show_page(page_);
}

void PresentationView::set_zoom(double zoom) {
  zoom = std::clamp(zoom, 0.5, 3.0);
  if (zoom == zoom_) return;
  zoom_ = zoom;
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
  chart_->set_chart(store_->chart(pages_[page_]));
  footer_->setText(QString("%1 / %2  ·  PageDown / Space: next  ·  PageUp: back  ·  Ctrl+= / "
                           "Ctrl+-: text  ·  H: contrast  ·  Shift+F5: story  ·  Esc: leave")
                       .arg(page_ + 1)
                       .arg(pages_.size()));
}

void PresentationView::keyPressEvent(QKeyEvent* event) {
  const bool ctrl = event->modifiers() & Qt::ControlModifier;
  switch (event->key()) {
    case Qt::Key_PageDown:
    case Qt::Key_Space:
    case Qt::Key_Right:
    case Qt::Key_Down:
      show_page(page_ + 1);
      return;
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
    case Qt::Key_Left:
    case Qt::Key_Up:
      show_page(page_ - 1);
      return;
    case Qt::Key_Home:
      show_page(0);
      return;
    case Qt::Key_End:
      show_page(int(pages_.size()) - 1);
      return;
    case Qt::Key_Escape:
    case Qt::Key_F5:
      close();
      return;
    case Qt::Key_Equal:
    case Qt::Key_Plus:
      if (ctrl) return set_zoom(zoom_ * 1.15);
      break;
    case Qt::Key_Minus:
      if (ctrl) return set_zoom(zoom_ / 1.15);
      break;
    case Qt::Key_0:
      if (ctrl) return set_zoom(1.0);
      break;
    case Qt::Key_H:
      return set_high_contrast(!high_contrast());
  }
  QWidget::keyPressEvent(event);
}

void PresentationView::closeEvent(QCloseEvent* event) {
  QApplication::setFont(saved_font_);
  emit closed();
  QWidget::closeEvent(event);
}

}  // namespace rl::gui
