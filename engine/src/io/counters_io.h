// Counters in files: the "counters" object of a result in a JSON session and the counter
// columns of the summary CSV (export.h). Metric names are kept as they are, so a file names
// exactly what ncu calls them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/session/counter_values.h"
#include "engine/session/line_samples.h"

namespace rl {

struct PointResult;

// {"note": "...", "passes": 2, "repeats": 3, "kernels": [{"role": "first_kernel", "metrics":
// {"smsp__...": 52.9, ...}, "ranges": {"smsp__...": [51.0, 54.2], ...}}, ...]}; "ranges" only
// with more than one repeat. Files without "repeats" (before it) read as one repeat.
nlohmann::ordered_json counters_to_json(const PointCounters& c);
// Throws rl::Error naming the bad field under path ("results[3].counters.kernels[0].role: ...").
PointCounters counters_from_json(const nlohmann::ordered_json& j, const std::string& path);

// {"arch": "sm_90", "period_log2": 10, "launches": 12, "dropped": 0, "note": "",
//  "functions": [{"role": "first_kernel", "function": "_Z...", "pcs": [[384, {"barrier": 4496,
//  "selected": 197}], ...]}, ...]}: offsets as numbers, reasons largest first. With line counts
//  (line_count_pass.h) also "counted_launches": 1 and "count_note" (where not empty), and each
//  counted PC a third element: [384, {...}, {"inst_executed": 4096, "thread_inst_executed":
//  65536}]; none of these where there are no counts, so a file of samples alone has only
//  the fields above.
nlohmann::ordered_json line_samples_to_json(const PointLineSamples& s);
// Throws rl::Error naming the bad field under path ("results[3].line_samples.functions[0]...").
PointLineSamples line_samples_from_json(const nlohmann::ordered_json& j, const std::string& path);

// The summary CSV's counter columns: one per (role, metric) present in any result, named
// "<role>.<metric>" (first_kernel.smsp__warp_issue_stalled_barrier_per_warp_active.pct), and
// where the repeats gave a range "<role>.<metric>[lo]" and "[hi]", in first-seen order; then
// "counters_note". Empty when no result has counters.
std::vector<std::string> counter_csv_columns(const std::vector<PointResult>& results);
// r's cells for those columns (empty cells where r has no such value), each with a leading
// comma; the note quoted as CSV needs.
std::string counter_csv_cells(const PointResult& r, const std::vector<std::string>& columns);

}  // namespace rl
