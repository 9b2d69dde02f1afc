#include "counters_text.h"

#include <QStringList>

#include "counters/counter_catalog.h"

namespace rl::gui {

QString counters_text(const PointResult& r) {
  if (!r.counters) return {};
  QStringList lines;
  if (!r.counters->kernels.empty())
    lines << QString("hardware counters (CUPTI, %1 replay passes, never timed):")
                 .arg(r.counters->passes);
  for (const KernelCounters& k : r.counters->kernels) {
    lines << QString("  %1:").arg(QString::fromStdString(k.role));
    for (const auto& [metric, v] : k.values) {
      const CounterInfo* info = find_counter(metric);
      const QString name = info ? QString::fromUtf8(info->id.data(), int(info->id.size()))
                                : QString::fromStdString(metric);
      const QString value =
          info && info->percent() ? QString("%1%").arg(v, 0, 'f', 1) : QString::number(v, 'g', 4);
      lines << QString("    %1 %2").arg(name, value);
    }
  }
  if (!r.counters->note.empty()) lines << QString::fromStdString(r.counters->note);
  return lines.join('\n');
}

std::optional<double> barrier_stall(const PointResult& r) {
  const KernelCounters* k = r.counters ? r.counters->headline() : nullptr;
  if (!k) return std::nullopt;
  return k->value(find_counter("barrier_stall")->metric);
}

}  // namespace rl::gui
