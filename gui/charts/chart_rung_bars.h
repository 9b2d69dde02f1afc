// What the bar charts over the ladder's rungs share: its times and speed-ups (chart_ladder.cpp),
// the block model's counts (chart_counts.cpp) and the measured stall (chart_counters.cpp,
// chart_stall_reasons.cpp, chart_counter_sweeps.cpp). One rung per category on a linear value
// axis, the same empty states and the same rung names and number texts, so a rung reads the
// same on each of them.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "charts/chart_builders_internal.h"

namespace rl::gui::detail {

// A chart of bars over the rungs: its id and titles, category x, linear y. Where ss has no
// results, or only matrices' (their own page draws them), its empty hint already says so: the
// caller returns it as it is.
charts::Chart rung_chart(const QString& id, const std::vector<ShownSession>& ss,
                         const QString& title, const QString& y_title = {},
                         const QString& y_short_title = {});

// The setting the rungs are drawn at: the primary session's (drawn_ladder_setting). None when
// the session has no measured point, which c's empty hint then says.
std::optional<LadderSetting> rung_setting(charts::Chart& c, const std::vector<ShownSession>& ss,
                                          const std::optional<LadderSetting>& setting);

// The rung's x category: its short name, with " U=<unroll>" where an earlier rung has the same
// name (the axis would merge the two).
void add_rung_category(charts::Chart& c, const std::string& variant, int unroll);

// One bar set: its legend name and the palette's color-th colour.
charts::Series bar_set(const QString& name, int color);

QString count_text(std::uint64_t n);   // "163,840"
QString short_count(std::uint64_t n);  // "163.8k", "2.62M" (below 10,000 the digits): a bar label

}  // namespace rl::gui::detail
