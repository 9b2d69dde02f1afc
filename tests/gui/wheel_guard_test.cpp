// The wheel over a spin box, combo box or slider without the focus scrolls the form that holds it
// and leaves the value alone; once the control has the focus (clicked, or Tab), the wheel sets it.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "wheel_guard.h"

using namespace rl::gui;

namespace {

// One notch of the wheel, down, over w's middle.
void wheel_down(QWidget* w) {
  const QPointF at(w->width() / 2.0, w->height() / 2.0);
  QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &event);
}

}  // namespace

TEST(WheelGuard, UnfocusedControlsScrollTheFormInstead) {
  WheelGuard::install();  // setup_application did it already: a second call does nothing
  EXPECT_EQ(qApp->findChildren<WheelGuard*>().size(), 1);
  QScrollArea area;
  auto* form = new QWidget;
  auto* layout = new QVBoxLayout(form);
  auto* noise = new QDoubleSpinBox;
  noise->setRange(0.1, 50);
  noise->setValue(1.0);
  auto* l2 = new QComboBox;
  l2->addItems({"cold", "warm", "other"});
  auto* zoom = new QSlider(Qt::Horizontal);
  zoom->setRange(0, 100);
  zoom->setValue(50);
  auto* focused = new QLineEdit;  // the focus is here, not on the controls
  layout->addWidget(focused);
  layout->addWidget(noise);
  layout->addWidget(l2);
  layout->addWidget(zoom);
  layout->addSpacing(3000);  // a form taller than its window
  area.setWidget(form);
  area.setWidgetResizable(true);
  area.resize(300, 200);
  area.show();
  QApplication::processEvents();
  focused->setFocus();
  QApplication::processEvents();
  ASSERT_FALSE(noise->hasFocus());
  for (QWidget* w : std::initializer_list<QWidget*>{noise, l2, zoom})
    EXPECT_EQ(w->focusPolicy(), Qt::StrongFocus) << w->metaObject()->className();

  QScrollBar* bar = area.verticalScrollBar();
  ASSERT_GT(bar->maximum(), 0);
  int scrolled = bar->value();
  for (QWidget* w : std::initializer_list<QWidget*>{noise, l2, zoom}) {
    wheel_down(w);
    EXPECT_GT(bar->value(), scrolled) << w->metaObject()->className() << ": the form scrolls";
    scrolled = bar->value();
  }
  EXPECT_EQ(noise->value(), 1.0);
  EXPECT_EQ(l2->currentIndex(), 0);
  EXPECT_EQ(zoom->value(), 50);

  // With the focus, on purpose: the wheel sets the value.
  bar->setValue(0);
  QApplication::processEvents();
  noise->setFocus();
  area.activateWindow();
  QApplication::processEvents();
  if (!noise->hasFocus()) GTEST_SKIP() << "this platform gives no focus to an inactive window";
  wheel_down(noise);
  EXPECT_LT(noise->value(), 1.0);
}
