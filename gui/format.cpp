#include "format.h"

#include "metrics.h"

#include <QStringList>

#include <cmath>

#include "catalog.h"
#include "counters_text.h"
#include "model_counts.h"

namespace rl::gui {

QString format_time_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  if (ms < 1e-3) return QString("%1 ns").arg(ms * 1e6, 0, 'f', 0);
  if (ms < 1) return QString("%1 µs").arg(ms * 1e3, 0, 'g', 4);
  if (ms < 1000) return QString("%1 ms").arg(ms, 0, 'g', 4);
  return QString("%1 s").arg(ms / 1000, 0, 'f', 2);
}

QString block_size_text(int block_size) {
  return block_size > 0 ? QString::number(block_size) : QString("auto");
}

QString format_gbps(double gbps) {
  if (!std::isfinite(gbps) || gbps <= 0) return "-";
  if (gbps >= 1000) return QString("%1 TB/s").arg(gbps / 1000, 0, 'f', 2);
  return QString("%1 GB/s").arg(gbps, 0, 'g', 4);
}

QString format_size(std::uint64_t n) {
  return QString::fromStdString(rl::format_size(n));
}

QString format_duration_s(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const long total = std::lround(s);
  if (total < 60) return QString("%1 s").arg(total);
  if (total < 3600)
    return QString("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QChar('0'));
  return QString("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60, 2, 10, QChar('0'));
}

QString variant_label(const std::string& id, int unroll, bool with_unroll) {
  const VariantInfo* v = find_variant_by_id(id);
  if (!v)
    return QString::fromStdString(id) +
           (with_unroll && unroll > 1 ? QString(" U=%1").arg(unroll) : "");
  if (!v->seed_name.empty()) {
    if (v->seed_name_has_unroll)
      return QString::fromStdString(with_unroll ? v->seed_label(unroll) : v->seed_name);
    // reduceCompleteUnroll is the seed's kernel at its own factor (8); say so at any other.
    QString label = QString::fromStdString(v->seed_name);
    if (with_unroll && unroll != v->seed_unroll && v->unroll_factors.size() > 1)
      label += QString(" U=%1").arg(unroll);
    return label;
  }

  QString label = QString::fromStdString(id);
  if (with_unroll && v->unroll_factors.size() > 1) label += QString(" U=%1").arg(unroll);
  return label;
}

QString variant_display_name(const std::string& id) {
  const VariantInfo* v = find_variant_by_id(id);
  return QString::fromStdString(v ? v->display_name : id);
}

QString device_short_name(const DeviceInfo& d) {
  if (d.backend != "cuda") return "CPU (host emulation)";
  QString name = QString::fromStdString(d.name);
  if (name.startsWith("NVIDIA ")) name = name.mid(7);
  return name.isEmpty() ? QString("cuda:%1").arg(d.index) : name;
}

QString session_origin(const Session& s) {
  QStringList parts;
  parts << (s.device.backend == "cuda" ? QString::fromStdString(s.device.label())
                                       : QString("CPU (host emulation: CPU times, not GPU times)"));
  if (!s.tool_version.empty()) parts << "ReductionLab " + QString::fromStdString(s.tool_version);
  if (!s.git_commit.empty()) parts << "commit " + QString::fromStdString(s.git_commit);
  if (!s.created_utc.empty()) parts << QString::fromStdString(s.created_utc);
  parts << QString("%1 points%2").arg(s.results.size()).arg(s.cancelled ? " (cancelled)" : "");
  return parts.join(" · ");
}

QString point_details(const PointResult& r, const DeviceInfo& device, const std::string& baseline) {
  const PointSpec& p = r.point;
  QStringList lines;
  lines << QString("%1 (%2)").arg(variant_label(p.variant, p.unroll),
                                  variant_display_name(p.variant));
  lines << QString("%1 · B=%2 · U=%3 · N=%4 · %5")
               .arg(QString::fromStdString(std::string(to_string(p.workspace))))
               .arg(block_size_text(p.block_size))
               .arg(p.unroll)
               .arg(format_size(p.size))
               .arg(QString::fromStdString(std::string(to_string(p.type))));
  lines << "device: " + QString::fromStdString(device.label());
  if (r.status != PointStatus::Ok) {
    lines << QString("status: %1%2")
                 .arg(QString::fromStdString(std::string(to_string(r.status))).toUpper())
                 .arg(r.message.empty() ? QString() : " - " + QString::fromStdString(r.message));
  }
  if (!r.total.empty())
    lines << QString("whole reduction: median %1 (min %2, max %3; %4 samples, noise %5%)")
                 .arg(format_time_ms(r.total.median_ms), format_time_ms(r.total.min_ms),
                      format_time_ms(r.total.max_ms))
                 .arg(r.total.samples)
                 .arg(r.total.noise * 100, 0, 'f', 2);
  if (r.noisy)
    lines << QString(
                 "NOISY: noise %1% stayed above the target after %2 samples (4 budgets); "
                 "still verified")
                 .arg(r.total.noise * 100, 0, 'f', 2)
                 .arg(r.total.samples);
  if (!r.gpu_time.empty())
    lines << QString("GPU time (timestamps taken out): median %1; an empty event pair reads %2")
                 .arg(format_time_ms(r.gpu_time.median_ms),
                      format_time_ms(r.timestamp_floor.median_ms));
  if (!r.first_kernel.empty())
    lines << QString("first kernel alone (the seed's timing): median %1, %2")
                 .arg(format_time_ms(r.first_kernel.median_ms), format_gbps(r.first_gbps));
  if (r.total_gbps > 0) {
    QString bw = "bandwidth: " + format_gbps(r.total_gbps);
    if (r.pct_of_theoretical > 0)
      bw += QString(", %1% of theoretical").arg(r.pct_of_theoretical, 0, 'f', 1);
    if (r.pct_of_read_floor > 0)
      bw += QString(", %1% of the read floor at this N").arg(r.pct_of_read_floor, 0, 'f', 1);
    lines << bw;
    if (r.pct_of_read_floor > 100) lines << QString::fromStdString(above_floor_note());
  }
  if (r.speedup)
    lines << QString(device.backend == "cuda"
                         ? "speed-up (whole reduction) vs %1: ×%2"
                         : "CPU-time ratio (host emulation, not a GPU speed-up) vs %1: ×%2")
                 .arg(QString::fromStdString(baseline))
                 .arg(*r.speedup, 0, 'f', 2);
  if (const std::optional<ModelCounts> c = counts_of(r))
    lines << QString(
                 "block model (a GPU's work, every block): %1 barriers, %2 warp-steps, "
                 "lane efficiency %3%, %4 launch%5")
                 .arg(c->barriers())
                 .arg(c->warp_steps())
                 .arg(100.0 * c->lane_efficiency(), 0, 'f', 1)
                 .arg(c->launches)
                 .arg(c->launches == 1 ? "" : "es");
  if (r.counters) lines << counters_text(r);
  if (!r.value.empty())
    lines << QString("value %1, expected %2")
                 .arg(QString::fromStdString(r.value), QString::fromStdString(r.expected));
  if (p.type == DType::Float32 && r.rel_error != 0)
    lines << QString("float error vs double sum: %1 (relative %2)")
                 .arg(r.abs_error, 0, 'g', 3)
                 .arg(r.rel_error, 0, 'g', 3);
  if (r.status == PointStatus::Wrong) lines << "WRONG RESULT: not shown as a speed-up";
  return lines.join('\n');
}

}  // namespace rl::gui
