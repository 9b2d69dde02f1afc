// Exporters and readers for results: versioned JSON sessions (written and read back), CSV
// summaries and raw samples. They work on strings so each caller picks how to write: the CLI
// to files or stdout, the GUI through QSaveFile (atomic).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/session/multi_results.h"
#include "engine/session/results.h"

namespace rl {

// {"schema_version": 1, "tool": {...}, "device": {...}, "spec": {...}, "results": [...]}
std::string session_to_json(const Session& s, int indent = 2);
// Throws rl::Error naming what is wrong ("not JSON: ...", "schema_version 7 is newer than this
// build reads (1)", "results[3].block_size: expected an integer", ...). Never a partial session.
Session session_from_json(std::string_view text);

// The "spec" object of a session, also the format of `reductionlab-cli run --spec FILE`.
// Reading throws rl::Error naming the bad field; missing fields keep ExperimentSpec defaults.
std::string spec_to_json(const ExperimentSpec& spec, int indent = 2);
ExperimentSpec spec_from_json(std::string_view text);

// One row per point: variant, classic name, workspace, block size, unroll, size, rows and cols
// (a matrix point's shape, else empty), type, status,
// timings (median/mean/min/max/stddev/samples for first kernel and total), bandwidth, % of
// roofs, speed-up, value, expected, errors, GPU time, then the block model's counts (counts_*:
// the first kernel's barriers, warp-steps, lane efficiency, lanes, warps, loads, stores; the
// launches; the finishing pass's barriers), empty for a variant without a trace.
std::string summary_csv(const Session& s);
// One row per sample: point columns, sample index, first_ms, total_ms.
std::string samples_csv(const std::vector<PointResult>& results);

// Multi-GPU sessions (run --devices; engine/multi/): {"schema_version": 1, "kind": "multi_gpu",
// "tool", "created_utc", "devices": [...], "links": [...], "nccl", "spec", "read_floors",
// "points": [{..., "phases": {"local", "exchange", "total"}, "samples", "gpus": [{"device",
// ...}]}]}.
std::string multi_session_to_json(const MultiSession& s, int indent = 2);
// Throws rl::Error naming the bad field; never a partial session.
MultiSession multi_session_from_json(std::string_view text);
// Whether text is a multi-GPU session (its "kind"), without reading the rest.
bool is_multi_session_json(std::string_view text);
// One row per point over all its GPUs (scope "all") and one per GPU (scope "cuda:N"): the
// exchange, GPU count, device list, the local kernel, size, type, status, the three phases'
// summaries, GB/s, the read roof, value and expected.
std::string multi_summary_csv(const MultiSession& s);
// One row per sample and scope: local_ms, exchange_ms, total_ms.
std::string multi_samples_csv(const MultiSession& s);

}  // namespace rl
