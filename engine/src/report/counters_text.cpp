#include "engine/report/counters_text.h"

#include <cstdio>

#include "engine/counters/counter_catalog.h"
#include "engine/report/format.h"

namespace rl {

std::vector<std::string> counters_lines(const PointResult& r) {
  std::vector<std::string> lines;
  if (!r.counters) return lines;
  if (!r.counters->kernels.empty())
    lines.push_back("hardware counters (CUPTI, " + std::to_string(r.counters->passes) +
                    " replay passes, never timed):");
  for (const KernelCounters& k : r.counters->kernels) {
    lines.push_back("  " + k.role + ":");
    for (const auto& [metric, v] : k.values) {
      const CounterInfo* info = find_counter(metric);
      const std::string name = info ? std::string(info->id) : metric;
      char value[32];
      std::snprintf(value, sizeof value, "%.4g", v);
      lines.push_back("    " + name + " " +
                      (info && info->percent() ? format_fixed(v, 1) + "%" : std::string(value)));
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

}  // namespace rl
