// Pieces shared by the chart builders (chart_builders.cpp, chart_ladder.cpp,
// chart_sweeps.cpp); not for use outside them.
#pragma once

#include <QString>

#include <string>
#include <vector>

#include "chart_builders.h"

namespace rl::gui::detail {

extern const QString kNoData;  // the empty state before any run or file

int catalog_index(const std::string& id);  // catalog order; unknown ids last
// Legends and bar labels drop the seed's common "reduce" prefix ("Unroll8" for reduceUnroll8)
// so they fit; hover shows the full name.
QString short_label(const std::string& id, int unroll, bool with_unroll = true);
QString ws_name(Workspace w);
QString type_name(DType t);
bool has_results(const std::vector<ShownSession>& ss);
// "H200", "H200 vs A100", "CPU: host emulation, CPU times"
QString device_part(const std::vector<ShownSession>& ss);

enum class Dim { Unroll, Block, Size };
enum class Measure { Time, Bandwidth, Speedup };
charts::Chart sweep_chart(const QString& id, const std::vector<ShownSession>& ss, Dim dim,
                          Measure m, const std::string& baseline, TimeBasis basis);
charts::Chart ladder_chart(const QString& id, const std::vector<ShownSession>& ss, bool speedup,
                           const std::string& baseline, TimeBasis basis);

}  // namespace rl::gui::detail
