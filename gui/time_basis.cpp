#include "time_basis.h"

#include "catalog.h"
#include "format.h"

namespace rl::gui {

const std::vector<TimeBasis>& time_bases() {
  static const std::vector<TimeBasis> all{TimeBasis::Whole, TimeBasis::Gpu, TimeBasis::FirstKernel};
  return all;
}

QString time_basis_key(TimeBasis b) {
  switch (b) {
    case TimeBasis::Whole:
      return "whole";
    case TimeBasis::Gpu:
      return "gpu";
    case TimeBasis::FirstKernel:
      return "first";
  }
  return "whole";
}

std::optional<TimeBasis> parse_time_basis(const QString& key) {
  for (TimeBasis b : time_bases())
    if (time_basis_key(b) == key) return b;
  return std::nullopt;
}

QString time_basis_choice(TimeBasis b) {
  switch (b) {
    case TimeBasis::Whole:
      return "whole reduction";
    case TimeBasis::Gpu:
      return "GPU time (timestamps out)";
    case TimeBasis::FirstKernel:
      return "first kernel (the seed's timing)";
  }
  return {};
}

QString time_basis_name(TimeBasis b) {
  switch (b) {
    case TimeBasis::Whole:
      return "whole reduction";
    case TimeBasis::Gpu:
      return "GPU time";
    case TimeBasis::FirstKernel:
      return "first kernel";
  }
  return {};
}

QString time_axis_title(TimeBasis b, const QString& unit) {
  // "time, GPU time" would say it twice.
  if (b == TimeBasis::Gpu) return QString("GPU time (%1)").arg(unit);
  return QString("time, %1 (%2)").arg(time_basis_name(b), unit);
}

bool one_kernel(const PointResult& r) {
  // Sessions record one event span where no finishing pass follows; host runs record none, so
  // there the first kernel's samples being the whole's own says the same.
  if (r.event_spans == 1) return true;
  return r.event_spans == 0 && !r.first_samples_ms.empty() &&
         r.first_samples_ms == r.total_samples_ms;
}

const Summary* BasisNotes::time_of(const PointResult& r) {
  const Summary* t = basis_time(r, basis);
  const QString v = QString::fromStdString(r.point.variant);
  if (!t) {
    ++missing;
    if (!missing_variants.contains(v)) missing_variants << v;
  } else if (basis == TimeBasis::FirstKernel && one_kernel(r) && !one_kernel_variants.contains(v)) {
    one_kernel_variants << v;
  }
  return t;
}

QStringList BasisNotes::warnings() const {
  QStringList out;
  if (missing > 0) {
    const QString what = basis == TimeBasis::Gpu           ? QString("GPU time")
                         : basis == TimeBasis::FirstKernel ? QString("first-kernel time")
                                                           : QString("whole-reduction time");
    const QString why = basis == TimeBasis::Gpu
                            ? QString("measured before it existed, or on the CPU")
                        : basis == TimeBasis::FirstKernel
                            ? missing_variants.join(", ") + ": no separate first kernel timed"
                            : QString("not measured");
    out << QString("%1 %2 no %3 (%4): not drawn")
               .arg(missing)
               .arg(missing == 1 ? "point has" : "points have", what, why);
  }
  if (!one_kernel_variants.isEmpty())
    out << QString("%1: one kernel does the whole reduction, so its first kernel is all of it")
               .arg(one_kernel_variants.join(", "));
  return out;
}

QString charted_details(const PointResult& r, TimeBasis b) {
  const Summary* t = basis_time(r, b);
  if (b == TimeBasis::Whole || !t) return {};
  return QString("charted: %1, median %2 (min %3, max %4), %5")
      .arg(time_basis_name(b), format_time_ms(t->median_ms), format_time_ms(t->min_ms),
           format_time_ms(t->max_ms), format_gbps(basis_gbps(r, b)));
}

BasisSpeedups basis_speedups(const std::vector<PointResult>& results, const std::string& baseline,
                             TimeBasis b) {
  BasisSpeedups out;
  out.value.resize(results.size());
  out.baseline_lacks_time.assign(results.size(), false);
  if (b == TimeBasis::Whole) {
    for (size_t i = 0; i < results.size(); ++i) out.value[i] = results[i].speedup;
    return out;
  }
  const BaselineIndex index(results, baseline);  // resolves seed names; one pass, not one a point
  for (size_t i = 0; i < results.size(); ++i) {
    const PointResult& r = results[i];
    const Summary* t = basis_time(r, b);
    if (r.status != PointStatus::Ok || !t || t->median_ms <= 0) continue;
    // The baseline rl::compute_speedups would pick; one without the time is not swapped for
    // another.
    const PointResult* ref = index.find(r.point);
    if (!ref) continue;
    if (const Summary* bt = basis_time(*ref, b))
      out.value[i] = bt->median_ms / t->median_ms;
    else
      out.baseline_lacks_time[i] = true;
  }
  return out;
}

}  // namespace rl::gui
