#include "engine/report/time_basis.h"

#include <algorithm>

#include "engine/report/format.h"

namespace rl {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void add_once(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

const std::vector<TimeBasis>& time_bases() {
  static const std::vector<TimeBasis> all{TimeBasis::Whole, TimeBasis::Gpu, TimeBasis::FirstKernel};
  return all;
}

std::string time_basis_key(TimeBasis b) {
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

std::optional<TimeBasis> parse_time_basis(std::string_view key) {
  for (TimeBasis b : time_bases())
    if (time_basis_key(b) == key) return b;
  return std::nullopt;
}

std::string time_basis_choice(TimeBasis b) {
  switch (b) {
    case TimeBasis::Whole:
      return "whole reduction";
    case TimeBasis::Gpu:
      return "GPU time (timestamps out)";
    case TimeBasis::FirstKernel:
      return "first kernel (the classic ladder's timing)";
  }
  return {};
}

std::string time_basis_name(TimeBasis b) {
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

std::string time_axis_title(TimeBasis b, const std::string& unit) {
  // "time, GPU time" would say it twice.
  if (b == TimeBasis::Gpu) return "GPU time (" + unit + ")";
  return "time, " + time_basis_name(b) + " (" + unit + ")";
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
  if (!t) {
    ++missing;
    add_once(missing_variants, r.point.variant);
  } else if (basis == TimeBasis::FirstKernel && one_kernel(r)) {
    add_once(one_kernel_variants, r.point.variant);
  }
  return t;
}

std::vector<std::string> BasisNotes::warnings() const {
  std::vector<std::string> out;
  if (missing > 0) {
    const std::string what = basis == TimeBasis::Gpu           ? "GPU time"
                             : basis == TimeBasis::FirstKernel ? "first-kernel time"
                                                               : "whole-reduction time";
    const std::string why = basis == TimeBasis::Gpu ? "measured before it existed, or on the CPU"
                            : basis == TimeBasis::FirstKernel
                                ? joined(missing_variants) + ": no separate first kernel timed"
                                : "not measured";
    out.push_back(std::to_string(missing) + (missing == 1 ? " point has" : " points have") +
                  " no " + what + " (" + why + "): not drawn");
  }
  if (!one_kernel_variants.empty())
    out.push_back(joined(one_kernel_variants) +
                  ": one kernel does the whole reduction, so its first kernel is all of it");
  return out;
}

std::string charted_details(const PointResult& r, TimeBasis b) {
  const Summary* t = basis_time(r, b);
  if (b == TimeBasis::Whole || !t) return {};
  return "charted: " + time_basis_name(b) + ", median " + format_time_ms(t->median_ms) + " (min " +
         format_time_ms(t->min_ms) + ", max " + format_time_ms(t->max_ms) + "), " +
         format_gbps(basis_gbps(r, b));
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
  const BaselineIndex index(results, baseline);  // resolves classic names; one pass in all
  for (size_t i = 0; i < results.size(); ++i) {
    const PointResult& r = results[i];
    const Summary* t = basis_time(r, b);
    if (r.status != PointStatus::Ok || !t || t->median_ms <= 0) continue;
    // The baseline compute_speedups would pick; one without the time is not swapped for another.
    const PointResult* ref = index.find(r.point);
    if (!ref) continue;
    if (const Summary* bt = basis_time(*ref, b))
      out.value[i] = bt->median_ms / t->median_ms;
    else
      out.baseline_lacks_time[i] = true;
  }
  return out;
}

BasisMetrics basis_metrics(const Session& s, std::size_t i, TimeBasis b) {
  const PointResult& r = s.results.at(i);
  BasisMetrics m;
  m.gbps = basis_gbps(r, b);
  m.pct_of_theoretical = pct_of_theoretical(m.gbps, s.device);
  if (const ReadFloor* f = find_read_floor(s.read_floors, input_bytes(r.point)))
    m.pct_of_read_floor = pct_of_read_floor(r, *f, b);
  if (b == TimeBasis::Whole) {
    m.speedup = r.speedup;
  } else if (r.status == PointStatus::Ok) {
    const BaselineIndex index(s.results, s.spec.baseline);
    const PointResult* ref = index.find(r.point);
    const Summary *t = basis_time(r, b), *bt = ref ? basis_time(*ref, b) : nullptr;
    if (t && bt && t->median_ms > 0) m.speedup = bt->median_ms / t->median_ms;
  }
  return m;
}

}  // namespace rl
