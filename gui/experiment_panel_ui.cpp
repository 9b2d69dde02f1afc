// The experiment panel's widgets and their connections (the behaviour is in
// experiment_panel.cpp).
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "engine/experiment/presets.h"
#include "experiment_panel.h"
#include "run_worker.h"
#include "variant_tree.h"

namespace rl::gui {

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  build_presets(layout);
  build_device(layout);
  variants_ = new VariantTree;
  layout->addWidget(variants_, 1);
  // Right under the variants that need them: a preset of matrices shows its shapes in view.
  build_matrix(layout);
  auto* axes = new QFormLayout;
  build_workspaces(axes);
  build_ranges(axes);
  build_types(axes);
  build_sampling(axes);
  build_profiling(axes);
  layout->addLayout(axes);
  build_messages(layout);
  build_run_controls(layout);
  connect_validation();
  // Until the user (or the saved settings) says otherwise: the classic ladder's experiment.
  set_spec(presets().front().spec);
}

// The classic ladder's experiments, one pick away.
void ExperimentPanel::build_presets(QVBoxLayout* layout) {
  auto* preset_box = new QGroupBox("Preset: the classic ladder's experiments");
  auto* preset_layout = new QVBoxLayout(preset_box);
  presets_ = new QComboBox;
  presets_->addItem("Choose a preset...");
  for (const Preset& p : presets()) presets_->addItem(QString::fromStdString(p.name));
  presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  presets_->setMinimumContentsLength(20);
  preset_note_ = new QLabel;
  preset_note_->setWordWrap(true);
  preset_note_->hide();
  preset_note_->setStyleSheet("color: #555;");
  preset_layout->addWidget(presets_);
  preset_layout->addWidget(preset_note_);
  layout->addWidget(preset_box);
  connect(presets_, &QComboBox::activated, this, [this](int i) {
    if (i > 0) apply_preset(i - 1);
  });
}

void ExperimentPanel::build_device(QVBoxLayout* layout) {
  auto* form = new QFormLayout;
  device_ = new QComboBox;
  device_->addItem("CPU: host emulation (CPU times)", kHostDevice);
  device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  device_->setMinimumContentsLength(16);
  device_->setToolTip(
      "Where the kernels run. The host backend runs every variant's block algorithm "
      "on the CPU: results are exact, times are CPU times, not GPU times.");
  form->addRow("Device", device_);
  layout->addLayout(form);
  // Several devices at once: each ticked device runs the same experiment in parallel, a session
  // of its own, drawn beside the Device's run.
  auto* row = new QHBoxLayout;
  auto* also_label = new QLabel("Also run on");
  also_label->setToolTip(
      "Tick devices to run the same experiment there too, in parallel: each "
      "a session of its own, drawn side by side (a colour per device)");
  row->addWidget(also_label);
  row->addStretch(1);
  auto* remotes = new QPushButton("Remote machines...");
  remotes->setToolTip(
      "GPUs reached through a launcher: ssh gpu-box, srun -p gpu --gres=gpu:1, docker exec lab "
      "(docs/remote.md)");
  connect(remotes, &QPushButton::clicked, this, &ExperimentPanel::remote_hosts_requested);
  row->addWidget(remotes);
  layout->addLayout(row);
  also_ = new QListWidget;
  also_->setToolTip(also_label->toolTip());
  also_->setMaximumHeight(also_->fontMetrics().height() * 4 + 8);
  also_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
  layout->addWidget(also_);
  auto* host = new QListWidgetItem(device_->itemText(0), also_);
  host->setData(Qt::UserRole, kHostDevice);
  host->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
  host->setCheckState(Qt::Unchecked);
}

void ExperimentPanel::build_workspaces(QFormLayout* axes) {
  auto* ws_row = new QHBoxLayout;
  ws_global_ = new QCheckBox("global");
  ws_global_->setToolTip(
      "In place in global memory, as the classic ladder does (the input is restored before every "
      "sample, "
      "outside the timing)");
  ws_shared_ = new QCheckBox("shared");
  ws_shared_->setToolTip("The block copies its tile to shared memory; the input is untouched");
  ws_registers_ = new QCheckBox("registers");
  ws_registers_->setToolTip(
      "Kernels past the classic ladder that keep their partial sums in registers");
  for (auto* w : {ws_global_, ws_shared_, ws_registers_}) ws_row->addWidget(w);
  ws_row->addStretch();
  axes->addRow("Workspaces", ws_row);
}

// Block sizes, unroll factors and sizes: typed lists in the engine's grammar.
void ExperimentPanel::build_ranges(QFormLayout* axes) {
  blocks_ = new QLineEdit;
  blocks_->setPlaceholderText("e.g. 1024 or 64..1024");
  blocks_->setToolTip(
      "Threads per block: powers of two from 32 to 1024, comma-separated; A..B for every power of "
      "two between");
  axes->addRow("Block sizes", blocks_);
  unrolls_ = new QLineEdit;
  unrolls_->setPlaceholderText("blank: each variant's own");
  unrolls_->setToolTip(
      "Unroll factors U (tiles each block adds before its tree) for the variants that take them: "
      "1, 2, 4, 8, 16");
  axes->addRow("Unroll factors", unrolls_);
  sizes_ = new QLineEdit;
  sizes_->setPlaceholderText("e.g. 2^24, 1000003 or 2^10..2^28");
  sizes_->setToolTip(
      "N, the number of elements: digits, 2^K, 16M (K, M, G are 2^10, 2^20, 2^30), or 2^A..2^B for "
      "every power of two between");
  axes->addRow("Sizes N", sizes_);
}

void ExperimentPanel::build_types(QFormLayout* axes) {
  auto* type_row = new QHBoxLayout;
  int32_ = new QCheckBox("int32");
  float32_ = new QCheckBox("float32");
  type_row->addWidget(int32_);
  type_row->addWidget(float32_);
  type_row->addStretch();
  axes->addRow("Types", type_row);
}

// When sampling a point stops, and whether L2 is flushed first.
void ExperimentPanel::build_sampling(QFormLayout* axes) {
  noise_ = new QDoubleSpinBox;
  noise_->setRange(0.1, 50);
  noise_->setDecimals(1);
  noise_->setSingleStep(0.5);
  noise_->setSuffix(" %");
  noise_->setToolTip(
      "Sampling a point stops once the relative standard error of the mean is below this...");
  axes->addRow("Noise threshold", noise_);
  budget_ = new QSpinBox;
  budget_->setRange(1, 600000);
  budget_->setSuffix(" ms");
  budget_->setToolTip("... or once this much time was spent sampling it");
  axes->addRow("Budget per point", budget_);
  l2_ = new QComboBox;
  l2_->addItem("cold: flushed before each sample");
  l2_->addItem("warm: data may sit in L2");
  l2_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  l2_->setMinimumContentsLength(12);
  axes->addRow("L2 cache", l2_);
}

// What is wrong with the spec, and what it leaves out, in a space of its own that keeps its
// height: a message appearing never moves the fields under the pointer (a longer one scrolls).
void ExperimentPanel::build_messages(QVBoxLayout* layout) {
  problems_label_ = new QLabel;
  problems_label_->setObjectName("form_problems");
  problems_label_->setWordWrap(true);
  problems_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problems_label_->setStyleSheet("color: #b3001b;");
  problems_label_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  left_out_label_ = new QLabel;
  left_out_label_->setWordWrap(true);
  left_out_label_->setStyleSheet("color: #555555;");
  left_out_label_->setVisible(false);
  auto* inside = new QWidget;
  auto* column = new QVBoxLayout(inside);
  column->setContentsMargins(0, 0, 0, 0);
  column->addWidget(problems_label_);
  column->addWidget(left_out_label_);
  column->addStretch(1);
  messages_ = new QScrollArea;
  messages_->setObjectName("form_messages");
  messages_->setWidget(inside);
  messages_->setWidgetResizable(true);
  messages_->setFrameShape(QFrame::NoFrame);
  messages_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  fit_messages();
  layout->addWidget(messages_);
}

// Four lines of the messages' text, whatever its size.
void ExperimentPanel::fit_messages() {
  messages_->setFixedHeight(problems_label_->fontMetrics().lineSpacing() * 4 + 4);
}

void ExperimentPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
    fit_messages();
}

void ExperimentPanel::build_run_controls(QVBoxLayout* layout) {
  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton("Run  (Ctrl+R)");
  cancel_ = new QPushButton("Cancel  (Esc)");
  cancel_->setEnabled(false);
  buttons->addWidget(run_, 1);
  buttons->addWidget(cancel_);
  layout->addLayout(buttons);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat("%v / %m points");
  progress_->setTextVisible(false);  // until a run gives it points to count
  layout->addWidget(progress_);
  progress_label_ = new QLabel("Ready.");
  progress_label_->setWordWrap(true);
  progress_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(progress_label_);
  connect(run_, &QPushButton::clicked, this, &ExperimentPanel::run_requested);
  connect(cancel_, &QPushButton::clicked, this, &ExperimentPanel::cancel_requested);
}

// Every edit validates the spec, a moment after the last keystroke.
void ExperimentPanel::connect_validation() {
  validate_timer_ = new QTimer(this);
  validate_timer_->setSingleShot(true);
  validate_timer_->setInterval(120);
  connect(validate_timer_, &QTimer::timeout, this, &ExperimentPanel::validate_now);
  for (auto* e : {blocks_, unrolls_, sizes_})
    connect(e, &QLineEdit::textChanged, this, &ExperimentPanel::schedule_validation);
  for (auto* c : {ws_global_, ws_shared_, ws_registers_, int32_, float32_})
    connect(c, &QCheckBox::toggled, this, &ExperimentPanel::schedule_validation);
  connect(noise_, &QDoubleSpinBox::valueChanged, this, &ExperimentPanel::schedule_validation);
  connect(budget_, &QSpinBox::valueChanged, this, &ExperimentPanel::schedule_validation);
  connect(l2_, &QComboBox::currentIndexChanged, this, &ExperimentPanel::schedule_validation);
  connect(variants_, &VariantTree::changed, this, &ExperimentPanel::schedule_validation);
  connect(device_, &QComboBox::currentIndexChanged, this, [this] {
    update_profiling();
    schedule_validation();
    emit device_changed(device());
  });
}

}  // namespace rl::gui
