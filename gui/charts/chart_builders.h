// From sessions to chart descriptions (charts::Chart): the ladder, time / bandwidth / speed-up
// against unroll factor, block size and size, with roof lines. Plain data in, plain data out;
// no Qt Charts here.
#pragma once

#include <QList>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_data.h"
#include "engine/session/results.h"
#include "engine/views/ladder_setting.h"
#include "time_basis.h"

namespace rl::gui {

// A session to draw; the first is the primary one, the others are overlays (drawn dashed and
// named by their device).
struct ShownSession {
  const Session* session = nullptr;
  QString label;  // legend prefix when several sessions are shown, e.g. "H200"
  // The session's ladder settings as its store listed them once (a pass over every point);
  // null: listed where a chart needs them (ladder_settings_of).
  std::shared_ptr<const std::vector<LadderSetting>> ladder_settings;
};

// s.ladder_settings, or the session's settings listed now.
std::shared_ptr<const std::vector<LadderSetting>> ladder_settings_of(const ShownSession& s);

struct ChartKind {
  QString id;     // file name stem: "ladder_speedup"
  QString group;  // the tab it lives on: "Ladder", "Unroll", "Block size", "Size"
  QString name;   // "Speed-up along the ladder"
};

// Every chart the app draws, in display order.
const std::vector<ChartKind>& chart_kinds();
// The same for these sessions: where every one was measured on the host backend (CPU times of
// an emulation) the ladder leads with the block model's counts (ladder_counts), before the
// CPU-time charts; otherwise chart_kinds() as it is (chart_counts.cpp).
// The comparison charts are listed where two sessions are shown or `compare` says a pair is
// chosen (SessionStore::compared).
std::vector<ChartKind> chart_kinds_for(const std::vector<ShownSession>& sessions,
                                       bool compare = false);
// The charts that draw two sessions point by point (A, then B) rather than the shown ones.
bool is_compare_chart(const QString& id);

// Builds chart `id` (one of chart_kinds()). baseline names the speed-up baseline the sessions'
// speed-ups were computed against (rl::compute_speedups); basis, the time every value is drawn
// from (speed-ups on another basis than Whole are computed here from that time); ladder, the
// setting the ladder charts draw (the Setting selector, --setting): a session that does not hold
// it draws its default (engine/views/ladder_setting.h). pct_of_limit: a bandwidth chart drawn
// as % of each point's read floor (Chart::pct_of_limit_note says why it cannot be).
// matrix_total: the M x N the row length chart draws; none: the one with the most points.
charts::Chart build_chart(const QString& id, const std::vector<ShownSession>& sessions,
                          const std::string& baseline, TimeBasis basis = TimeBasis::Whole,
                          const std::optional<LadderSetting>& ladder = std::nullopt,
                          bool pct_of_limit = false,
                          std::optional<std::uint64_t> matrix_total = std::nullopt);

// The page of the matrix charts, which a session or run of matrices only opens on.
inline const QString kMatrixPage = QStringLiteral("Rows and columns");
// Whether every point is a matrix's (the rows-and-columns preset): a session's results, or the
// points a spec expands to; false where there are none.
bool matrices_only(const Session& s);
bool matrices_only(const ExperimentSpec& spec);

// The totals M x N of a session's matrix points, ascending: a sweep's widths that do not divide
// its total (rows rounded down) count as that total (chart_matrix.cpp). The row length chart
// draws one (build_chart's matrix_total).
std::vector<std::uint64_t> matrix_totals(const Session& s);
// The total the row length chart draws: `chosen` where the session has it, else the total with
// the most points; none without matrix points.
std::optional<std::uint64_t> drawn_matrix_total(const Session& s,
                                                std::optional<std::uint64_t> chosen);

}  // namespace rl::gui
