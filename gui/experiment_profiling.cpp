// The experiment form's profiling boxes: "Hardware counters (CUPTI)", "Line samples (per-line
// stalls)" and "Executed instructions per line" (SASS counts), what a run reads besides its times
// (RunProfiling). They exclude each other, as the runner does (rl::kCountersOrLineSamples:
// CUPTI's profiler, its PC sampling and its SASS metrics cannot share a GPU context), and need a
// GPU: the host backend runs the kernels' algorithms on the CPU, with nothing to count or
// sample. Each box's tooltip says why where it is off.
#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
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
const QString kLineCountsTip =
    "Counts how many instructions each source and SASS line executed, and with how many of a "
    "warp's 32 threads (thread efficiency: low where a divergent branch leaves lanes idle), with "
    "CUPTI's SASS metrics after each point's samples, each launch step in a GPU worker process "
    "of its own; the Code tab shows them per line (reductionlab-cli run --line-counts).";
const QString kNeedsGpu =
    "Off: needs a GPU. The host backend runs the kernels' algorithms on the CPU, with no hardware "
    "counters to read and no warps to sample or count.";

QString not_with(const QString& other) {
  return QString("Off while %1 is ticked: %2.").arg(other, rl::kCountersOrLineSamples);
}

}  // namespace

void ExperimentPanel::build_profiling(QFormLayout* axes) {
  auto* column = new QVBoxLayout;
  counters_ = new QCheckBox("Hardware counters (CUPTI)");
  line_samples_ = new QCheckBox("Line samples (per-line stalls)");
  line_counts_ = new QCheckBox("Executed instructions per line");  // SASS counts: the tooltip
  column->addWidget(counters_);
  column->addWidget(line_samples_);
  column->addWidget(line_counts_);
  // Under its label, the whole width of the form: beside it, the longest box alone made the
  // form (and the window) too wide for a 1024-pixel screen.
  axes->addRow(new QLabel("Profiling"));
  axes->addRow(column);
  // Ticking one unticks the others (set_profiling may have several ticked for a moment).
  const QList<QCheckBox*> boxes{counters_, line_samples_, line_counts_};
  for (QCheckBox* box : boxes)
    connect(box, &QCheckBox::toggled, this, [this, box, boxes](bool on) {
      if (on)
        for (QCheckBox* other : boxes)
          if (other != box) other->setChecked(false);
      update_profiling();
    });
  update_profiling();
}

void ExperimentPanel::update_profiling() {
  if (!counters_) return;  // the device box is filled before these exist
  const bool gpu = device_info() != nullptr;
  struct Box {
    QCheckBox* box;
    QString name;  // as the tooltips of the others name it
    QString tip;
  };
  const Box boxes[] = {{counters_, "\"Hardware counters\"", kCountersTip},
                       {line_samples_, "\"Line samples\"", kLineSamplesTip},
                       {line_counts_, "\"Executed instructions per line\"", kLineCountsTip}};
  for (const Box& b : boxes) {
    const Box* ticked = nullptr;  // another box, ticked: this one is off while it is
    for (const Box& other : boxes)
      if (other.box != b.box && other.box->isChecked()) ticked = &other;
    b.box->setEnabled(gpu && !ticked);
    b.box->setToolTip(!gpu     ? kNeedsGpu + "\n\n" + b.tip
                      : ticked ? not_with(ticked->name) + "\n\n" + b.tip
                               : b.tip);
  }
}

RunProfiling ExperimentPanel::profiling() const {
  if (device_info() == nullptr) return {};  // the host backend: the ticks wait for a GPU
  RunProfiling p;
  p.counters = counters_->isChecked();
  p.line_samples = !p.counters && line_samples_->isChecked();
  p.line_counts = !p.counters && !p.line_samples && line_counts_->isChecked();
  return p;
}

void ExperimentPanel::set_profiling(const RunProfiling& p) {
  // The losers first, so that ticking the winner leaves it alone ticked.
  line_counts_->setChecked(p.line_counts && !p.counters && !p.line_samples);
  line_samples_->setChecked(p.line_samples && !p.counters);
  counters_->setChecked(p.counters);
  update_profiling();
}

}  // namespace rl::gui
