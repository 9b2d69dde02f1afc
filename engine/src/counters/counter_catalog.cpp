#include "engine/counters/counter_catalog.h"

#include <algorithm>
#include <cmath>

#include "engine/core/error.h"

namespace rl {

namespace {
// clang-format off
const std::vector<CounterInfo> kCatalog = {
  {"barrier_stall", "smsp__warp_issue_stalled_barrier_per_warp_active.pct", "%", "bar st%",
   "share of an active warp's cycles spent waiting at a __syncthreads() barrier", true},
  {"long_scoreboard_stall", "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", "%",
   "long sb%", "cycles waiting on a global/local memory result (L1TEX)", true},
  {"short_scoreboard_stall", "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct", "%",
   "shrt sb%", "cycles waiting on a shared-memory or MIO result", true},
  {"membar_stall", "smsp__warp_issue_stalled_membar_per_warp_active.pct", "%", "membar%",
   "cycles waiting at a memory barrier (__threadfence)", true},
  {"not_selected_stall", "smsp__warp_issue_stalled_not_selected_per_warp_active.pct", "%",
   "not sel%", "cycles eligible but another warp was picked (a sign of enough parallelism)", true},
  {"wait_stall", "smsp__warp_issue_stalled_wait_per_warp_active.pct", "%", "wait%",
   "cycles waiting a fixed latency (dependent arithmetic)", true},
  {"mio_throttle_stall", "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct", "%",
   "mio thr%", "cycles waiting for the MIO queue (shared memory, shuffles) to drain", false},
  {"lg_throttle_stall", "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct", "%",
   "lg thr%", "cycles waiting for the local/global memory queue to drain", false},
  {"branch_uniformity", "smsp__sass_average_branch_targets_threads_uniform.pct", "%", "uniform%",
   "branches whose threads all took the same target (100% = no divergence)", true},
  {"threads_per_inst", "smsp__thread_inst_executed_per_inst_executed.ratio", "threads",
   "thr/inst", "threads active per executed warp instruction (32 = no idle lanes)", true},
  {"warp_efficiency", "smsp__thread_inst_executed_per_inst_executed.pct", "%", "warp eff",
   "threads per instruction as a share of 32 (warp execution efficiency)", false},
  {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", "%", "occup%",
   "active warps per SM over the most an SM can hold, while active", true},
  {"dram_throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", "dram%",
   "DRAM throughput as a share of its peak over the kernel's duration", true},
  {"l2_hit_rate", "lts__t_sector_hit_rate.pct", "%", "L2 hit%",
   "L2 sector requests that hit", true},
  {"shared_ld_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
   "conflicts", "bank ld", "extra shared-memory load wavefronts caused by bank conflicts", true},
  {"shared_st_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
   "conflicts", "bank st", "extra shared-memory store wavefronts caused by bank conflicts", true},
  {"inst_executed", "smsp__inst_executed.sum", "instructions", "inst",
   "warp instructions executed", true},
  {"branches_executed", "smsp__inst_executed_op_branch.sum", "instructions", "branches",
   "branch warp instructions executed (BRA, JMP, ...)", true},
  // Outside the default set: what the percentages above are made of, to see where two tools
  // (or two cache states) differ.
  {"kernel_duration", "gpu__time_duration.sum", "ns", "dur ns",
   "the kernel's duration in the profiled pass (not a timed sample)", false},
  {"dram_read_bytes", "dram__bytes_read.sum", "bytes", "dram rd",
   "bytes read from DRAM", false},
  {"dram_write_bytes", "dram__bytes_write.sum", "bytes", "dram wr",
   "bytes written to DRAM (write-backs of dirty L2 lines)", false},
  {"l2_sectors", "lts__t_sectors.sum", "sectors", "L2 sect",
   "32-byte L2 sector requests, of every kind", false},
  {"l2_hit_sectors", "lts__t_sectors_lookup_hit.sum", "sectors", "L2 hits",
   "L2 sector lookups that hit", false},
  {"l2_miss_sectors", "lts__t_sectors_lookup_miss.sum", "sectors", "L2 miss",
   "L2 sector lookups that missed", false},
  // The clocks the pass ran at: stall shares are counted in SM cycles, so a memory-bound kernel
  // waits more cycles per load at a higher SM clock (two tools at two clocks differ for it).
  {"sm_frequency", "sm__cycles_elapsed.avg.per_second", "cycles/s", "SM Hz",
   "the SM clock while the kernel ran", false},
  {"dram_frequency", "dram__cycles_elapsed.avg.per_second", "cycles/s", "DRAM Hz",
   "the DRAM clock while the kernel ran", false},
  // Barriers executed: Hopper's profiler has no barrier-instruction counter (`ncu --query-metrics
  // --chip gh100` lists none), so the count is the block model's, exact (counts.h: barriers).
};
// clang-format on
}  // namespace

const std::vector<CounterInfo>& counter_catalog() {
  return kCatalog;
}

const CounterInfo* find_counter(std::string_view id_or_metric) {
  for (const CounterInfo& c : kCatalog)
    if (c.id == id_or_metric || c.metric == id_or_metric) return &c;
  return nullptr;
}

std::vector<std::string> default_counters() {
  std::vector<std::string> ids;
  for (const CounterInfo& c : kCatalog)
    if (c.in_default) ids.emplace_back(c.id);
  return ids;
}

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}
}  // namespace

std::vector<std::string> parse_counter_list(std::string_view text) {
  std::vector<bool> chosen(kCatalog.size(), false);
  std::size_t start = 0;
  bool any = false;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = trim(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) throw Error("counter list '" + std::string(text) + "': an empty item");
    any = true;
    for (std::size_t i = 0; i < kCatalog.size(); ++i) {
      const CounterInfo& c = kCatalog[i];
      if (item == "all" || (item == "default" && c.in_default) || item == c.id || item == c.metric)
        chosen[i] = true;
    }
    if (item != "all" && item != "default" && !find_counter(item)) {
      std::string known;
      for (const CounterInfo& c : kCatalog)
        known += (known.empty() ? "" : ", ") + std::string(c.id);
      throw Error("unknown counter '" + std::string(item) + "' (known: default, all, " + known +
                  ")");
    }
  }
  std::vector<std::string> ids;
  for (std::size_t i = 0; any && i < kCatalog.size(); ++i)
    if (chosen[i]) ids.emplace_back(kCatalog[i].id);
  return ids;
}

bool counter_values_agree(std::string_view metric, double a, double b) {
  const CounterInfo* c = find_counter(metric);
  const bool percent = c ? c->percent() : metric.find(".pct") != std::string_view::npos;
  if (percent) return std::abs(a - b) <= 2.0;
  if (std::abs(a) <= 1 && std::abs(b) <= 1) return true;
  return std::abs(a - b) <= 0.05 * std::max(std::abs(a), std::abs(b));
}

std::vector<std::string> counter_metrics(const std::vector<std::string>& ids) {
  std::vector<std::string> metrics;
  for (const std::string& id : ids)
    if (const CounterInfo* c = find_counter(id)) metrics.emplace_back(c->metric);
  return metrics;
}

}  // namespace rl
