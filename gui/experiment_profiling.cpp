// The experiment form's profiling boxes: "Hardware counters (CUPTI)" and "Line samples
// (per-line stalls)", what a run reads besides its times (RunProfiling). They exclude each
// other, as the runner does (rl::kCountersOrLineSamples: CUPTI's profiler and its PC sampling
// cannot share a GPU context), and need a GPU: the host backend runs the kernels' algorithms on
// the CPU, with nothing to count or sample. Each box's tooltip says why where it is off.
#include <QCheckBox>
#include <QFormLayout>
#include <QVBoxLayout>

#include "experiment_panel.h"

namespace rl::gui {

namespace {

const QString kCountersTip =
    "Reads hardware counters per kernel with CUPTI (barrier stall, stall reasons, occupancy, "
    "DRAM throughput...) in a pass of its own after each point's samples: no time comes from a "
    "profiled run. Fills the counter charts and the table's counter columns "
    "(reductionlab-cli run --counters).";
const QString kLineSamplesTip =
    "Samples where in the code the warps wait (CUPTI's PC sampling) in a pass of its own after "
    "each point's samples; the Code tab places them on the source and SASS lines "
    "(reductionlab-cli run --line-samples).";
const QString kNeedsGpu =
    "Off: needs a GPU. The host backend runs the kernels' algorithms on the CPU, with no hardware "
    "counters to read and no warps to sample.";

QString not_with(const QString& other) {
  return QString("Off while %1 is ticked: %2.").arg(other, rl::kCountersOrLineSamples);
}

}  // namespace

void ExperimentPanel::build_profiling(QFormLayout* axes) {
  auto* column = new QVBoxLayout;
  counters_ = new QCheckBox("Hardware counters (CUPTI)");
  line_samples_ = new QCheckBox("Line samples (per-line stalls)");
  column->addWidget(counters_);
  column->addWidget(line_samples_);
  axes->addRow("Profiling", column);
  // Ticking one unticks the other (set_profiling may have both ticked for a moment).
  connect(counters_, &QCheckBox::toggled, this, [this](bool on) {
    if (on) line_samples_->setChecked(false);
    update_profiling();
  });
  connect(line_samples_, &QCheckBox::toggled, this, [this](bool on) {
    if (on) counters_->setChecked(false);
    update_profiling();
  });
  update_profiling();
}

void ExperimentPanel::update_profiling() {
  if (!counters_) return;  // the device box is filled before these exist
  const bool gpu = device_info() != nullptr;
  const bool counters_free = gpu && !line_samples_->isChecked();
  const bool samples_free = gpu && !counters_->isChecked();
  counters_->setEnabled(counters_free);
  line_samples_->setEnabled(samples_free);
  counters_->setToolTip(counters_free ? kCountersTip
                        : !gpu        ? kNeedsGpu + "\n\n" + kCountersTip
                                      : not_with("\"Line samples\"") + "\n\n" + kCountersTip);
  line_samples_->setToolTip(samples_free ? kLineSamplesTip
                            : !gpu       ? kNeedsGpu + "\n\n" + kLineSamplesTip
                                   : not_with("\"Hardware counters\"") + "\n\n" + kLineSamplesTip);
}

RunProfiling ExperimentPanel::profiling() const {
  if (device_info() == nullptr) return {};  // the host backend: the ticks wait for a GPU
  return {counters_->isChecked(), line_samples_->isChecked() && !counters_->isChecked()};
}

void ExperimentPanel::set_profiling(const RunProfiling& p) {
  line_samples_->setChecked(p.line_samples && !p.counters);
  counters_->setChecked(p.counters);
  update_profiling();
}

}  // namespace rl::gui
