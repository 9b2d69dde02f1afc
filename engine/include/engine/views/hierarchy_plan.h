// The levels above one block, as a plan the animation's hierarchy view draws and steps through:
// the block's partial, the grid's partials and the finishing pass, and with G GPUs each GPU's
// shard of N/G elements, its local partial and the exchange that combines them.
// Pure arithmetic on the engine's own rules (the shard split of multi_spec.h, the kernels'
// launch planning where it needs no GPU, the partial's size); no CUDA, no Qt, and no times:
// measured times come only from a multi-GPU session (measured_phases).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/types.h"
#include "engine/experiment/multi_spec.h"
#include "engine/session/multi_results.h"

namespace rl {

struct HierarchyRequest {
  std::string variant = "single_pass";  // the local reduction (id or classic name)
  int block_size = 1024;
  int unroll = 4;
  Workspace workspace = Workspace::Registers;  // a variant with one workspace uses its own
  std::uint64_t size = std::uint64_t(1) << 28;
  DType type = DType::Int32;
  int gpus = 1;  // 1 .. kMaxGpus
  Exchange exchange = Exchange::NcclAllReduce;
  static constexpr int kMaxGpus = 64;
};

// One GPU's part. With one GPU it holds the whole input.
struct HierarchyShard {
  int rank = 0;                           // 0 is the root
  std::uint64_t first = 0, elements = 0;  // its elements [first, first + elements)
  std::uint64_t grid = 0;       // blocks of its first kernel; 0: chosen on the GPU (see grid_note)
  std::uint64_t partials = 0;   // partials the first kernel writes; 0: it finishes itself
  bool finishing_pass = false;  // a second kernel (one block) adds the partials
};

enum class HierarchyLevel { Block, Shards, Grid, Exchange, Total };
const char* to_string(HierarchyLevel l);  // "block", "shards", "grid", "exchange", "total"

struct HierarchyStep {
  HierarchyLevel level = HierarchyLevel::Block;
  std::string title;    // short: "One block", "Grid on each GPU", "ncclAllReduce"
  std::string caption;  // what happens, with the plan's numbers
  // Which of a multi-GPU run's measured phases this step belongs to: "local", "exchange", or
  // empty (the step is not timed on its own: the block, the split, the total).
  std::string phase;
  std::uint64_t bytes_moved = 0;  // between GPUs
};

struct HierarchyPlan {
  HierarchyRequest request;            // as resolved: canonical variant id, its workspace
  std::string label;                   // "single_pass B=1024 U=4"
  std::size_t partial_bytes = 8;       // one partial: int32 sums in int64 (8), float32 (4)
  std::vector<HierarchyShard> shards;  // one per GPU, rank order
  std::string grid_note;               // why a grid is 0 ("CUB picks its own grid"), else ""
  std::uint64_t exchange_bytes = 0;    // moved between GPUs by the exchange, in all
  std::vector<HierarchyStep> steps;    // in the order they happen
};

// Throws rl::Error naming the bad value: an unknown variant, a shape it does not take, a GPU
// count outside 1..64, fewer elements than GPUs.
HierarchyPlan make_hierarchy_plan(const HierarchyRequest& r);

// What a multi-GPU session measured for the plan's point (same exchange, GPU count, N and
// type; status OK): the medians over the GPUs, as multi_results.h defines them.
struct MeasuredPhases {
  double local_ms = 0, exchange_ms = 0, total_ms = 0;
  int samples = 0;
  bool noisy = false;
  std::string devices;      // "cuda:0, cuda:1"
  std::string local_label;  // the local reduction the session ran ("single_pass B=1024 U=4")
};
std::optional<MeasuredPhases> measured_phases(const MultiSession& s, const HierarchyPlan& p);

}  // namespace rl
