// How the measured timeline's numbers read in the app: durations and stamps, ruler labels, a
// timeline's title and block bands, the tooltip of a span, and the one-line summary under the
// view (from summarize_timeline, with the counter pass's barrier stall beside the measured wait
// share where the shown session has one for the same point).
#pragma once

#include <QString>

#include <optional>

#include "engine/session/results.h"
#include "engine/session/timeline_analysis.h"

namespace rl::gui::timeline_text {

// "812 ns", "12.35 µs", "1.234 ms" (the engine's time format).
QString duration(double ns);
// An exact stamp for tooltips: "12345.6 ns".
QString exact_ns(double ns);
// A ruler label at tick `ns` where ticks are `step` ns apart: "0", "500 ns", "1.5 µs".
QString tick(double ns, double step);
// The smallest of 1, 2, 5 x 10^k ns that is at least `at_least`.
double nice_step(double at_least);
// "reduceUnroll8 · B=256 U=8 · N=2^24 int32 · NVIDIA H200 · 2026-12-05T10:00:00Z"
QString title(const MeasuredTimeline& t);
// "block 17 · SM 3"
QString band(const MeasuredTimeline& t, unsigned slot);
// The hover text of a span: where it is, its phase or barrier, start and end in ns and in clock
// cycles; for a wait, the barrier's slowest warp (b: that barrier, when known).
QString span_tooltip(const MeasuredTimeline& t, const TimelineSpan& s, const BarrierTiming* b);

// The counter pass's barrier stall (%) of s's point with t's variant, block size, unroll,
// workspace, type and N; none where s has no such point or no barrier counter for it.
std::optional<double> counter_barrier_stall(const Session& s, const MeasuredTimeline& t);
// "reduceUnroll8 B=256 U=8: SM clock 1.98 GHz · block 3.2 µs (median of 4 marked; 2.9 µs by the
// twin's kernel time) · barrier wait 12 µs,
// 41% of warp time (counter pass: barrier stall 38%) · instrumentation: twin 1.07x the real
// kernel (20 runs each) · 2 warps truncated"
QString summary_line(const MeasuredTimeline& t, const TimelineSummary& s,
                     std::optional<double> counter_stall_pct = std::nullopt);

}  // namespace rl::gui::timeline_text
