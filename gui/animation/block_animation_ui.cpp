// The block animation panel's widgets (their signals and keyboard shortcuts are in
// block_animation_wiring.cpp, the behaviour in block_animation.cpp).
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/hierarchy_view.h"
#include "animation/step_source.h"
#include "animation/timeline_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/experiment/spec.h"
#include "wrap_row.h"

namespace rl::gui {

namespace {

QComboBox* ladder_variant_combo(QWidget* parent) {
  auto* c = new QComboBox(parent);
  for (const VariantInfo& v : catalog()) {
    if (!has_trace(v)) continue;
    const QString seed =
        QString::fromStdString(v.seed_name_has_unroll ? v.seed_name + "U" : v.seed_name);
    const QString text =
        QString::fromStdString(v.display_name) + (seed.isEmpty() ? "" : "  [" + seed + "]");
    c->addItem(text, QString::fromStdString(v.id));
    c->setItemData(c->count() - 1, QString::fromStdString(v.explanation), Qt::ToolTipRole);
  }
  // The longest names (the labs') would otherwise set the whole panel's width; 18 characters
  // keep the first row inside the window's right side at 1366 px (the tooltip and the popup
  // show the whole name).
  c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  c->setMinimumContentsLength(18);
  return c;
}

// The frame buttons are a glyph or two: as wide as their text, not a style's minimum (80 px for
// "<"); the hints say so, so a layout that needs the room may take it and the text stays whole.
class GlyphButton : public QPushButton {
 public:
  using QPushButton::QPushButton;
  QSize sizeHint() const override {
    return {fontMetrics().horizontalAdvance(text()) + 28, QPushButton::sizeHint().height()};
  }
  QSize minimumSizeHint() const override { return sizeHint(); }
};

QPushButton* tool_button(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = text.size() <= 2 ? new GlyphButton(text, parent) : new QPushButton(text, parent);
  b->setToolTip(tip);
  b->setAutoDefault(false);
  return b;
}

}  // namespace

void BlockAnimationPanel::build_ui() {
  auto* root = new QVBoxLayout(this);
  build_pickers(root);
  build_compare_row(root);
  build_levels_row(root);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setObjectName("status");
  root->addWidget(status_);
  phase_label_ = new QLabel(this);
  phase_label_->setObjectName("phase");
  phase_label_->setVisible(false);
  root->addWidget(phase_label_);
  build_views(root);
  build_transport(root);
  connect_timeline();
  connect_transport();
  connect_pickers();
  add_shortcuts();
  setFocusPolicy(Qt::StrongFocus);
  view_a_->set_cell_size(zoom_->value());
  view_b_->set_cell_size(zoom_->value());
}

// First row: variant, unroll, block size, workspace, type, N (a matrix variant: its shape) and
// which block.
void BlockAnimationPanel::build_pickers(QVBoxLayout* root) {
  // Three parts (the kernel; its block; the type, N and which block): one line where the tab
  // holds them, more where it does not.
  auto* row = new WrapRow(this);
  QHBoxLayout* picks = row->add_part(2);
  QHBoxLayout* block = row->add_part();
  QHBoxLayout* launch = row->add_part();
  variant_a_ = ladder_variant_combo(this);
  variant_a_->setObjectName("variant_a");
  unroll_a_ = new QComboBox(this);
  block_ = new QComboBox(this);
  for (int b = 32; b <= 1024; b *= 2) block_->addItem(QString::number(b), b);
  block_->setCurrentText("64");
  block_->setObjectName("block_size");
  workspace_ = new QComboBox(this);
  workspace_->addItem("global (in place, as the classic ladder)", int(Workspace::Global));
  workspace_->addItem("shared memory", int(Workspace::Shared));
  workspace_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  workspace_->setMinimumContentsLength(10);
  type_ = new QComboBox(this);
  type_->addItem("int32", int(DType::Int32));
  type_->addItem("float32", int(DType::Float32));
  size_ = new QLineEdit(this);
  size_->setPlaceholderText("one tile");
  size_->setToolTip("N for the launch totals, e.g. 2^24 or 1000003; empty: one block's tile");
  size_->setMaximumWidth(110);
  size_->setMinimumWidth(60);
  shape_ = new QLineEdit("6x40", this);
  shape_->setObjectName("shape");
  shape_->setToolTip(
      "rows x cols of the matrix that row_per_warp and row_per_block sum, e.g. 6x40 (short rows: "
      "lanes past a row's end read nothing) or 2x5000; the whole-array variants ignore it");
  shape_->setMaximumWidth(110);
  shape_->setMinimumWidth(60);
  block_index_ = new QSpinBox(this);
  block_index_->setRange(0, 0x7fffffff);
  block_index_->setMaximumWidth(80);
  block_index_->setToolTip("which block of the launch to show (the last one may be a ragged tail)");
  source_ = new QComboBox(this);
  source_->addItem("block model (host)");
  source_->addItem("recorded on the GPU (looking for one...)");
  source_->setObjectName("source");
  // The GPU's name or why there is none can be long: it must not widen the panel.
  source_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  source_->setMinimumContentsLength(16);
  if (auto* m = qobject_cast<QStandardItemModel*>(source_->model())) m->item(1)->setEnabled(false);
  picks->addWidget(new QLabel("Variant", this));
  picks->addWidget(variant_a_, 2);
  picks->addWidget(new QLabel("U", this));
  picks->addWidget(unroll_a_);
  block->addWidget(new QLabel("Block", this));
  block->addWidget(block_);
  block->addWidget(workspace_);
  launch->addWidget(type_);
  launch->addWidget(new QLabel("N", this));
  launch->addWidget(size_);
  launch->addWidget(new QLabel("Shape", this));
  launch->addWidget(shape_);
  launch->addWidget(new QLabel("block #", this));
  launch->addWidget(block_index_);
  root->addWidget(row);
}

// Second row: the variant compared side by side, and where the steps come from.
void BlockAnimationPanel::build_compare_row(QVBoxLayout* root) {
  auto* row = new WrapRow(this);  // the second variant; the phases; the source
  QHBoxLayout* picks2 = row->add_part(2);
  QHBoxLayout* phases = row->add_part();
  QHBoxLayout* source = row->add_part(1);
  compare_ = new QCheckBox("Side by side with", this);
  compare_->setChecked(true);
  variant_b_ = ladder_variant_combo(this);
  variant_b_->setObjectName("variant_b");
  unroll_b_ = new QComboBox(this);
  variant_a_->setCurrentIndex(variant_a_->findData("neighbored"));
  variant_b_->setCurrentIndex(variant_b_->findData("interleaved"));
  fill_unrolls(variant_a_, unroll_a_);
  fill_unrolls(variant_b_, unroll_b_);
  picks2->addWidget(compare_);
  picks2->addWidget(variant_b_, 2);
  picks2->addWidget(new QLabel("U", this));
  picks2->addWidget(unroll_b_);
  align_ = new QCheckBox("Align by phase", this);
  align_->setObjectName("align_phase");
  align_->setToolTip(
      "Step both views phase by phase (load, tree, last warp, write partial): the "
      "view with fewer steps in a phase holds its frame");
  phases->addWidget(align_);
  source->addWidget(new QLabel("Source", this));
  source->addWidget(source_, 1);
  root->addWidget(row);
}

namespace {

// The two views side by side where both fit at their cell size, one above the other where they do
// not (a 1366-pixel screen with the experiment panel open): the second never runs off the right.
class ViewsFlow : public QObject {
 public:
  ViewsFlow(QBoxLayout* row, QWidget* a, QWidget* b, QWidget* viewport)
      : QObject(viewport), row_(row), a_(a), b_(b), viewport_(viewport) {}

 protected:
  bool eventFilter(QObject*, QEvent* event) override {
    if (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest) {
      const int both = a_->minimumSizeHint().width() + b_->minimumSizeHint().width() +
                       std::max(0, row_->spacing());
      const auto direction = !b_->isVisibleTo(a_->parentWidget()) || viewport_->width() >= both
                                 ? QBoxLayout::LeftToRight
                                 : QBoxLayout::TopToBottom;
      if (row_->direction() != direction) row_->setDirection(direction);
    }
    return false;
  }

 private:
  QBoxLayout* row_;
  QWidget *a_, *b_, *viewport_;
};

}  // namespace

// Views, side by side, in one scroll area; the levels above the block on the stack's second page.
void BlockAnimationPanel::build_views(QVBoxLayout* root) {
  stack_ = new QStackedWidget(this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  views_ = new QWidget(scroll);
  auto* row = new QHBoxLayout(views_);
  row->setContentsMargins(0, 0, 0, 0);
  view_a_ = new BlockView(views_);
  view_b_ = new BlockView(views_);
  row->addWidget(view_a_, 1, Qt::AlignTop);
  row->addWidget(view_b_, 1, Qt::AlignTop);
  scroll->setWidget(views_);
  auto* flow = new ViewsFlow(row, view_a_, view_b_, scroll->viewport());
  scroll->viewport()->installEventFilter(flow);
  views_->installEventFilter(flow);
  stack_->addWidget(scroll);
  auto* levels = new QScrollArea(this);
  levels->setWidgetResizable(true);
  hierarchy_ = new HierarchyView(levels);
  hierarchy_->setObjectName("hierarchy");
  levels->setWidget(hierarchy_);
  stack_->addWidget(levels);
  // The views take the height left over (they scroll inside): their preferred height would make
  // the tab's own scroll area hide the strip and the transport at 1366x768.
  stack_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
  splitter_ = new QSplitter(Qt::Vertical, this);
  splitter_->setChildrenCollapsible(false);
  splitter_->addWidget(stack_);
  timeline_ = new TimelinePanel(splitter_);
  timeline_->setObjectName("timeline");
  timeline_->setVisible(false);
  // As the views: it takes the height the splitter gives it (its rows scroll inside), so the
  // strip and the transport stay on screen at 1366x768.
  timeline_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
  splitter_->addWidget(timeline_);
  splitter_->setStretchFactor(0, 1);
  splitter_->setStretchFactor(1, 1);
  // The splitter stands in the layout where the views stood: their height is what is left over.
  splitter_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
  root->addWidget(splitter_, 1);
  source_strip_ = new StepSourceStrip(this);  // under the views: their width stays whole
  connect(source_strip_, &StepSourceStrip::code_shown_changed, this,
          &BlockAnimationPanel::source_shown_changed);
  root->addWidget(source_strip_);
}

// Transport: frame buttons, scrub, speed, loop, zoom and the exports.
void BlockAnimationPanel::build_transport(QVBoxLayout* root) {
  auto* row = new WrapRow(this);  // the frames; how they play; zoom and the exports
  QHBoxLayout* transport = row->add_part(1);
  QHBoxLayout* playing = row->add_part();
  QHBoxLayout* zoom = row->add_part();
  first_ = tool_button("|<", "first frame (Home)", this);
  back_ = tool_button("<", "step back (Left, PageUp)", this);
  play_ = tool_button("Play", "play / pause (Space)", this);
  play_->setObjectName("play");
  forward_ = tool_button(">", "step forward (Right, PageDown: a clicker's keys)", this);
  last_ = tool_button(">|", "last frame (End)", this);
  scrub_ = new QSlider(Qt::Horizontal, this);
  scrub_->setObjectName("scrub");
  frame_label_ = new QLabel(this);
  speed_ = new QComboBox(this);
  speed_->setObjectName("speed");
  for (double s : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) speed_->addItem(QString("%1 steps/s").arg(s), s);
  speed_->setCurrentIndex(2);
  loop_ = new QCheckBox("Loop (L)", this);
  zoom_ = new QSlider(Qt::Horizontal, this);
  zoom_->setRange(4, 64);
  zoom_->setValue(20);
  zoom_->setMaximumWidth(120);
  zoom_->setToolTip("cell size (+ / -): small shows 1024 threads at once, large shows values");
  // One button, three exports: the frame, every frame as PNGs, and beside them the GIF.
  auto* export_btn = tool_button("Export", "the current frame, every frame, or a GIF", this);
  export_btn->setObjectName("export");
  auto* exports = new QMenu(export_btn);
  QAction* export_frame_btn = exports->addAction("Export frame... (P)");
  QAction* export_seq_btn = exports->addAction("Export all frames (PNG sequence)...");
  QAction* export_gif_btn = exports->addAction("Export animated GIF...");
  export_gif_btn->setToolTip("every frame, 256 colours, at the chosen speed");
  export_btn->setMenu(exports);
  for (QWidget* w : std::initializer_list<QWidget*>{first_, back_, play_, forward_, last_})
    transport->addWidget(w);
  transport->addWidget(scrub_, 1);
  transport->addWidget(frame_label_);
  playing->addWidget(speed_);
  playing->addWidget(loop_);
  zoom->addWidget(new QLabel("Zoom", this));
  zoom->addWidget(zoom_);
  zoom->addWidget(export_btn);
  root->addWidget(row);
  connect(export_gif_btn, &QAction::triggered, this, [this] { ask_export_gif(); });
  connect(export_frame_btn, &QAction::triggered, this, [this] { ask_export_frame(); });
  connect(export_seq_btn, &QAction::triggered, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, "Export every frame into");
    QString err;
    if (dir.isEmpty()) return;
    const int n = export_sequence(dir, &err);
    status_->setText(n < 0 ? err : QString("Wrote %1 frames to %2").arg(n).arg(dir));
  });
}

}  // namespace rl::gui
