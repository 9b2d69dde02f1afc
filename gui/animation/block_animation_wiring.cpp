// The block animation panel's signals and keyboard shortcuts: what each picker, button and key
// does (the widgets are built in block_animation_ui.cpp, the behaviour is in block_animation.cpp).
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "engine/catalog/catalog.h"

namespace rl::gui {

namespace {

constexpr int kTickMs = 16;  // ~60 frames a second while playing

}  // namespace

void BlockAnimationPanel::ask_export_frame() {
  const QString path =
      QFileDialog::getSaveFileName(this, "Export frame", "block-frame.png", "PNG (*.png)");
  QString err;
  if (!path.isEmpty() && !export_frame(path, &err)) status_->setText(err);
}

void BlockAnimationPanel::connect_transport() {
  timer_ = new QTimer(this);
  timer_->setInterval(kTickMs);
  connect(timer_, &QTimer::timeout, this, &BlockAnimationPanel::tick);
  connect(play_, &QPushButton::clicked, this, [this] { set_playing(!playing()); });
  connect(back_, &QPushButton::clicked, this, [this] { step(-1); });
  connect(forward_, &QPushButton::clicked, this, [this] { step(+1); });
  connect(first_, &QPushButton::clicked, this, [this] { set_frame(0); });
  connect(last_, &QPushButton::clicked, this, [this] { set_frame(frame_count() - 1); });
  connect(scrub_, &QSlider::valueChanged, this, [this](int v) {
    if (v != frame_) set_frame(v);
  });
  connect(zoom_, &QSlider::valueChanged, this, [this](int px) {
    view_a_->set_cell_size(px);
    view_b_->set_cell_size(px);
  });
}

// Any pick rebuilds the frames; a new variant first refills its unroll factors.
void BlockAnimationPanel::connect_pickers() {
  auto on_pick = [this] {
    if (!building_) rebuild();
  };
  connect(variant_a_, &QComboBox::currentIndexChanged, this, [this, on_pick] {
    fill_unrolls(variant_a_, unroll_a_);
    on_pick();
  });
  connect(variant_b_, &QComboBox::currentIndexChanged, this, [this, on_pick] {
    fill_unrolls(variant_b_, unroll_b_);
    on_pick();
  });
  for (QComboBox* c : {unroll_a_, unroll_b_, block_, workspace_, type_, source_})
    connect(c, &QComboBox::currentIndexChanged, this, on_pick);
  connect(compare_, &QCheckBox::toggled, this, on_pick);
  connect(align_, &QCheckBox::toggled, this, [this] {
    realign();
    set_frame(0);
  });
  connect(size_, &QLineEdit::editingFinished, this, on_pick);
  connect(shape_, &QLineEdit::editingFinished, this, on_pick);
  connect(block_index_, &QSpinBox::valueChanged, this, on_pick);
}

// Each key says what it does ("help"): Help > Keyboard shortcuts lists the panel's keys from these.
void BlockAnimationPanel::add_shortcuts() {
  auto shortcut = [this](const QKeySequence& key, const char* what, auto fn) {
    auto* s = new QShortcut(key, this);
    s->setContext(Qt::WidgetWithChildrenShortcut);
    s->setProperty("help", QString("Inside a block: ") + what);
    connect(s, &QShortcut::activated, this, fn);
  };
  shortcut(Qt::Key_Space, "play / pause", [this] { set_playing(!playing()); });
  shortcut(Qt::Key_Right, "step forward", [this] { step(+1); });
  shortcut(Qt::Key_Left, "step back", [this] { step(-1); });
  // What a presenter's clicker sends.
  shortcut(Qt::Key_PageDown, "step forward", [this] { step(+1); });
  shortcut(Qt::Key_PageUp, "step back", [this] { step(-1); });
  shortcut(Qt::Key_Home, "first frame", [this] { set_frame(0); });
  shortcut(Qt::Key_End, "last frame", [this] { set_frame(frame_count() - 1); });
  shortcut(Qt::Key_L, "loop on / off", [this] { loop_->toggle(); });
  shortcut(Qt::Key_Plus, "larger cells", [this] { zoom_->setValue(zoom_->value() + 4); });
  shortcut(Qt::Key_Equal, "larger cells", [this] { zoom_->setValue(zoom_->value() + 4); });
  shortcut(Qt::Key_Minus, "smaller cells", [this] { zoom_->setValue(zoom_->value() - 4); });
  shortcut(Qt::Key_P, "export the frame", [this] { ask_export_frame(); });
}

void BlockAnimationPanel::fill_unrolls(QComboBox* variant, QComboBox* unroll) {
  const VariantInfo* v = find_variant_by_id(variant->currentData().toString().toStdString());
  const QSignalBlocker block(unroll);
  const int keep = unroll->currentData().isValid() ? unroll->currentData().toInt() : -1;
  unroll->clear();
  if (!v) return;
  for (int u : v->unroll_factors) unroll->addItem(QString::number(u), u);
  const int want = v->takes_unroll(keep) ? keep : v->default_unroll;
  unroll->setCurrentIndex(unroll->findData(want));
}

}  // namespace rl::gui
