// The labs of the classic posts: divergence, block-wide predicates, #pragma unroll. Kernels:
// kernels/lab_*.cu; what each maps an element to: kernels/lab.h. Their totals are a function of
// the input (a sum of mapped values, a count), checked against the host model.
#include "catalog/catalog_labs.h"

namespace rl {

namespace {

const std::string kMapPhase =
    "map: thread tid maps element blockIdx.x * blockDim.x + tid (tail threads add 0)";
const std::string kBlockSum = "block sum: warp shuffles, warp sums through shared memory";
const std::string kWrite = "thread 0 writes the block's partial sum";
const std::string kFinish = "finish: one block sums the partials";
const std::string kPaths =
    " Path A and path B are chains of 64 dependent integer steps of different shapes (about 3 "
    "instructions a step each); the value added is the chain's top byte.";

VariantInfo lab(std::string id, KernelId k, VariantFamily family, std::string display,
                std::string explanation, std::vector<std::string> phases) {
  VariantInfo v;
  v.id = std::move(id);
  v.kernel = k;
  v.family = family;
  v.display_name = std::move(display);
  v.explanation = std::move(explanation);
  v.phases = std::move(phases);
  v.sums_input = false;
  return v;
}

VariantInfo branch(std::string id, KernelId k, std::string display, std::string explanation,
                   std::string map) {
  return lab(std::move(id), k, VariantFamily::DivergenceLab, std::move(display),
             std::move(explanation), {kMapPhase + "; " + map, kBlockSum, kWrite, kFinish});
}

void add_divergence(std::vector<VariantInfo>& out) {
  out.push_back(branch("branch_divergent", KernelId::BranchDivergent,
                       "Divergent branch (threadIdx.x % 2)",
                       "Odd threads take path B, even ones path A: every warp holds both, so it "
                       "runs path A with half its lanes masked off, then path B with the other "
                       "half. Same work as branch_uniform, about twice the time." +
                           kPaths,
                       "if (tid % 2) path B else path A"));
  out.push_back(branch("branch_uniform", KernelId::BranchUniform,
                       "Warp-uniform branch ((threadIdx.x / 32) % 2)",
                       "Odd warps take path B, even warps path A: the same number of threads on "
                       "each path as branch_divergent, but every warp agrees, so none runs both "
                       "(the classic divergence post: branch on the warp, not the thread)." +
                           kPaths,
                       "if ((tid / 32) % 2) path B else path A"));
  VariantInfo data =
      branch("branch_data", KernelId::BranchData, "Data-dependent branch (k of 256 values)",
             "Elements whose value is one of the k largest of 256 take path B. Over random "
             "data a warp is mixed (runs both paths) with probability 1 - (1-k/256)^32 - "
             "(k/256)^32: about 12% of warps at k = 1, 22% at 2, 40% at 4, 64% at 8. "
             "Unroll U is k." +
                 kPaths,
             "if (x >= 256 - k) path B else path A");
  data.default_unroll = 4;
  data.unroll_meaning = "k: values (of 256) on path B";
  out.push_back(data);
  VariantInfo sorted = lab(
      "branch_partitioned", KernelId::BranchPartitioned, VariantFamily::DivergenceLab,
      "Data branch after a partition (CUB)",
      "branch_data after cub::DevicePartition::If has moved the elements taking path B to the "
      "front (the rest follow in reverse order): at most one warp is mixed. The partition reads "
      "and writes the whole input, so it pays only when enough warps were mixed (the classic "
      "divergence post: profile first, reorder above ~30%). Its cost is the first step's time; "
      "the total adds the map. Unroll U is k." +
          kPaths,
      {"partition (timed as the first step): cub::DevicePartition::If(x >= 256 - k) into a copy",
       kMapPhase + " of the copy; if (x >= 256 - k) path B else path A", kBlockSum, kWrite,
       kFinish});
  sorted.default_unroll = 4;
  sorted.unroll_meaning = data.unroll_meaning;
  out.push_back(sorted);
  const std::string cheap = " The bodies are one or two instructions (x * 3 + 7, (x >> 1) ^ 85).";
  out.push_back(branch("if_else_cheap", KernelId::IfElseCheap, "if/else, cheap bodies",
                       "An if/else on the element's lowest bit (random: every warp mixed) with "
                       "cheap bodies: the compiler predicates it (both bodies, one select, no "
                       "branch), so it equals select_cheap; the SASS shows it." +
                           cheap,
                       "if (x & 1) v = (x >> 1) ^ 85; else v = x * 3 + 7"));
  out.push_back(branch("select_cheap", KernelId::SelectCheap, "Ternary select, cheap bodies",
                       "The same choice written as a ternary: predication by hand." + cheap,
                       "v = (x & 1) ? (x >> 1) ^ 85 : x * 3 + 7"));
  out.push_back(branch("if_else_costly", KernelId::IfElseCostly, "if/else, costly bodies",
                       "An if/else on the element's lowest bit with the costly paths: every "
                       "warp is mixed and runs both, one after the other." +
                           kPaths,
                       "if (x & 1) path B else path A"));
  out.push_back(branch(
      "select_costly", KernelId::SelectCostly, "Both costly paths, then a select",
      "Both paths are computed for every element and a select keeps one: written without a "
      "branch, yet as costly as the divergent if/else, since both paths run either way (the "
      "classic divergence post's caveat about predication). The compiler may turn it back into "
      "a branch; the SASS says." +
          kPaths,
      "a = path A; b = path B; v = (x & 1) ? b : a"));
  out.push_back(branch("loop_invariant_inside", KernelId::LoopInvariantInside,
                       "Loop-invariant branch inside the loop",
                       "A branch on a kernel argument (the same in every iteration and every "
                       "thread) tested inside the 64-step loop. The compiler hoists it itself "
                       "(loop unswitching): compare the SASS with loop_invariant_hoisted.",
                       "for 64 steps: if (mode) step A else step B"));
  out.push_back(branch(
      "loop_invariant_hoisted", KernelId::LoopInvariantHoisted,
      "Loop-invariant branch hoisted by hand",
      "The same branch tested once, outside the loop (the classic divergence post's hoisting).",
      "if (mode) 64 steps of A else 64 steps of B"));
  out.push_back(branch("abs_branch", KernelId::AbsBranch, "|x - 128| with a branch",
                       "Absolute value with an if: the compiler emits a branch-free form.",
                       "y = x - 128; if (y < 0) y = -y"));
  out.push_back(branch(
      "abs_bit_trick", KernelId::AbsBitTrick, "|x - 128| with a sign mask",
      "Absolute value with the classic divergence post's bit trick, (y ^ (y >> 31)) - (y >> 31): "
      "compare its SASS with abs_branch's.",
      "y = x - 128; s = y >> 31; v = (y ^ s) - s"));
}

void add_predicates(std::vector<VariantInfo>& out) {
  const std::string tiles =
      " Unroll U: tiles of blockDim.x elements per block (U x blockDim.x elements).";
  const std::string load = "load: U tiles of blockDim.x elements per block (tail: no)";
  const auto pred = [&](std::string id, KernelId k, std::string display, std::string text,
                        std::string phase, std::string second = "") {
    std::vector<std::string> phases{load, std::move(phase)};
    if (!second.empty()) phases.push_back(std::move(second));
    phases.insert(phases.end(), {"thread 0 writes the block's answer", kFinish});
    VariantInfo v = lab(std::move(id), k, VariantFamily::PredicateLab, std::move(display),
                        std::move(text) + tiles, std::move(phases));
    v.default_unroll = 4;
    v.unroll_meaning = "U: tiles per block";
    out.push_back(v);
  };
  pred("count_syncthreads_count", KernelId::CountSyncthreadsCount, "Count with __syncthreads_count",
       "Counts the elements >= 200: per tile, __syncthreads_count(x >= 200) is a barrier that "
       "also returns the number of threads whose predicate held, to every thread.",
       "count: per tile, count += __syncthreads_count(x >= 200)");
  pred("count_shared_tree", KernelId::CountSharedTree, "Count with a shared-memory tree",
       "The same count the classic way: per-thread counts to shared memory, then the interleaved "
       "tree with a __syncthreads() per level (log2(blockDim.x) barriers).",
       "count: per thread over its U tiles",
       "tree: counts[tid] += counts[tid + stride], __syncthreads() per level");
  pred("count_ballot", KernelId::CountBallot, "Count with __ballot_sync + __popc",
       "The same count per warp: __ballot_sync gives the warp's predicate bits, __popc counts "
       "them; one block-level step adds the warps' counts.",
       "count: per tile, lane 0 adds __popc(__ballot_sync(~0, x >= 200))",
       "block sum: the warps' counts through shared memory, warp shuffles");
  pred("any_early_exit", KernelId::AnyEarlyExit, "Search with __syncthreads_or (early exit)",
       "Whether a block's elements hold a 255: per tile, __syncthreads_or(x == 255) tells every "
       "thread at once, so the whole block stops at the first tile with a hit (partial 1). The "
       "total is the number of blocks with a 255. Over random data a 256-thread tile holds one "
       "with probability 63%, so most blocks stop after a tile or two.",
       "search: per tile, if (__syncthreads_or(x == 255)) stop");
  pred("any_full_scan", KernelId::AnyFullScan, "Search reading every tile",
       "The same answer with every tile read (all loads in flight, no barrier per tile), one "
       "__syncthreads_or at the end.",
       "search: hit |= (x == 255) over U tiles; __syncthreads_or(hit)");
}

void add_unroll(std::vector<VariantInfo>& out) {
  VariantInfo loop =
      lab("unroll_pragma", KernelId::UnrollPragma, VariantFamily::UnrollLab,
          "Strided load loop under #pragma unroll U",
          "Each thread adds 32 elements blockDim.x apart in a loop under #pragma unroll U (U = 32: "
          "the whole loop). Unrolling puts U loads in flight per iteration and removes the loop's "
          "compare and branch, at the cost of registers (and so, at some point, occupancy): the "
          "Code view shows the registers and the SASS per U.",
          {"load: 32 elements per thread, x[base + tid + j * blockDim.x], #pragma unroll U",
           kBlockSum, kWrite, kFinish});
  loop.default_unroll = 4;
  loop.unroll_meaning = "U: #pragma unroll factor (32: all)";
  out.push_back(loop);
  const std::vector<std::string> tree{
      "load: one element per thread into shared memory",
      "tree: for (stride = B / 2; stride > 0; stride /= 2) { if (tid < stride) ws[tid] += "
      "ws[tid + stride]; __syncthreads(); }",
      "thread 0 writes the block's partial sum", kFinish};
  out.push_back(
      lab("tree_loop_rolled", KernelId::TreeLoopRolled, VariantFamily::UnrollLab,
          "Tree loop, #pragma unroll 1",
          "The classic ladder's interleaved tree over blockDim.x, kept a loop: a compare, a "
          "shift and a branch per level.",
          tree));
  out.push_back(lab("tree_loop_unrolled", KernelId::TreeLoopUnrolled, VariantFamily::UnrollLab,
                    "Tree loop, block size known, #pragma unroll",
                    "The same loop with the block size a template parameter: #pragma unroll "
                    "writes the log2(B) levels out, with constant strides.",
                    tree));
}

}  // namespace

void append_lab_variants(std::vector<VariantInfo>& out) {
  add_divergence(out);
  add_predicates(out);
  add_unroll(out);
}

}  // namespace rl
