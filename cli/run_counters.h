// `reductionlab-cli run --counters [LIST]`: hardware counters per kernel (CUPTI, a pass of its
// own after each point's timed samples: engine/counters/). Without a list, the default set;
// LIST is counter ids or ncu metric names, "default" or "all" (`--counters help` lists them).
// The live table gains the headline kernel's columns that fit (CounterColumns); JSON and CSV
// carry every counter of every kernel under its metric name.
#pragma once

#include <CLI/CLI.hpp>

#include <set>
#include <string>
#include <vector>

#include "engine/session/results.h"

namespace rlcli {

struct CountersFlag {
  std::string list;
  CLI::Option* option = nullptr;
  // --line-samples: warp samples per instruction (engine/counters/line_sample_pass.h), for the
  // Code view's per-line metrics and `code --samples`.
  CLI::Option* line_samples = nullptr;
  bool line_samples_on = false;
  // --line-counts: executed instructions and thread efficiency per instruction
  // (engine/counters/line_count_pass.h), for the same views.
  CLI::Option* line_counts = nullptr;
  bool line_counts_on = false;
};

void add_counters_option(CLI::App& sub, CountersFlag& flag);
bool line_samples_asked(const CountersFlag& flag);
bool line_counts_asked(const CountersFlag& flag);
// Throws UsageError ("--counters with --line-counts: ...", rl::kCountersOrLineSamples) when
// more than one of --counters, --line-samples and --line-counts is given.
void check_one_profiling_kind(const CountersFlag& flag);

// The counter ids asked for; empty when --counters was not given. Throws UsageError for an
// unknown counter (naming it and the known ones).
std::vector<std::string> counter_ids(const CountersFlag& flag);

// The table's counter columns: at most six of the ids, the classic ladder's argument first (barrier
// stall, uniformity, threads per instruction, occupancy, DRAM, L2 hit rate).
class CounterColumns {
 public:
  explicit CounterColumns(const std::vector<std::string>& ids);
  bool empty() const { return ids_.empty(); }
  std::string legend() const;  // one line per column: header = metric, meaning
  std::string header() const;  // "  bar st%  uniform% ..." (empty when no columns)
  std::string cells(const rl::PointResult& r) const;

 private:
  std::vector<std::string> ids_;
};

// Prints on stderr, once per distinct reason, why a point has no counters, line samples or line
// counts (no GPU, CUPTI missing, profiling not permitted) or lacks some.
class CounterNotes {
 public:
  void on_result(const rl::PointResult& r);

 private:
  std::set<std::string> said_;
};

// `--counters help`: the catalog, one line per counter.
std::string counter_catalog_text();

}  // namespace rlcli
