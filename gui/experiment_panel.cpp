#include "experiment_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/experiment/presets.h"
#include "form_parsing.h"
#include "format.h"
#include "run_worker.h"
#include "variant_tree.h"

namespace rl::gui {

namespace {

// A bad field gets a red background: a colour, not a border, as a border changes the field's
// height and would move the form under the pointer.
void mark(QLineEdit* field, bool bad) {
  QPalette p = QApplication::palette(field);
  if (bad) p.setColor(QPalette::Base, QColor("#fbd5d5"));
  field->setPalette(p);
}

}  // namespace

// The matrix fields' message beside them, and in the list of problems: the engine's error for
// the field that cannot be read, else a sweep's rounding notes (in grey: they do not stop a run).
void ExperimentPanel::check_matrix(QStringList& problems) {
  update_matrix_box();
  std::vector<MatrixShape> shapes;
  QString error;
  QStringList notes;
  const bool ok = read_shapes(&shapes, &error, &notes);
  const bool sweep = shape_mode_->currentIndex() != 0;
  mark(shapes_, !ok && !sweep);
  mark(sweep_values_, !ok && sweep && !error.startsWith("total"));
  mark(sweep_total_, !ok && sweep && error.startsWith("total"));
  if (!ok) problems << error;
  matrix_message_->setStyleSheet(ok ? "color: #555555;" : "color: #b3001b;");
  matrix_message_->setText(ok ? notes.join("\n") : error);
  matrix_message_->setVisible(wants_matrix() && !matrix_message_->text().isEmpty());
}

void ExperimentPanel::set_discovery(const Discovery& discovery) {
  const DeviceTarget keep = target();
  discovery_ = discovery;
  rebuild_devices();
  // A GPU found is the default over the host.
  set_target(keep == DeviceTarget{} && !discovery_.gpus.empty() ? DeviceTarget{QString(), 0}
                                                                : keep);
  schedule_validation();
}

int ExperimentPanel::device() const {
  return target().index;
}

void ExperimentPanel::set_device(int device) {
  set_target({QString(), device});
}

const DeviceInfo* ExperimentPanel::device_info() const {
  return target_info(target());
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
  show_shapes(spec);
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
  if (!read_shapes(&s.shapes, &error, nullptr)) return std::nullopt;
  s.reduce = reduce_filter();
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
  check_matrix(problems);
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
