// Step-by-step trace of one block of a reduction variant, from the host block model (the same
// plan model_reduce runs, block_model_ladder.h) or recorded on a GPU by the instrumented
// kernels. The source of `reductionlab-cli trace` and of the GUI's block animation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/types.h"
#include "engine/session/counts.h"

namespace rl {

// workspace: a variant that takes a single workspace (the warp-level kernels: registers) uses
// it when the request leaves the default (global).
struct TraceRequest {
  std::string variant;  // id or classic name ("reduceUnroll8" sets unroll 8)
  int block_size = 1024;
  std::optional<int> unroll;  // default: the variant's default
  Workspace workspace = Workspace::Global;
  std::uint64_t size = 0;  // 0: one block's tile; else totals cover the whole launch of N elements
  DType type = DType::Int32;
  unsigned block_index = 0;
  // The matrix of a rows and columns variant (row_per_warp, row_per_block): rows x cols,
  // row-major; 0 for the whole-array variants. size, when given, must equal rows x cols.
  std::uint64_t rows = 0, cols = 0;
};

struct TraceStep {
  std::string kind;                   // "load", "tree", "skipped", "last_warp", "write_partial"
                                      // (matrix variants: one sum per row)
                                      // warp-level kernels: "shuffle", "warp_reduce",
                                      // "warp_sums", "gather"
  unsigned stride = 0;                // src = dst + stride (tree and last-warp steps)
  bool barrier = false;               // a __syncthreads() follows the step
  std::vector<std::uint32_t> masks;   // per warp: bit l set = lane l acts
  std::vector<std::uint32_t> exited;  // per warp: bit l set = lane l has exited (no work left)
  std::vector<std::pair<unsigned, unsigned>> ops;  // (dst, src) workspace indices
  std::vector<unsigned> threads;                   // the thread doing ops[i]
  std::vector<double> values;  // the workspace after the step (exact for int32 and float32);
                               // for kernels working in registers, each thread's register
  std::string caption;
  StepCounters counters;
};

struct Trace {
  std::string variant;  // canonical id
  std::string label;    // the classic ladder's kernel name where there is one ("reduceUnroll8")
  std::string display_name;
  int block_size = 0;
  int unroll = 1;
  Workspace workspace = Workspace::Global;
  DType type = DType::Int32;
  std::uint64_t size = 0;  // N the launch covers (one tile when the request said 0)
  unsigned block_index = 0;
  std::uint64_t grid = 0;  // blocks in the launch
  // A matrix variant's shape, the first row the traced block sums and the sums it writes (one
  // per row, in order); rows == 0 for the whole-array variants.
  std::uint64_t rows = 0, cols = 0, first_row = 0;
  std::vector<double> row_sums;
  std::string source = "model";  // "model" or "gpu"
  std::string source_device;     // the GPU's name when source == "gpu"
  bool volatile_last_warp = false;
  std::vector<double> initial_values;  // the block's tile as the kernel starts (elements < B)
  std::vector<TraceStep> steps;
  double partial = 0;          // the block's partial sum (ws[0] at the end)
  StepCounters block_totals;   // the traced block, all steps
  StepCounters launch_totals;  // every block of the launch
  unsigned warps() const { return static_cast<unsigned>((block_size + 31) / 32); }
};

// Throws rl::Error with a clear message for a bad request (unknown variant, bad block size,
// unroll not taken, block index past the grid, ...).
Trace make_trace(const TraceRequest& r);
// Whether make_trace covers a variant (the classic ladder and the warp-level kernels).
bool has_trace(const VariantInfo& v);
// The trace as JSON text (`reductionlab-cli trace`; docs/cli.md gives its shape); indent -1:
// one line.
std::string trace_json_text(const Trace& t, int indent = -1);

// Throws rl::Error with a clear message for a bad request (unknown variant, bad block size, unroll
// not taken, ...).
std::string trace_json_text(const TraceRequest& r, int indent = -1);

// Lane states from the masks and barriers: after the block's last __syncthreads(), a warp that
// acts in no step from this one on has exited (nothing left to do, no barrier ahead). Sets
// every step's `exited`; recount_lanes() then refreshes a step's lane counters.
void mark_exited_lanes(std::vector<TraceStep>& steps);
void recount_lanes(TraceStep& s);

// The trace of r recorded on CUDA device `device` by the instrumented kernels
// (kernels/instrumented.h): masks, workspace values and partial as the GPU produced them,
// source "gpu", source_device the GPU's name; exited lanes are the model's rule applied to the
// recorded masks plus every lane that never reached the step. Throws rl::Error for a bad
// request, rl::CudaError when the GPU fails.
Trace record_trace_on_gpu(const TraceRequest& r, int device);

// Where two traces of the same request differ (acting masks, lanes that did not reach a step
// although the model says they still had work, values bit for bit, the partial); at most
// max_messages lines, empty when they agree.
std::vector<std::string> compare_traces(const Trace& model, const Trace& recorded,
                                        std::size_t max_messages = 20);

}  // namespace rl
