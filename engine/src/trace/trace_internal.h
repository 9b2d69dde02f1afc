// Internal to the trace: captions for ladder steps in the classic ladder's terms (stride, which
// threads work, why warps diverge or wait), and the traces of the warp-level kernels past the
// classic ladder.
#pragma once

#include <optional>
#include <string>

#include "engine/catalog/catalog.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model_ladder.h"
#include "engine/trace/trace.h"

namespace rl {

// `ts` holds the step's masks and counters already; `is_partial` marks the final
// write-the-partial step that make_trace appends to the plan.
std::string trace_caption(const ladder::BlockPlan& plan, const ladder::Step& s, const TraceStep& ts,
                          bool is_partial, const Trace& t);

// Traces of warp_shuffle, reduce_add_sync and cg_reduce (kernels/modern_warp.cu), whose block
// works in registers: values are each thread's register. trace_modern.cpp. The request is
// validated already; throws rl::Error for a variant it does not cover.
bool has_warp_family_trace(KernelId k);
// The block size, unroll and workspace of a trace of a kernel that works in registers (the warp
// family's and the row kernels'), each refusal naming `name`.
void check_register_trace(const TraceRequest& r, const VariantInfo& v, int unroll,
                          const std::string& name);
Trace make_warp_family_trace(const TraceRequest& r, const VariantInfo& v, int unroll);

// The trace of single_pass (kernels/modern_single_pass.cu): its tile loads, the same warp-level
// block sum, and the one atomic that hands the block's sum on. trace_single_pass.cpp.
Trace make_single_pass_trace(const TraceRequest& r, const VariantInfo& v, int unroll);

// Traces of row_per_warp and row_per_block (kernels/segmented_rows.cu) on the request's
// rows x cols matrix: the rows a block sums, its lanes along each row (those past a short row's
// end read nothing), the shuffle trees, the block's warp sums. trace_rows.cpp. Throws rl::Error
// for a request without a shape, a size that is not rows x cols, or a bad block size or unroll.
bool has_rows_trace(KernelId k);
Trace make_rows_trace(const TraceRequest& r, const VariantInfo& v, int unroll);

// Traces of the labs (kernels/lab_*.cu), every lab kernel: the request checked, then the
// divergence lab's two paths as steps whose masks show which lanes run each and the warp-shuffle
// block sum (trace_labs.cpp), or the predicates' and the unroll lab's tiles.
bool has_lab_trace(KernelId k);
bool is_divergence_lab(KernelId k);  // the labs the GPU can record (instrumented_warp.cu)
Trace make_lab_trace(const TraceRequest& r, const VariantInfo& v, int unroll);
// `t` is the shell with its size set; they set the grid, check the block index and build.
// trace_labs_predicates.cpp (__syncthreads_count, the tree, ballots, __syncthreads_or) and
// trace_labs_unroll.cpp (the #pragma unroll load loop, the tree loop rolled or unrolled).
Trace make_predicate_lab_trace(Trace t, KernelId k);
Trace make_unroll_lab_trace(Trace t, KernelId k);
// Once a tiled lab's steps are built (each step's loads set): lane states, lane counters and
// the block's totals. trace_labs.cpp.
void finish_tiled_lab_trace(Trace& t);

// A variant named by id or classic name and the unroll factor it runs at: the one the name
// gives ("reduceUnroll8"), else the one asked for, else the variant's default at rows of `cols`
// elements and blocks of `block` threads (0: a whole array). Throws rl::Error for an unknown
// name, or a name whose unroll differs from the one asked for. trace.cpp.
struct ResolvedVariant {
  const VariantInfo* variant = nullptr;
  int unroll = 1;
};
ResolvedVariant resolve_variant_unroll(const std::string& name, std::optional<int> unroll,
                                       std::uint64_t cols = 0, int block = 0);

// A trace's identity (variant, labels, block size, unroll, workspace, type); the caller sets
// size, grid and block index. trace.cpp.
Trace trace_shell(const TraceRequest& r, const VariantInfo& v, int unroll);
// Refuses a block index past t.grid, naming the grid. trace.cpp.
void check_block_index(const Trace& t);
// Once a register-level trace's steps are built: lane states, the load step's reads (the traced
// block's own), every step's lane counters and the block's totals. trace.cpp.
void total_block_steps(Trace& t, std::uint64_t traced_reads);

// The per-block counters that do not depend on the block, scaled to the launch, plus each
// block's own load-step reads (the tail reads fewer). trace.cpp.
void fill_launch_totals(Trace& t, std::uint64_t full_block_reads, std::uint64_t last_block_reads,
                        std::uint64_t traced_block_reads);

// The input of the traced block: make_input's first `needed` elements (element i depends on i
// only, but make_input has no random access, so it generates the whole prefix). Refuses a
// prefix over 2^28 elements (1 GiB) with a message naming the block. trace.cpp.
InputData trace_input(std::uint64_t needed, DType type, unsigned block_index, std::uint64_t tile);

}  // namespace rl
