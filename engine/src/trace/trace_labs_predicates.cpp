// Traces of the block-wide predicates lab (kernels/lab_predicates.cu): one block of U tiles,
// each thread's register as the values.
//   count_syncthreads_count  per tile: load (the predicate x >= 200 in each thread), then the
//                            barrier that returns a value: __syncthreads_count gives every
//                            thread the block's count
//   count_ballot             per tile: load, then a ballot per warp: lane 0 adds the __popc of
//                            the warp's predicate bits (arrows from the lanes whose bit is set);
//                            then the warp-shuffle block sum
//   count_shared_tree        one load (each thread counts its U elements, stores the count in
//                            shared memory, __syncthreads()), then the interleaved tree
//   any_early_exit           per tile: load (x == 255), then __syncthreads_or: the whole block
//                            leaves together at the first tile with a hit
//   any_full_scan            one load over all U tiles, one __syncthreads_or
// then thread 0 writes the block's answer. Every block does the same steps except its reads and
// (early exit) how many tiles it reads, so the launch totals need no other block's trace.
#include <algorithm>
#include <bit>

#include "kernels/lab.h"

#include "engine/experiment/input_data.h"
#include "trace/trace_internal.h"
#include "trace/trace_warp_builder.h"

namespace rl {

namespace {
namespace lab = kernels::lab;
using warp_trace::Builder;
using warp_trace::kFull;
using warp_trace::num;

bool counts(KernelId k) {
  return k == KernelId::CountSyncthreadsCount || k == KernelId::CountSharedTree ||
         k == KernelId::CountBallot;
}

// The element thread tid reads in tile j of block b, as the kernel's element(): -1 past N.
int element(const Trace& t, std::uint64_t b, unsigned j, unsigned tid) {
  const std::uint64_t i = (b * unsigned(t.unroll) + j) * unsigned(t.block_size) + tid;
  return i < t.size ? input_i32_at(i) : -1;
}

std::uint64_t tile_reads(const Trace& t, std::uint64_t b, unsigned j) {
  const std::uint64_t first = (b * unsigned(t.unroll) + j) * unsigned(t.block_size);
  return first >= t.size ? 0 : std::min<std::uint64_t>(t.block_size, t.size - first);
}

// Tiles the early exit reads in block b: up to and including the first with a 255.
unsigned tiles_read(const Trace& t, std::uint64_t b) {
  for (unsigned j = 0; j < unsigned(t.unroll); ++j)
    for (unsigned tid = 0; tid < unsigned(t.block_size); ++tid)
      if (lab::searched(element(t, b, j, tid))) return j + 1;
  return unsigned(t.unroll);
}

// "threads 3, 17, 40 and 2 more" (at most four named).
std::string who(const std::vector<unsigned>& threads) {
  if (threads.empty()) return "no thread";
  std::string s = threads.size() == 1 ? "thread " : "threads ";
  for (std::size_t i = 0; i < std::min<std::size_t>(threads.size(), 4); ++i)
    s += (i ? ", " : "") + num(threads[i]);
  if (threads.size() > 4) s += " and " + num(threads.size() - 4) + " more";
  return s;
}

class PredicateBuilder {
 public:
  PredicateBuilder(Trace& t, KernelId k) : t_(t), k_(k), b_(t, warp_trace::WarpOp::ShuffleDown) {}

  void build();

 private:
  // Tile j's load: each thread's predicate (1 or 0) in its register; returns who holds it.
  std::vector<unsigned> load(unsigned j, std::vector<std::int32_t>& pred);
  void vote_count(unsigned j, const std::vector<unsigned>& hits, std::int32_t* count);
  void ballot(unsigned j, const std::vector<std::int32_t>& pred, std::vector<std::int32_t>& warp);
  bool vote_or(unsigned j, const std::vector<unsigned>& hits);
  void local_scan();  // count_shared_tree, any_full_scan: every tile, no barrier per tile
  void write_partial();

  Trace& t_;
  KernelId k_;
  Builder<std::int32_t> b_;
};

std::vector<unsigned> PredicateBuilder::load(unsigned j, std::vector<std::int32_t>& pred) {
  const unsigned B = t_.block_size;
  std::vector<unsigned> hits;
  for (unsigned tid = 0; tid < B; ++tid) {
    const int x = element(t_, t_.block_index, j, tid);
    pred[tid] = counts(k_) ? lab::counted(x) : lab::searched(x);
    if (pred[tid]) hits.push_back(tid);
  }
  const std::string test = counts(k_) ? "x >= 200" : "x == 255";
  TraceStep& s = b_.push("load", "tile " + num(j) + " of " + num(t_.unroll) +
                                     ": every thread reads its element and evaluates " + test +
                                     " (1 or 0 in its register; threads past N read nothing: 0). " +
                                     num(hits.size()) + " of " + num(B) + " hold it.");
  s.masks.assign(t_.warps(), 0);
  for (unsigned tid = 0; tid < B; ++tid) s.masks[tid / 32] |= 1u << (tid % 32);
  s.counters.loads = tile_reads(t_, t_.block_index, j);
  b_.regs() = pred;
  b_.snapshot(s);
  return hits;
}

void PredicateBuilder::vote_count(unsigned j, const std::vector<unsigned>& hits,
                                  std::int32_t* count) {
  *count += std::int32_t(hits.size());
  TraceStep& s = b_.push(
      "vote", "tile " + num(j) +
                  ": count += __syncthreads_count(x >= 200), the barrier that "
                  "returns a value: every thread waits at it, and every thread gets back how many "
                  "threads of the block had a true predicate (" +
                  num(hits.size()) + ": " + who(hits) + "). The running count, " + num(*count) +
                  ", is now in every thread's register: no shared memory, no tree.");
  s.masks = t_.steps.front().masks;
  s.barrier = true;
  s.counters.barriers = 1;
  std::fill(b_.regs().begin(), b_.regs().end(), *count);
  b_.snapshot(s);
}

void PredicateBuilder::ballot(unsigned j, const std::vector<std::int32_t>& pred,
                              std::vector<std::int32_t>& warp) {
  TraceStep& s = b_.push("ballot", "");
  s.masks = t_.steps.front().masks;
  std::string per_warp;
  for (unsigned w = 0; w < t_.warps(); ++w) {
    std::uint32_t bits = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (pred[w * 32 + l]) {
        bits |= 1u << l;
        if (l != 0) {
          s.ops.emplace_back(w * 32, w * 32 + l);
          s.threads.push_back(w * 32);
        }
      }
    warp[w] += std::popcount(bits);
    if (w < 4) per_warp += (w ? ", " : "") + num(std::popcount(bits));
  }
  s.caption = "tile " + num(j) +
              ": __ballot_sync(~0, x >= 200) gives each warp its 32 predicate "
              "bits in one instruction, and lane 0 adds __popc of them (this tile: " +
              per_warp + (t_.warps() > 4 ? ", ..." : "") +
              " per warp; arrows from the lanes whose bit is set). No barrier: each warp counts "
              "on its own; the registers show each thread's count (only lane 0's grows).";
  for (unsigned tid = 0; tid < unsigned(t_.block_size); ++tid)
    b_.regs()[tid] = tid % 32 == 0 ? warp[tid / 32] : 0;
  b_.snapshot(s);
}

bool PredicateBuilder::vote_or(unsigned j, const std::vector<unsigned>& hits) {
  const bool found = !hits.empty();
  const bool last = j + 1 == unsigned(t_.unroll);
  std::string cap = "tile " + num(j) + ": __syncthreads_or(x == 255), a barrier that returns " +
                    "1 to every thread when any thread's predicate holds: ";
  if (found)
    cap += who(hits) +
           " found one, so every thread gets 1 and the whole block leaves the loop "
           "together (early exit)" +
           (last ? "." : ": tiles " + num(j + 1) + ".." + num(t_.unroll - 1) + " are never read.");
  else
    cap += "no thread holds a 255, so every thread gets 0 and " +
           std::string(last ? "the block has read all its tiles: its answer is 0."
                            : "the block reads tile " + num(j + 1) + ".");
  TraceStep& s = b_.push("vote", cap);
  s.masks = t_.steps.front().masks;
  s.barrier = true;
  s.counters.barriers = 1;
  std::fill(b_.regs().begin(), b_.regs().end(), found ? 1 : 0);
  b_.snapshot(s);
  return found;
}

void PredicateBuilder::local_scan() {
  const unsigned B = t_.block_size, U = t_.unroll;
  const bool tree = k_ == KernelId::CountSharedTree;
  std::vector<std::int32_t>& r = b_.regs();
  std::uint64_t reads = 0;
  for (unsigned j = 0; j < U; ++j) {
    reads += tile_reads(t_, t_.block_index, j);
    for (unsigned tid = 0; tid < B; ++tid) {
      const int x = element(t_, t_.block_index, j, tid);
      r[tid] = tree ? r[tid] + lab::counted(x) : (r[tid] | lab::searched(x));
    }
  }
  TraceStep& s = b_.push(
      "load", tree ? "each thread reads its " + num(U) +
                         " elements (one per tile, blockDim.x apart, all loads in flight) and "
                         "counts those >= 200 in a register, then stores the count in "
                         "counts[tid] (shared memory); __syncthreads() before the tree."
                   : "each thread reads its " + num(U) +
                         " elements (all loads in flight, no barrier per tile) and keeps hit = 1 "
                         "if any is 255.");
  for (unsigned tid = 0; tid < B; ++tid) s.masks[tid / 32] |= 1u << (tid % 32);
  s.counters.loads = reads;
  s.barrier = tree;
  s.counters.barriers = tree ? 1 : 0;
  b_.snapshot(s);
  if (tree) {
    warp_trace::shared_tree_steps(b_, B,
                                  "counts[tid] += counts[tid + stride], then __syncthreads(): the "
                                  "classic interleaved tree, one barrier per level.");
    return;
  }
  std::vector<unsigned> hits;
  for (unsigned tid = 0; tid < B; ++tid)
    if (r[tid]) hits.push_back(tid);
  vote_or(U - 1, hits);
  t_.steps.back().caption = "__syncthreads_or(hit), once, after every tile is read: " + who(hits) +
                            (hits.empty() ? " found a 255" : " found one") +
                            ", and every thread gets " + (hits.empty() ? "0." : "1.");
}

void PredicateBuilder::write_partial() {
  TraceStep& s = b_.push("write_partial", "");
  s.masks[0] = 1u;
  s.counters.stores = 1;
  b_.snapshot(s);
  t_.partial = double(b_.regs()[0]);
  s.caption = "thread 0 writes the block's answer (" + num(std::uint64_t(t_.partial)) +
              ") to partials[" + num(t_.block_index) + "]; the finishing pass adds them.";
}

void PredicateBuilder::build() {
  const unsigned B = t_.block_size, W = t_.warps(), U = t_.unroll;
  t_.initial_values.assign(B, 0.0);
  for (unsigned tid = 0; tid < B; ++tid)
    t_.initial_values[tid] = std::max(0, element(t_, t_.block_index, 0, tid));
  if (k_ == KernelId::CountSharedTree || k_ == KernelId::AnyFullScan) {
    local_scan();
    write_partial();
    return;
  }
  std::vector<std::int32_t> pred(B, 0), warp(W, 0);
  std::int32_t count = 0;
  for (unsigned j = 0; j < U; ++j) {
    const std::vector<unsigned> hits = load(j, pred);
    if (k_ == KernelId::CountSyncthreadsCount) vote_count(j, hits, &count);
    if (k_ == KernelId::CountBallot) ballot(j, pred, warp);
    if (k_ == KernelId::AnyEarlyExit && vote_or(j, hits)) break;
  }
  if (k_ == KernelId::CountBallot) warp_trace::block_reduce_steps(b_, W);
  write_partial();
}

// The early exit's launch: each block repeats the per-tile pair (load, vote) for the tiles it
// reads; the other counters are the same in every block.
void early_exit_launch_totals(Trace& t) {
  StepCounters per_tile, fixed;
  unsigned traced_tiles = 0;
  for (const TraceStep& s : t.steps) {
    if (s.kind == "load") ++traced_tiles;
    if (s.kind != "load" && s.kind != "vote") fixed += s.counters;
  }
  per_tile = t.steps[0].counters;
  per_tile.loads = 0;
  per_tile += t.steps[1].counters;
  std::uint64_t tiles = 0, reads = 0;
  for (std::uint64_t b = 0; b < t.grid; ++b) {
    const unsigned n = b == t.block_index ? traced_tiles : tiles_read(t, b);
    tiles += n;
    for (unsigned j = 0; j < n; ++j) reads += tile_reads(t, b, j);
  }
  fixed.scale(t.grid);
  per_tile.scale(tiles);
  t.launch_totals = fixed;
  t.launch_totals += per_tile;
  t.launch_totals.loads += reads;
}

}  // namespace

Trace make_predicate_lab_trace(Trace t, KernelId k) {
  t.grid = (t.size + std::uint64_t(t.block_size) * t.unroll - 1) /
           (std::uint64_t(t.block_size) * t.unroll);
  check_block_index(t);
  PredicateBuilder(t, k).build();
  finish_tiled_lab_trace(t);
  if (k == KernelId::AnyEarlyExit) {
    early_exit_launch_totals(t);
    return t;
  }
  const std::uint64_t tile = std::uint64_t(t.block_size) * t.unroll;
  const std::uint64_t traced = std::min(tile, t.size - std::uint64_t(t.block_index) * tile);
  fill_launch_totals(t, tile, t.size - (t.grid - 1) * tile, traced);
  return t;
}

}  // namespace rl
