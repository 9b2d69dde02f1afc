// CSV exports: one row per point (summary) and one row per sample (raw), cells as io/csv_cells.h
// writes them. Rows end with LF (what spreadsheet programs, pandas and awk all accept).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "engine/catalog/catalog.h"
#include "engine/io/export.h"
#include "engine/session/metrics.h"
#include "io/counters_io.h"
#include "io/csv_cells.h"

namespace rl {

namespace {

using csv::quote;
using csv::Row;

std::string seed_label(const PointSpec& p) {
  const VariantInfo* info = find_variant_by_id(p.variant);
  return info ? info->seed_label(p.unroll) : p.variant;
}

void add_point_columns(Row& row, const PointResult& r) {
  const PointSpec& p = r.point;
  row.add(p.variant)
      .add(seed_label(p))
      .add(to_string(p.workspace))
      .add(p.block_size)
      .add(p.unroll)
      .add(p.size);
  // A matrix point's shape; empty for a whole-array point.
  if (p.is_matrix())
    row.add(p.rows).add(p.cols);
  else
    row.add(std::string_view()).add(std::string_view());
  row.add(to_string(p.type)).add(to_string(r.status));
}

constexpr std::string_view kPointHeader =
    "variant,seed_name,workspace,block_size,unroll,size,rows,cols,type,status";

void add_summary_columns(Row& row, const Summary& s) {
  if (s.empty()) {
    for (int i = 0; i < 7; ++i) row.add(std::string_view());
    return;
  }
  row.add(s.samples)
      .add(s.median_ms)
      .add(s.mean_ms)
      .add(s.min_ms)
      .add(s.max_ms)
      .add(s.stddev_ms)
      .add(s.noise);
}

std::string summary_header(std::string_view prefix) {
  std::string out;
  for (std::string_view col :
       {"samples", "median_ms", "mean_ms", "min_ms", "max_ms", "stddev_ms", "noise"}) {
    out += ',';
    out += prefix;
    out += col;
  }
  return out;
}

// A bandwidth or ratio that was not measured (0 for a point that did not run) stays empty.
std::optional<double> measured(const PointResult& r, double v) {
  if (r.status == PointStatus::Failed || r.status == PointStatus::Skipped) return std::nullopt;
  return v;
}

// The block model's counts (model_counts.h): the first kernel's, then the launches and the
// finishing pass's barriers. Empty cells for a variant without a trace.
constexpr std::string_view kCountsHeader =
    ",counts_barriers,counts_warp_steps,counts_lane_efficiency,counts_active_lanes,"
    "counts_divergent_lanes,counts_idle_warps,counts_exited_warps,counts_warp_syncs,"
    "counts_shuffles,counts_loads,counts_stores,counts_launches,counts_finish_barriers";

void add_counts_columns(Row& row, const std::optional<ModelCounts>& counts) {
  if (!counts) {
    for (int i = 0; i < 13; ++i) row.add(std::string_view());
    return;
  }
  const StepCounters& c = counts->first_kernel;
  row.add(c.barriers)
      .add(c.warp_steps())
      .add(c.lane_efficiency())
      .add(c.active_lanes)
      .add(c.divergent_lanes)
      .add(c.idle_warps)
      .add(c.exited_warps)
      .add(c.warp_syncs)
      .add(c.shuffles)
      .add(c.loads)
      .add(c.stores)
      .add(counts->launches)
      .add(counts->finish.barriers);
}

}  // namespace

std::string summary_csv(const Session& s) {
  const std::vector<PointResult>& results = s.results;
  std::string out(kPointHeader);
  out += ",message,grid";
  out += summary_header("first_");
  out += summary_header("total_");
  out +=
      ",first_gbps,total_gbps,pct_of_theoretical,pct_of_read_floor,noisy,speedup,value,expected,"
      "abs_error,rel_error";
  out += summary_header("gpu_");
  out += ",timestamp_floor_median_ms,event_spans";
  out += kCountsHeader;
  const std::vector<std::string> counter_columns = counter_csv_columns(results);
  for (const std::string& c : counter_columns) out += "," + quote(c);
  out += "\n";
  for (const PointResult& r : results) {
    Row row;
    add_point_columns(row, r);
    row.add(r.message).add(r.grid);
    add_summary_columns(row, r.first_kernel);
    add_summary_columns(row, r.total);
    const PointRates rates = point_rates(r, s.device, s.read_floors);
    row.add(r.first_kernel.empty() ? std::nullopt : measured(r, rates.first_gbps))
        .add(measured(r, rates.total_gbps))
        .add(rates.pct_of_theoretical > 0 ? measured(r, rates.pct_of_theoretical) : std::nullopt)
        .add(rates.pct_of_read_floor > 0 ? measured(r, rates.pct_of_read_floor) : std::nullopt)
        .add(std::string_view(r.noisy ? "true" : "false"))
        .add(r.speedup)
        .add(r.value)
        .add(r.expected)
        .add(measured(r, r.abs_error))
        .add(measured(r, r.rel_error));
    add_summary_columns(row, r.gpu_time);
    row.add(r.timestamp_floor.empty() ? std::nullopt : std::optional(r.timestamp_floor.median_ms));
    if (r.event_spans)
      row.add(r.event_spans);
    else
      row.add(std::string_view());
    add_counts_columns(row, r.counts);
    std::string line = row.str();
    line.insert(line.size() - 1, counter_csv_cells(r, counter_columns));
    out += line;
  }
  return out;
}

std::string samples_csv(const std::vector<PointResult>& results) {
  std::string out(kPointHeader);
  out += ",sample,first_ms,total_ms,timestamp_floor_ms\n";
  for (const PointResult& r : results) {
    const std::size_t n =
        std::max({r.first_samples_ms.size(), r.total_samples_ms.size(), r.floor_samples_ms.size()});
    for (std::size_t i = 0; i < n; ++i) {
      Row row;
      add_point_columns(row, r);
      row.add(std::uint64_t(i));
      row.add(i < r.first_samples_ms.size() ? std::optional(r.first_samples_ms[i]) : std::nullopt);
      row.add(i < r.total_samples_ms.size() ? std::optional(r.total_samples_ms[i]) : std::nullopt);
      row.add(i < r.floor_samples_ms.size() ? std::optional(r.floor_samples_ms[i]) : std::nullopt);
      out += row.str();
    }
  }
  return out;
}

}  // namespace rl
