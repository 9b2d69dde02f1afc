#include "charts/chart_builders.h"

#include "charts/chart_builders_internal.h"
#include "engine/catalog/catalog.h"
#include "format.h"

namespace rl::gui {

using charts::Axis;
using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

const std::vector<ChartKind>& chart_kinds() {
  static const std::vector<ChartKind> kinds{
      {"ladder_speedup", "Ladder", "Speed-up along the ladder"},
      {"ladder_time", "Ladder", "Time of each ladder step"},
      {"ladder_counts", "Ladder", "Barriers and lane efficiency per rung"},
      {"ladder_barrier_stall", "Ladder", "Barrier stall per rung (hardware counters)"},
      {"ladder_barriers_stall", "Ladder",
       "Fewer barriers (block model), less barrier stall (hardware counters)"},
      {"ladder_stall_reasons", "Ladder", "Stall reasons per rung (hardware counters)"},
      {"ladder_compare", "Ladder", "Two sessions compared point by point"},
      {"ladder_compare_diff", "Ladder", "Two sessions: difference per point (B - A)"},
      {"time_vs_unroll", "Unroll", "Time against unroll factor"},
      {"bandwidth_vs_unroll", "Unroll", "Bandwidth against unroll factor"},
      {"speedup_vs_unroll", "Unroll", "Speed-up against unroll factor"},
      {"registers_vs_unroll", "Unroll",
       "Registers per thread against unroll factor (build's SASS)"},
      {"stall_vs_unroll", "Unroll", "Barrier stall against unroll factor (hardware counters)"},
      {"time_vs_block", "Block size", "Time against block size"},
      {"bandwidth_vs_block", "Block size", "Bandwidth against block size"},
      {"speedup_vs_block", "Block size", "Speed-up against block size"},
      {"stall_vs_block", "Block size", "Barrier stall against block size (hardware counters)"},
      {"bandwidth_vs_size", "Size", "Bandwidth against size, with the roofs"},
      {"time_vs_size", "Size", "Time against size"},
      {"row_length", kMatrixPage, "Time against the row length N"},
      {"strategy_map_rows", kMatrixPage, "Strategy map: the fastest row sum"},
      {"strategy_map_columns", kMatrixPage, "Strategy map: the fastest column sum"},
  };
  return kinds;
}

std::shared_ptr<const std::vector<LadderSetting>> ladder_settings_of(const ShownSession& s) {
  if (s.ladder_settings) return s.ladder_settings;
  return std::make_shared<const std::vector<LadderSetting>>(ladder_settings(*s.session));
}

namespace detail {

const QString kNoCounters =
    "No hardware counters in this session: run with counters on a GPU (reductionlab-cli run "
    "--counters).";

const QString kNoData =
    "No results yet.\nPick a preset in the Experiment panel and press Run (Ctrl+R), or open a "
    "saved session (Ctrl+O).";

int catalog_index(const std::string& id) {
  const auto& cat = catalog();
  for (size_t i = 0; i < cat.size(); ++i)
    if (cat[i].id == id) return int(i);
  return int(cat.size());
}

QString short_label(const std::string& id, int unroll, bool with_unroll) {
  QString label = variant_label(id, unroll, with_unroll);
  if (label.startsWith("reduce") && label.size() > 6 && label[6].isUpper()) label = label.mid(6);
  return label;
}

QString ws_name(Workspace w) {
  return QString::fromStdString(std::string(to_string(w)));
}
QString bars_name(Workspace w) {
  switch (w) {
    case Workspace::Global:
      return "global, in place";
    case Workspace::Shared:
      return "shared memory";
    case Workspace::Registers:
      return "in registers";
  }
  return ws_name(w);
}
QString type_name(DType t) {
  return QString::fromStdString(std::string(to_string(t)));
}

QString no_results_hint(const std::vector<ShownSession>& ss) {
  for (const auto& s : ss)
    if (s.session && s.session->results.empty() && !s.session->spec.variants.empty())
      return "No points in this session yet.\nA run's points appear here as each one is measured.";
  return kNoData;
}

bool has_results(const std::vector<ShownSession>& ss) {
  for (const auto& s : ss)
    if (s.session && !s.session->results.empty()) return true;
  return false;
}

// The device part of every chart's subtitle: "H200", "H200 vs A100".
QString device_part(const std::vector<ShownSession>& ss) {
  QStringList names;
  for (const auto& s : ss) {
    QString n = qtext::device_short_name(s.session->device);
    if (s.session->device.backend != "cuda") n = "CPU: host emulation, CPU times";
    if (!names.contains(n)) names << n;
  }
  return names.join(" vs ");
}

}  // namespace detail

bool is_compare_chart(const QString& id) {
  return id == "ladder_compare" || id == "ladder_compare_diff";
}

charts::Chart build_chart(const QString& id, const std::vector<ShownSession>& ss,
                          const std::string& baseline, TimeBasis basis,
                          const std::optional<LadderSetting>& ladder, bool pct_of_limit,
                          std::optional<std::uint64_t> matrix_total) {
  Chart c;
  if (id == "ladder_speedup")
    c = detail::ladder_chart(id, ss, true, baseline, basis, ladder);
  else if (id == "ladder_counts")
    c = detail::ladder_counts_chart(id, ss, ladder);
  else if (id == "ladder_barrier_stall")
    c = detail::ladder_barrier_stall_chart(id, ss, ladder);
  else if (id == "ladder_compare")
    c = detail::compare_chart(id, ss, basis, ladder, false);
  else if (id == "ladder_compare_diff")
    c = detail::compare_chart(id, ss, basis, ladder, true);
  else if (id == "ladder_barriers_stall")
    c = detail::ladder_barriers_stall_chart(id, ss, ladder);
  else if (id == "stall_vs_unroll")
    c = detail::counter_sweep_chart(id, ss, true, ladder);
  else if (id == "stall_vs_block")
    c = detail::counter_sweep_chart(id, ss, false, ladder);
  else if (id == "ladder_stall_reasons")
    c = detail::ladder_stall_reasons_chart(id, ss, ladder);
  else if (id == "ladder_time")
    c = detail::ladder_chart(id, ss, false, baseline, basis, ladder);
  else if (id == "time_vs_unroll")
    c = detail::sweep_chart(id, ss, detail::Dim::Unroll, detail::Measure::Time, baseline, basis);
  else if (id == "bandwidth_vs_unroll")
    c = detail::sweep_chart(id, ss, detail::Dim::Unroll, detail::Measure::Bandwidth, baseline,
                            basis, pct_of_limit);
  else if (id == "speedup_vs_unroll")
    c = detail::sweep_chart(id, ss, detail::Dim::Unroll, detail::Measure::Speedup, baseline, basis);
  else if (id == "registers_vs_unroll")
    c = detail::registers_vs_unroll_chart(id, ss);
  else if (id == "time_vs_block")
    c = detail::sweep_chart(id, ss, detail::Dim::Block, detail::Measure::Time, baseline, basis);
  else if (id == "bandwidth_vs_block")
    c = detail::sweep_chart(id, ss, detail::Dim::Block, detail::Measure::Bandwidth, baseline, basis,
                            pct_of_limit);
  else if (id == "speedup_vs_block")
    c = detail::sweep_chart(id, ss, detail::Dim::Block, detail::Measure::Speedup, baseline, basis);
  else if (id == "bandwidth_vs_size")
    c = detail::sweep_chart(id, ss, detail::Dim::Size, detail::Measure::Bandwidth, baseline, basis,
                            pct_of_limit);
  else if (id == "time_vs_size")
    c = detail::sweep_chart(id, ss, detail::Dim::Size, detail::Measure::Time, baseline, basis);
  else if (id == "row_length")
    c = detail::row_length_chart(id, ss, basis, matrix_total, pct_of_limit);
  else if (id == "strategy_map_rows" || id == "strategy_map_columns")
    c = detail::strategy_map_chart(id, ss, basis, id == "strategy_map_columns");
  c.id = id;
  return c;
}

}  // namespace rl::gui
