// The engine's counter text (engine/report/counters_text.h) as QStrings.
#pragma once

#include <QString>
#include <QStringList>

#include "engine/report/counters_text.h"
#include "format.h"

namespace rl::gui {

inline QString counters_text(const PointResult& r) {
  return qstrs(rl::counters_lines(r)).join('\n');
}
using rl::barrier_stall;

}  // namespace rl::gui
