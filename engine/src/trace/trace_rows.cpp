// Traces of row_per_warp and row_per_block (kernels/segmented_rows.cu), from the rows block
// model (block_model_rows.h); the values are each thread's register.
//   row_per_warp   block b sums rows b*W .. b*W + W-1 (W = B/32), a warp each:
//     load         lane l adds its share of its warp's row (range_thread_sum); a lane whose
//                  share is empty (a short row) reads nothing; a warp past the last row has
//                  no row and is idle from the start
//     shuffle x5   every warp with a row: __shfl_down_sync offsets 16..1
//     write        lane 0 of each such warp writes its row's sum; no barrier anywhere
//   row_per_block  block b sums row b:
//     load         thread t adds its share of the row (t, t + B, ... in 16-byte vectors)
//     block sum    warp trees, warp sums through shared memory, one __syncthreads(), warp 0
//     write        thread 0 writes the row's sum
// A block past the first kMaxRowsGrid goes on with row (pass) b + grid: the trace shows its
// first pass and says so.
#include <algorithm>
#include <map>
#include <type_traits>

#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model_rows.h"
#include "trace/trace_internal.h"
#include "trace/trace_warp_builder.h"

namespace rl {

namespace {

using warp_trace::Builder;
using warp_trace::kFull;
using warp_trace::num;

constexpr unsigned kWarp = 32;

// The thread that sums row `row` with lane/thread index `t` among `n`, and its share's reads.
struct Reader {
  std::uint64_t begin = 0, end = 0;
  unsigned t = 0, n = 1;
};

// Who reads what in one pass: thread i of the block reads readers[i] (a thread with no row has
// an empty range).
std::vector<Reader> readers_of(const Trace& t, const rows::RowPass& p, bool per_warp) {
  const unsigned B = static_cast<unsigned>(t.block_size);
  std::vector<Reader> out(B);
  for (unsigned i = 0; i < B; ++i) {
    const std::uint64_t row = per_warp ? p.first_row + i / kWarp : p.first_row;
    if (per_warp && i / kWarp >= p.row_count) continue;
    out[i] = {row * t.cols, (row + 1) * t.cols, per_warp ? i % kWarp : i, per_warp ? kWarp : B};
  }
  return out;
}

template <typename T, typename A>
void build_pass(Trace& t, const rows::RowPass& p, bool per_warp, const T* x) {
  const unsigned B = static_cast<unsigned>(t.block_size), W = t.warps();
  const unsigned U = static_cast<unsigned>(t.unroll);
  Builder<A> b(t, warp_trace::WarpOp::ShuffleDown);
  const std::vector<Reader> readers = readers_of(t, p, per_warp);
  t.initial_values.assign(B, 0.0);
  std::uint64_t reads = 0;
  TraceStep& load = b.push("load", "");
  for (unsigned i = 0; i < B; ++i) {
    const Reader& r = readers[i];
    const std::uint64_t n = rows::thread_reads(r.begin, r.end, r.t, r.n);
    if (n == 0) continue;
    reads += n;
    load.masks[i / kWarp] |= 1u << (i % kWarp);
    if (x != nullptr) b.regs()[i] = rows::thread_share(x, r.begin, r.end, r.t, r.n, U);
  }
  // Before the load each thread shows element t (lane l: element l) of its row, where there is
  // one: the row laid along the threads that read it.
  if (x != nullptr)
    for (unsigned i = 0; i < B; ++i)
      if (readers[i].begin + readers[i].t < readers[i].end)
        t.initial_values[i] = double(x[readers[i].begin + readers[i].t]);
  load.counters.loads = reads;
  b.snapshot(load);
  if (per_warp) {
    load.caption =
        "load: lane l of warp w adds elements l, l + 32, ... of row " +
        (p.first_row == 0 ? std::string("w") : num(p.first_row) + " + w") + " (16-byte vectors, " +
        num(U) +
        " in flight; up to 3 single elements before the row's first 16-byte boundary "
        "and after its last). " +
        (t.cols < 4 * kWarp ? "A row of " + num(t.cols) +
                                  " elements keeps only some lanes busy; the others "
                                  "read nothing and add 0. "
                            : "") +
        (p.row_count < W ? num(W - p.row_count) + " warps have no row: they exit at once. " : "");
    const unsigned warps = static_cast<unsigned>(p.row_count);
    b.warp_level(warps,
                 warps == 1 ? "the warp with a row" : "the " + num(warps) + " warps, a row each");
    TraceStep& write = b.push("write_partial", "");
    for (unsigned w = 0; w < warps; ++w) write.masks[w] = 1u;
    write.counters.stores = warps;
    b.snapshot(write);
    write.caption = "lane 0 of each warp writes its row's sum to sums[row]: " + num(warps) +
                    " row sums, no shared memory and no barrier in the whole kernel.";
  } else {
    load.caption =
        "load: thread t adds elements t, t + " + num(B) + ", ... of row " + num(p.first_row) +
        " (16-byte vectors, " + num(U) + " in flight). " +
        (t.cols < 4ull * B ? "A row of " + num(t.cols) + " elements gives " + num(reads) +
                                 " reads to " + num(B) + " threads: most of the block adds 0. "
                           : "");
    warp_trace::block_reduce_steps(b, W);
    TraceStep& write = b.push("write_partial", "");
    write.masks[0] = 1u;
    write.counters.stores = 1;
    b.snapshot(write);
    write.caption = "thread 0 writes the row's sum to sums[" + num(p.first_row) + "].";
  }
  t.partial = double(b.regs()[0]);
  t.row_sums.clear();
  for (std::uint64_t k = 0; k < p.row_count; ++k) t.row_sums.push_back(double(b.regs()[k * kWarp]));
}

template <typename T>
void build(Trace& t, const rows::RowPass& p, bool per_warp, const T* x) {
  if constexpr (std::is_same_v<T, float>)
    build_pass<float, float>(t, p, per_warp, x);
  else
    build_pass<std::int32_t, std::int64_t>(t, p, per_warp, x);
}

// The counters of one pass from the shape alone (no values): the steps built on no input.
StepCounters pass_totals(const Trace& shell, const rows::RowPass& p, bool per_warp) {
  Trace t = shell;
  t.steps.clear();
  t.block_totals = {};
  build<float>(t, p, per_warp, static_cast<const float*>(nullptr));
  std::uint64_t reads = 0;
  for (const TraceStep& s : t.steps)
    if (s.kind == "load") reads = s.counters.loads;
  total_block_steps(t, reads);
  return t.block_totals;
}

// Every pass of the launch: a pass's counters depend on how many rows it holds and on the
// 16-byte phase of its first row (the phases of the next rows follow from cols), so each kind
// of pass is built once.
StepCounters launch_totals(const Trace& shell, KernelId k) {
  const bool per_warp = k == KernelId::RowPerWarp;
  const unsigned B = static_cast<unsigned>(shell.block_size);
  const std::uint64_t passes = rows::row_passes(k, shell.rows, B);
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<rows::RowPass, std::uint64_t>> kinds;
  for (std::uint64_t i = 0; i < passes; ++i) {
    const rows::RowPass p = rows::row_pass(k, shell.rows, B, i);
    auto [it, fresh] = kinds.try_emplace({p.row_count, (p.first_row * shell.cols) % 4}, p, 0);
    ++it->second.second;
  }
  StepCounters total;
  for (const auto& [key, kind] : kinds) {
    StepCounters c = pass_totals(shell, kind.first, per_warp);
    c.scale(kind.second);
    total += c;
  }
  // row_per_block: a block that sums another row first waits at a barrier.
  if (!per_warp && passes > shell.grid) total.barriers += passes - shell.grid;
  return total;
}

void check_request(const TraceRequest& r, const VariantInfo& v, int unroll) {
  const std::string name = v.id;
  check_register_trace(r, v, unroll, name);
  if (r.rows == 0 || r.cols == 0)
    throw Error("no shape: " + name +
                " sums the rows of a matrix; give its rows and cols (reductionlab-cli trace "
                "--rows R --cols C)");
  if (r.cols > (std::uint64_t(1) << 40) / r.rows)
    throw Error("shape " + std::to_string(r.rows) + "x" + std::to_string(r.cols) +
                ": more than 2^40 elements");
  if (r.size != 0 && r.size != r.rows * r.cols)
    throw Error("size " + std::to_string(r.size) + ": the shape " + std::to_string(r.rows) + "x" +
                std::to_string(r.cols) + " holds " + std::to_string(r.rows * r.cols) +
                " elements; leave the size out");
}

}  // namespace

bool has_rows_trace(KernelId k) {
  return k == KernelId::RowPerWarp || k == KernelId::RowPerBlock;
}

Trace make_rows_trace(const TraceRequest& r, const VariantInfo& v, int unroll) {
  if (!has_rows_trace(v.kernel)) throw Error("no step-by-step trace for " + v.id);
  check_request(r, v, unroll);
  Trace t = trace_shell(r, v, unroll);
  t.rows = r.rows;
  t.cols = r.cols;
  t.size = r.rows * r.cols;
  const unsigned B = static_cast<unsigned>(r.block_size);
  const std::uint64_t passes = rows::row_passes(v.kernel, r.rows, B);
  t.grid = std::min(passes, rows::kMaxRowsGrid);
  check_block_index(t);
  const rows::RowPass p = rows::row_pass(v.kernel, r.rows, B, r.block_index);
  t.first_row = p.first_row;
  const std::uint64_t needed = (p.first_row + p.row_count) * r.cols;
  const InputData input = trace_input(needed, r.type, r.block_index, needed / (r.block_index + 1));
  const bool per_warp = v.kernel == KernelId::RowPerWarp;
  if (r.type == DType::Int32)
    build(t, p, per_warp, input.i32.data());
  else
    build(t, p, per_warp, input.f32.data());
  std::uint64_t reads = 0;
  for (const TraceStep& s : t.steps)
    if (s.kind == "load") reads = s.counters.loads;
  total_block_steps(t, reads);
  if (r.block_index + t.grid < passes && !t.steps.empty())
    t.steps.back().caption += " This block goes on with the rows of pass " +
                              num(r.block_index + t.grid) + " (the grid is capped at " +
                              num(t.grid) + " blocks).";
  t.launch_totals = launch_totals(t, v.kernel);
  return t;
}

}  // namespace rl
