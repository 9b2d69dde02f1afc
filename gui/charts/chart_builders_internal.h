// Pieces shared by the chart builders (chart_builders.cpp, chart_ladder.cpp,
// chart_sweeps.cpp); not for use outside them.
#pragma once

#include <QColor>
#include <QString>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "charts/chart_builders.h"
#include "engine/views/ladder_setting.h"

namespace rl::gui::detail {

extern const QString kNoData;  // the empty state before any run or file
// What a chart without results says: kNoData, or, where a session is shown that has no point
// yet (a run before its first point), that its points come as they are measured.
QString no_results_hint(const std::vector<ShownSession>& ss);

int catalog_index(const std::string& id);  // catalog order; unknown ids last
// Legends and bar labels drop the classic names' common "reduce" prefix ("Unroll8" for
// reduceUnroll8) so they fit; hover shows the full name.
QString short_label(const std::string& id, int unroll, bool with_unroll = true);
QString ws_name(Workspace w);
// A ladder's bar set: "global, in place" (the classic ladder's way), "shared memory", "in
// registers".
QString bars_name(Workspace w);
QString type_name(DType t);
bool has_results(const std::vector<ShownSession>& ss);
// "H200", "H200 vs A100", "CPU: host emulation, CPU times"
QString device_part(const std::vector<ShownSession>& ss);

// Horizontal reference lines on a bandwidth chart: each session's theoretical DRAM bandwidth
// and its read floor (at `bytes` where the chart is at one size and the session measured it
// there, else the device's; bytes 0: a size chart, which draws the floor per N where the session
// has it). A copy's bandwidth is no roof (it reads and writes): not drawn.
void add_roofs(charts::Chart& c, const std::vector<ShownSession>& ss, std::uint64_t bytes,
               TimeBasis basis);
// The read floor against N (one dashed line per session that measured it): time (in `unit`s of
// a millisecond) or bandwidth. Nothing a reduction of N elements does can be much below it.
void add_read_floor_curve(charts::Chart& c, const std::vector<ShownSession>& ss, bool time,
                          TimeBasis basis, double unit);
// Sessions measured on the host backend: their times are CPU times of an emulation, never GPU
// times, and their ratios never GPU speed-ups. All: every shown session; Some: a mix.
bool is_cpu(const DeviceInfo& d);
enum class Cpu { None, Some, All };
Cpu cpu_times(const std::vector<ShownSession>& ss);
// "3 points did not reach the noise target: hatched bars, 'noisy' in the tooltips ...": bar
// charts hatch noisy bars; line charts mark them in their tooltips only.
enum class NoisyMark { HatchedBars, Tooltips };
QString noisy_warning(int count, NoisyMark mark);

enum class Dim { Unroll, Block, Size };
enum class Measure { Time, Bandwidth, Speedup };
// pct_of_limit: bandwidth drawn as % of each point's read floor (Chart::pct_of_limit_note).
charts::Chart sweep_chart(const QString& id, const std::vector<ShownSession>& ss, Dim dim,
                          Measure m, const std::string& baseline, TimeBasis basis,
                          bool pct_of_limit = false);
// A counter chart of a session without counters: how to get them.
extern const QString kNoCounters;
// "1 of 8 settings in the session" when the session holds more than one; empty otherwise.
QString other_settings_note(const ShownSession& s);
charts::Chart ladder_chart(const QString& id, const std::vector<ShownSession>& ss, bool speedup,
                           const std::string& baseline, TimeBasis basis,
                           const std::optional<LadderSetting>& chosen);
// The block model's counts along the ladder (chart_counts.cpp): barriers per rung, lane
// efficiency on each bar, at the ladder charts' setting of the primary session.
charts::Chart ladder_counts_chart(const QString& id, const std::vector<ShownSession>& ss,
                                  const std::optional<LadderSetting>& chosen);
// Two sessions (A = ss[0], B = ss[1]) point by point at the ladder's setting
// (chart_compare.cpp): B's speed-up over A, or (difference) B - A in µs.
charts::Chart compare_chart(const QString& id, const std::vector<ShownSession>& ss, TimeBasis basis,
                            const std::optional<LadderSetting>& chosen, bool difference);
// The measured stall reasons along the ladder, stacked (chart_stall_reasons.cpp).
// Registers per thread against the unroll factor from the build's SASS (chart_registers.cpp).
charts::Chart registers_vs_unroll_chart(const QString& id, const std::vector<ShownSession>& ss);
charts::Chart ladder_stall_reasons_chart(const QString& id, const std::vector<ShownSession>& ss,
                                         const std::optional<LadderSetting>& chosen);
// The measured barrier stall along the ladder (chart_counters.cpp).
charts::Chart ladder_barrier_stall_chart(const QString& id, const std::vector<ShownSession>& ss,
                                         const std::optional<LadderSetting>& chosen);

// The measured barrier stall against the unroll factor (by_unroll) or the block size, one line
// per sweep the engine finds (engine/views/counter_series.h), at `preferred` where the session
// holds a sweep there (chart_counter_sweeps.cpp).
charts::Chart counter_sweep_chart(const QString& id, const std::vector<ShownSession>& ss,
                                  bool by_unroll, const std::optional<LadderSetting>& preferred);
// The block model's barriers beside the measured barrier stall per rung, each as % of its
// largest rung (chart_counter_sweeps.cpp).
charts::Chart ladder_barriers_stall_chart(const QString& id, const std::vector<ShownSession>& ss,
                                          const std::optional<LadderSetting>& chosen);

// The rows and columns charts (chart_matrix.cpp, chart_strategy_map.cpp), of matrix points only.
// A variant's colour in both: its place among the rows and columns variants.
QColor strategy_color(const std::string& id);
// The type they draw: int32 where the primary session has matrix points of it, else float32.
std::optional<DType> drawn_type(const Session& s);
// Every M x N the session's matrix points have.
std::set<std::uint64_t> exact_totals(const Session& s);
// The total of the sweep a matrix point belongs to: its own M x N, or, for a width that does not
// divide a sweep's total (rows rounded down), the largest total T of `totals` with T / N = M.
std::uint64_t total_of(const PointSpec& p, const std::set<std::uint64_t>& totals);
QString no_matrix_hint();  // what a session without matrix points shows, and how to get some
// r's time on the basis, nullptr where it lacks one.
const Summary* time_of(const PointResult& r, TimeBasis basis);
// Time (or % of the read floor) against the row length N at one total, one line per strategy;
// total: the one drawn where the primary session has it, else the one with the most points.
charts::Chart row_length_chart(const QString& id, const std::vector<ShownSession>& ss,
                               TimeBasis basis, std::optional<std::uint64_t> total, bool pct);
// The fastest strategy (median) at every shape of the primary session: row sums (columns: false)
// or column sums, each cell labelled with its margin over the runner-up.
charts::Chart strategy_map_chart(const QString& id, const std::vector<ShownSession>& ss,
                                 TimeBasis basis, bool columns);

}  // namespace rl::gui::detail
