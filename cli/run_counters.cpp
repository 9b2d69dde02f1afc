#include "run_counters.h"

#include <cstdio>

#include "cli.h"
#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/counters/counter_pass.h"
#include "engine/measure/runner.h"
#include "engine/report/counters_text.h"
#include "format.h"

namespace rlcli {

namespace {
constexpr std::size_t kMaxColumns = 6;
constexpr const char* kPreferred[] = {"barrier_stall",      "branch_uniformity", "threads_per_inst",
                                      "achieved_occupancy", "dram_throughput",   "l2_hit_rate"};

std::string cell(const rl::CounterInfo& c, std::optional<double> v) {
  return v ? rl::counter_cell_text(c.metric, *v) : "-";
}
}  // namespace

void add_counters_option(CLI::App& sub, CountersFlag& flag) {
  flag.option = sub.add_option("--counters", flag.list,
                               "Read hardware counters per kernel with CUPTI, in a pass of its own "
                               "after each point's timed samples: the default set, or LIST (ids "
                               "or ncu metric names, 'all'; 'help' lists them)")
                    ->expected(0, 1)
                    ->type_name("[LIST]");
  flag.line_samples = sub.add_flag(
      "--line-samples", flag.line_samples_on,
      "Sample warp states per instruction with CUPTI's PC sampling, in a pass of its own after "
      "each point's samples and counters: where each kernel's warps wait, and why, per SASS "
      "instruction and source line (`code --samples` and the app's Code tab show them)");
  flag.line_counts = sub.add_flag(
      "--line-counts", flag.line_counts_on,
      "Count executed instructions per instruction with CUPTI's SASS metrics after each point's "
      "samples, each launch step in a GPU worker process of its own: how often each SASS "
      "instruction and source line ran, and with how many of a warp's 32 threads (thread "
      "efficiency; `code --samples` and the app's Code tab show them)");
}

bool line_samples_asked(const CountersFlag& flag) {
  return flag.line_samples && flag.line_samples->count() > 0;
}

bool line_counts_asked(const CountersFlag& flag) {
  return flag.line_counts && flag.line_counts->count() > 0;
}

void check_one_profiling_kind(const CountersFlag& flag) {
  std::vector<std::string> asked;
  if (flag.option && flag.option->count() > 0) asked.emplace_back("--counters");
  if (line_samples_asked(flag)) asked.emplace_back("--line-samples");
  if (line_counts_asked(flag)) asked.emplace_back("--line-counts");
  if (asked.size() > 1)
    throw UsageError(asked[0] + " with " + asked[1] + ": " + rl::kCountersOrLineSamples);
}

std::vector<std::string> counter_ids(const CountersFlag& flag) {
  if (!flag.option || flag.option->count() == 0) return {};
  if (flag.list.empty()) return rl::default_counters();
  try {
    return rl::parse_counter_list(flag.list);
  } catch (const rl::Error& e) {
    throw UsageError(std::string("--counters: ") + e.what());
  }
}

CounterColumns::CounterColumns(const std::vector<std::string>& ids) {
  for (const char* p : kPreferred)
    if (std::find(ids.begin(), ids.end(), p) != ids.end()) ids_.emplace_back(p);
  for (const std::string& id : ids)
    if (ids_.size() < kMaxColumns && std::find(ids_.begin(), ids_.end(), id) == ids_.end())
      ids_.push_back(id);
}

std::string CounterColumns::legend() const {
  if (ids_.empty()) return {};
  std::string out =
      "counters (CUPTI, a replayed pass of its own after the samples: never timed) of the first "
      "kernel, or of the one launch; every kernel's are in --json/--csv:\n";
  for (const std::string& id : ids_) {
    const rl::CounterInfo* c = rl::find_counter(id);
    out += "  " + std::string(c->column) + " = " + std::string(c->metric) + ": " +
           std::string(c->meaning) + "\n";
  }
  return out + "  ~ after a value: unsteady; the median of " + std::to_string(rl::kCounterRepeats) +
         " profiled launches whose lowest and highest differ by more than 2 points (5% for "
         "counts)\n";
}

std::string CounterColumns::header() const {
  std::string out;
  char buf[32];
  for (const std::string& id : ids_) {
    std::snprintf(buf, sizeof buf, "  %8s", std::string(rl::find_counter(id)->column).c_str());
    out += buf;
  }
  return out;
}

std::string CounterColumns::cells(const rl::PointResult& r) const {
  std::string out;
  const rl::KernelCounters* k = r.counters ? r.counters->headline() : nullptr;
  char buf[32];
  for (const std::string& id : ids_) {
    const rl::CounterInfo* c = rl::find_counter(id);
    const auto range = k ? k->range(c->metric) : std::nullopt;
    const bool unsteady = range && !rl::counter_steady(c->metric, *range);
    std::snprintf(
        buf, sizeof buf, "  %8s",
        (cell(*c, k ? k->value(c->metric) : std::nullopt) + (unsteady ? "~" : "")).c_str());
    out += buf;
  }
  return out;
}

void CounterNotes::on_result(const rl::PointResult& r) {
  if (r.counters && !r.counters->note.empty() && said_.insert(r.counters->note).second)
    std::fprintf(stderr, "reductionlab-cli: counters: %s\n", r.counters->note.c_str());
  if (r.line_samples && !r.line_samples->note.empty() && said_.insert(r.line_samples->note).second)
    std::fprintf(stderr, "reductionlab-cli: line samples: %s\n", r.line_samples->note.c_str());
  if (r.line_samples && !r.line_samples->count_note.empty() &&
      said_.insert(r.line_samples->count_note).second)
    std::fprintf(stderr, "reductionlab-cli: line counts: %s\n", r.line_samples->count_note.c_str());
}

std::string counter_catalog_text() {
  std::string out = "Counters (id, ncu metric, unit; * = in the default set):\n";
  for (const rl::CounterInfo& c : rl::counter_catalog())
    out += "  " + std::string(c.in_default ? "* " : "  ") + std::string(c.id) + "  " +
           std::string(c.metric) + "  [" + std::string(c.unit) + "]\n      " +
           std::string(c.meaning) + "\n";
  return out;
}

}  // namespace rlcli
