#include "experiment_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/run/presets.h"
#include "form_parsing.h"
#include "format.h"
#include "run_worker.h"
#include "variant_tree.h"

namespace rl::gui {

namespace {

void mark(QLineEdit* field, bool bad) {
  field->setStyleSheet(bad ? "QLineEdit { border: 2px solid #d62728; }" : QString());
}

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);

  auto* preset_box = new QGroupBox("Preset: the seed's experiments");
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

  variants_ = new VariantTree;
  layout->addWidget(variants_, 1);

  auto* axes = new QFormLayout;
  auto* ws_row = new QHBoxLayout;
  ws_global_ = new QCheckBox("global");
  ws_global_->setToolTip(
      "In place in global memory, as the seed does (the input is restored before every sample, "
      "outside the timing)");
  ws_shared_ = new QCheckBox("shared");
  ws_shared_->setToolTip("The block copies its tile to shared memory; the input is untouched");
  ws_registers_ = new QCheckBox("registers");
  ws_registers_->setToolTip("Kernels past the seed that keep their partial sums in registers");
  for (auto* w : {ws_global_, ws_shared_, ws_registers_}) ws_row->addWidget(w);
  ws_row->addStretch();
  axes->addRow("Workspaces", ws_row);
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
  auto* type_row = new QHBoxLayout;
  int32_ = new QCheckBox("int32");
  float32_ = new QCheckBox("float32");
  type_row->addWidget(int32_);
  type_row->addWidget(float32_);
  type_row->addStretch();
  axes->addRow("Types", type_row);
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
  layout->addLayout(axes);

  problems_label_ = new QLabel;
  problems_label_->setWordWrap(true);
  problems_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problems_label_->setStyleSheet("color: #b3001b;");
  layout->addWidget(problems_label_);
  left_out_label_ = new QLabel;
  left_out_label_->setWordWrap(true);
  left_out_label_->setStyleSheet("color: #555555;");
  left_out_label_->setVisible(false);
  layout->addWidget(left_out_label_);

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
    schedule_validation();
    emit device_changed(device());
  });
  // Until the user (or the saved settings) says otherwise: the seed's own experiment.
  set_spec(presets().front().spec);
}

void ExperimentPanel::set_discovery(const Discovery& discovery) {
  discovery_ = discovery;
  const int keep = device();
  loading_ = true;
  device_->clear();
  for (size_t i = 0; i < discovery_.gpus.size(); ++i)
    device_->addItem(QString::fromStdString(discovery_.gpus[i].label()), int(i));
  device_->addItem("CPU: host emulation (CPU times)", kHostDevice);
  loading_ = false;
  set_device(keep == kHostDevice && !discovery_.gpus.empty() ? 0 : keep);
  schedule_validation();
}

int ExperimentPanel::device() const {
  return device_->currentIndex() < 0 ? kHostDevice : device_->currentData().toInt();
}

void ExperimentPanel::set_device(int device) {
  const int i = device_->findData(device);
  device_->setCurrentIndex(i >= 0 ? i : device_->findData(kHostDevice));
}

const DeviceInfo* ExperimentPanel::device_info() const {
  const int d = device();
  return d >= 0 && d < int(discovery_.gpus.size()) ? &discovery_.gpus[size_t(d)] : nullptr;
}

void ExperimentPanel::set_spec(const ExperimentSpec& spec) {
  loading_ = true;
  hidden_ = spec;
  const int preset = preset_index_of(spec);
  presets_->setCurrentIndex(preset + 1);
  preset_note_->setText(preset >= 0 ? QString::fromStdString(presets()[size_t(preset)].description)
                                    : QString());
  preset_note_->setVisible(preset >= 0);
  variants_->set_checked(spec.variants);
  auto has_ws = [&](Workspace w) {
    return std::find(spec.workspaces.begin(), spec.workspaces.end(), w) != spec.workspaces.end();
  };
  ws_global_->setChecked(has_ws(Workspace::Global));
  ws_shared_->setChecked(has_ws(Workspace::Shared));
  ws_registers_->setChecked(has_ws(Workspace::Registers));
  blocks_->setText(format_int_list(spec.block_sizes));
  unrolls_->setText(format_int_list(spec.unroll_factors));
  sizes_->setText(format_size_list(spec.sizes));
  int32_->setChecked(std::find(spec.types.begin(), spec.types.end(), DType::Int32) !=
                     spec.types.end());
  float32_->setChecked(std::find(spec.types.begin(), spec.types.end(), DType::Float32) !=
                       spec.types.end());
  noise_->setValue(spec.timing.noise * 100);
  budget_->setValue(int(spec.timing.budget_ms));
  l2_->setCurrentIndex(spec.timing.cold_l2 ? 0 : 1);
  loading_ = false;
  validate_now();
}

std::vector<Exclusion> ExperimentPanel::exclusions_of(const ExperimentSpec& s) const {
  if (!variants_->all_checked()) return {};
  ExperimentSpec every = s;
  every.variants = {std::string(kAllVariants)};
  std::vector<Exclusion> excluded;
  resolve_all(every, device_info(), &excluded);
  return excluded;
}

std::vector<Exclusion> ExperimentPanel::left_out_by_all() const {
  const auto s = form_spec();
  return s ? exclusions_of(*s) : std::vector<Exclusion>{};
}

std::optional<ExperimentSpec> ExperimentPanel::spec() const {
  std::optional<ExperimentSpec> s = form_spec();
  if (!s) return s;
  const std::vector<Exclusion> excluded = exclusions_of(*s);
  std::erase_if(s->variants, [&](const std::string& name) {
    const auto ref = resolve_variant(name);
    return ref && std::any_of(excluded.begin(), excluded.end(),
                              [&](const Exclusion& e) { return e.variant == ref->variant->id; });
  });
  return s;
}

std::optional<ExperimentSpec> ExperimentPanel::form_spec() const {
  ExperimentSpec s = hidden_;
  s.variants.clear();
  for (const QString& name : variants_->checked()) s.variants.push_back(name.toStdString());
  s.workspaces.clear();
  if (ws_global_->isChecked()) s.workspaces.push_back(Workspace::Global);
  if (ws_shared_->isChecked()) s.workspaces.push_back(Workspace::Shared);
  if (ws_registers_->isChecked()) s.workspaces.push_back(Workspace::Registers);
  s.types.clear();
  if (int32_->isChecked()) s.types.push_back(DType::Int32);
  if (float32_->isChecked()) s.types.push_back(DType::Float32);
  s.timing.noise = noise_->value() / 100;
  s.timing.budget_ms = budget_->value();
  s.timing.cold_l2 = l2_->currentIndex() == 0;
  QString error;
  if (!parse_int_list(blocks_->text(), "block size", &s.block_sizes, &error)) return std::nullopt;
  if (!parse_int_list(unrolls_->text(), "unroll factor", &s.unroll_factors, &error))
    return std::nullopt;
  if (!parse_sizes(sizes_->text(), &s.sizes, &error)) return std::nullopt;
  return s;
}

void ExperimentPanel::apply_preset(int index) {
  if (index < 0 || index >= int(presets().size())) return;
  const Preset& p = presets()[size_t(index)];
  set_spec(p.spec);  // selects it in the preset list and shows its description
  emit preset_applied(p.spec);
}

void ExperimentPanel::schedule_validation() {
  if (!loading_) validate_timer_->start();
}

void ExperimentPanel::validate_now() {
  validate_timer_->stop();
  QStringList problems;
  ExperimentSpec s = hidden_;
  auto read = [&](QLineEdit* field, auto parse) {
    QString error;
    const bool ok = parse(&error);
    mark(field, !ok);
    if (!ok) problems << error;
  };
  read(blocks_, [&](QString* e) {
    return parse_int_list(blocks_->text(), "block size", &s.block_sizes, e);
  });
  read(unrolls_, [&](QString* e) {
    return parse_int_list(unrolls_->text(), "unroll factor", &s.unroll_factors, e);
  });
  read(sizes_, [&](QString* e) { return parse_sizes(sizes_->text(), &s.sizes, e); });
  if (blocks_->text().trimmed().isEmpty()) {
    problems << "block sizes: enter at least one, e.g. 1024";
    mark(blocks_, true);
  }
  if (variants_->checked().isEmpty()) problems << "variants: tick at least one";
  if (!ws_global_->isChecked() && !ws_shared_->isChecked() && !ws_registers_->isChecked())
    problems << "workspaces: tick at least one";
  if (!int32_->isChecked() && !float32_->isChecked())
    problems << "types: tick int32, float32 or both";
  if (problems.isEmpty()) {
    if (auto full = spec()) {
      for (const std::string& m : rl::validate(*full, device_info()))
        problems << QString::fromStdString(m);
    }
  }
  QStringList left_out;
  if (problems.isEmpty())
    for (const std::string& line : describe_exclusions(left_out_by_all()))
      left_out << QString::fromStdString(line);
  left_out_label_->setText(left_out.isEmpty()
                               ? QString()
                               : "All variants ticked; left out here:\n• " + left_out.join("\n• "));
  left_out_label_->setVisible(!left_out.isEmpty());
  problems_ = problems;
  problems_label_->setText(problems.isEmpty() ? QString()
                                              : "Cannot run yet:\n• " + problems.join("\n• "));
  problems_label_->setVisible(!problems.isEmpty());
  run_->setEnabled(problems.isEmpty() && !running_);
  emit spec_changed();
}

void ExperimentPanel::set_running(bool running) {
  running_ = running;
  run_->setEnabled(!running && problems_.isEmpty());
  cancel_->setEnabled(running);
  if (running) {
    progress_->setRange(0, 0);  // busy until the first progress report
    progress_->setTextVisible(true);
    progress_label_->setText("Starting...");
  }
}

void ExperimentPanel::show_progress(const Progress& p) {
  progress_->setRange(0, int(std::max<std::size_t>(p.total, 1)));
  progress_->setValue(int(p.done));
  QString text;
  if (p.done < p.total) text = QString("Now: %1").arg(QString::fromStdString(p.current.label()));
  text += QString("\nElapsed %1").arg(format_duration_s(p.elapsed_s));
  if (p.eta_s >= 0 && p.done < p.total)
    text += QString(" · about %1 left").arg(format_duration_s(p.eta_s));
  progress_label_->setText(text);
}

void ExperimentPanel::show_status(const QString& text) {
  if (progress_->maximum() == 0) progress_->setRange(0, 1);
  progress_label_->setText(text);
}

}  // namespace rl::gui
