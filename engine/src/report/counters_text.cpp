#include "engine/report/counters_text.h"

#include "engine/counters/counter_catalog.h"
#include "engine/report/format.h"

namespace rl {

std::string counter_value_text(std::string_view metric, double v) {
  const CounterInfo* info = find_counter(metric);
  if (info && info->percent()) return format_fixed(v, 1) + "%";
  if (!info) return format_si(v, "");
  // The catalog's units as people write them: a duration in its own unit, bytes as B, a
  // frequency in Hz; counts with their noun ("5.36 M instructions").
  if (info->unit == "ns") return format_time_ms(v / 1e6);
  if (info->unit == "bytes") return format_si(v, "B");
  if (info->unit == "cycles/s") return format_si(v, "Hz");
  return format_si(v, info->unit);
}

std::string counter_cell_text(std::string_view metric, double v) {
  const CounterInfo* info = find_counter(metric);
  if (info && info->percent()) return format_fixed(v, 1) + "%";
  return format_si(v, "");
}

std::vector<std::string> counters_lines(const PointResult& r) {
  std::vector<std::string> lines;
  if (!r.counters) return lines;
  const int repeats = r.counters->repeats;
  if (!r.counters->kernels.empty())
    lines.push_back("hardware counters (CUPTI, " + std::to_string(r.counters->passes) +
                    " replay passes, never timed" +
                    (repeats > 1 ? "; median of " + std::to_string(repeats) + " profiled launches"
                                 : std::string()) +
                    "):");
  for (const KernelCounters& k : r.counters->kernels) {
    lines.push_back("  " + k.role + ":");
    for (const auto& [metric, v] : k.values) {
      const CounterInfo* info = find_counter(metric);
      const std::string name = info ? std::string(info->id) : metric;
      std::string line = "    " + name + " " + counter_value_text(metric, v);
      // The range where the repeats differ (identical counts need none).
      if (const auto range = k.range(metric); range && range->lo < range->hi)
        line += " (" + counter_value_text(metric, range->lo) + ".." +
                counter_value_text(metric, range->hi) +
                (counter_steady(metric, *range) ? ")" : ", unsteady)");
      lines.push_back(std::move(line));
    }
  }
  if (!r.counters->note.empty()) lines.push_back(r.counters->note);
  return lines;
}

std::optional<double> barrier_stall(const PointResult& r) {
  const KernelCounters* k = r.counters ? r.counters->headline() : nullptr;
  if (!k) return std::nullopt;
  return k->value(find_counter("barrier_stall")->metric);
}

bool barrier_stall_steady(const PointResult& r) {
  const KernelCounters* k = r.counters ? r.counters->headline() : nullptr;
  const std::string_view metric = find_counter("barrier_stall")->metric;
  const auto range = k ? k->range(metric) : std::nullopt;
  return !range || counter_steady(metric, *range);
}

}  // namespace rl
