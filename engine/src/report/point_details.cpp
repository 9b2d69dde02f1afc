// point_details: everything about one point, for tooltips, the status bar and `run` details.
#include <algorithm>
#include <cctype>

#include "engine/experiment/spec.h"
#include "engine/report/counters_text.h"
#include "engine/report/format.h"
#include "engine/session/metrics.h"
#include "engine/trace/model_counts.h"

namespace rl {

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

std::string pct(double v, int decimals) {
  return format_fixed(v, decimals) + "%";
}

std::string g3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

void add_times(const PointResult& r, const PointRates& rates, std::vector<std::string>& lines) {
  if (!r.total.empty())
    lines.push_back("whole reduction: median " + format_time_ms(r.total.median_ms) + " (min " +
                    format_time_ms(r.total.min_ms) + ", max " + format_time_ms(r.total.max_ms) +
                    "; " + std::to_string(r.total.samples) + " samples, noise " +
                    pct(r.total.noise * 100, 2) + ")");
  if (r.noisy)
    lines.push_back("NOISY: noise " + pct(r.total.noise * 100, 2) +
                    " stayed above the target after " + std::to_string(r.total.samples) +
                    " samples (4 budgets); still verified");
  if (!r.gpu_time.empty())
    lines.push_back("GPU time (timestamps taken out): median " +
                    format_time_ms(r.gpu_time.median_ms) + "; an empty event pair reads " +
                    format_time_ms(r.timestamp_floor.median_ms));
  if (!r.first_kernel.empty())
    lines.push_back("first kernel alone (the classic ladder's timing): median " +
                    format_time_ms(r.first_kernel.median_ms) + ", " +
                    format_gbps(rates.first_gbps));
}

void add_bandwidth(const PointRates& r, std::vector<std::string>& lines) {
  if (r.total_gbps <= 0) return;
  std::string bw = "bandwidth: " + format_gbps(r.total_gbps);
  if (r.pct_of_theoretical > 0) bw += ", " + pct(r.pct_of_theoretical, 1) + " of theoretical";
  if (r.pct_of_read_floor > 0)
    bw += ", " + pct(r.pct_of_read_floor, 1) + " of the read floor at this N";
  lines.push_back(bw);
  if (r.pct_of_read_floor > 100) lines.push_back(above_floor_note());
}

}  // namespace

std::vector<std::string> point_details(const PointResult& r, const DeviceInfo& device,
                                       const std::vector<ReadFloor>& floors,
                                       const std::string& baseline) {
  const PointRates rates = point_rates(r, device, floors);
  const PointSpec& p = r.point;
  std::vector<std::string> lines;
  lines.push_back(variant_label(p.variant, p.unroll) + " (" + variant_display_name(p.variant) +
                  ")");
  lines.push_back(std::string(to_string(p.workspace)) + " · B=" + block_size_text(p.block_size) +
                  " · U=" + std::to_string(p.unroll) + " · " + (p.is_matrix() ? "" : "N=") +
                  p.size_text() + " · " + std::string(to_string(p.type)));
  lines.push_back("device: " + device.label());
  if (r.status != PointStatus::Ok)
    lines.push_back("status: " + upper(std::string(to_string(r.status))) +
                    (r.message.empty() ? "" : " - " + r.message));
  add_times(r, rates, lines);
  add_bandwidth(rates, lines);
  if (r.speedup)
    lines.push_back((device.backend == "cuda"
                         ? "speed-up (whole reduction) vs "
                         : "CPU-time ratio (host emulation, not a GPU speed-up) vs ") +
                    baseline + ": ×" + format_fixed(*r.speedup, 2));
  if (const std::optional<ModelCounts> c = counts_of(r))
    lines.push_back("block model (a GPU's work, every block): " + std::to_string(c->barriers()) +
                    " barriers, " + std::to_string(c->warp_steps()) +
                    " warp-steps, lane efficiency " + pct(100.0 * c->lane_efficiency(), 1) + ", " +
                    std::to_string(c->launches) + (c->launches == 1 ? " launch" : " launches"));
  for (std::string& line : counters_lines(r)) lines.push_back(std::move(line));
  if (!r.value.empty()) lines.push_back("value " + r.value + ", expected " + r.expected);
  if (p.type == DType::Float32 && r.rel_error != 0)
    lines.push_back("float error vs double sum: " + g3(r.abs_error) + " (relative " +
                    g3(r.rel_error) + ")");
  if (r.status == PointStatus::Wrong) lines.push_back("WRONG RESULT: not shown as a speed-up");
  return lines;
}

}  // namespace rl
