// A trace step's source lines (engine/code/step_source.h). The catalog phase comes from the code
// view's marks; the narrowing below is what the marks cannot say (which stride, which of a
// kernel's two warp reductions), read from the kernel's own text so it follows the source.
#include "engine/code/step_source.h"

#include <algorithm>
#include <map>
#include <regex>

#include "kernels/lab.h"

namespace rl::code {

namespace {

using Lines = std::vector<int>;

std::string code_of(const std::string& text) {
  const std::size_t c = text.find("//");
  std::string s = c == std::string::npos ? text : text.substr(0, c);
  const std::size_t a = s.find_first_not_of(" \t");
  const std::size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

bool kernel_line(const CodeEntry& e, int i) {
  return i >= 0 && i < int(e.source.size()) && e.source[i].in_kernel;
}

Lines with_phase(const CodeEntry& e, const std::string& phase) {
  Lines out;
  for (int i = 0; i < int(e.source.size()); ++i)
    if (e.source[i].in_kernel && e.source[i].phase == phase) out.push_back(i);
  return out;
}

Lines matching(const CodeEntry& e, const Lines& among, const std::regex& re) {
  Lines out;
  for (int i : among)
    if (std::regex_search(code_of(e.source[i].text), re)) out.push_back(i);
  return out;
}

Lines kernel_lines(const CodeEntry& e) {
  Lines out;
  for (int i = 0; i < int(e.source.size()); ++i)
    if (e.source[i].in_kernel) out.push_back(i);
  return out;
}

// A statement split over lines is highlighted whole: `const T mine =` above a marked line, the
// guard `if (lane == 0)` above the call it guards, the arguments that continue a call.
Lines with_continuations(const CodeEntry& e, Lines lines) {
  auto open = [&](int i) {
    const std::string c = code_of(e.source[i].text);
    return !c.empty() && c[0] != '#' && c.back() != ';' && c.back() != '{' && c.back() != '}';
  };
  const Lines marked = lines;
  for (int i : marked) {
    for (int p = i - 1; kernel_line(e, p) && open(p); --p) lines.push_back(p);
    for (int n = i; kernel_line(e, n + 1) && open(n); ++n) lines.push_back(n + 1);
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

// A tree step of stride S: the `+ S]` line where the kernel writes its strides out (the
// blockDim.x if-chain, the template's `if constexpr` blocks) with the barrier after it, else the
// `for (stride ...)` loop: its head and the marked lines that follow it.
Lines tree_lines(const CodeEntry& e, const Lines& phase_lines, unsigned stride) {
  static const std::regex barrier(R"(__syncthreads\s*\()"), opener(R"(^if constexpr\b)"),
      loop(R"(^for\s*\(.*stride)");
  const std::string add = "+ " + std::to_string(stride) + "]";
  auto in_phase = [&](int i) {
    return std::find(phase_lines.begin(), phase_lines.end(), i) != phase_lines.end();
  };
  Lines out;
  for (int i : phase_lines) {
    if (code_of(e.source[i].text).find(add) == std::string::npos) continue;
    out.push_back(i);
    if (in_phase(i + 1) && std::regex_search(code_of(e.source[i + 1].text), barrier))
      out.push_back(i + 1);
    if (in_phase(i - 1) && std::regex_search(code_of(e.source[i - 1].text), opener))
      out.push_back(i - 1);
  }
  if (!out.empty()) return out;
  const Lines heads = matching(e, phase_lines, loop);
  if (heads.empty()) return phase_lines;
  for (int i = heads.front(); in_phase(i); ++i) out.push_back(i);
  return out;
}

// The warp-level steps. Written out in the kernel (reduce_add_sync, cg_reduce: a line stores
// `..._sums[...] =`): the first warp reduction before the gather, the last after it, the store
// and its barrier, the gather's read. Hidden in a helper (block_sum_shfl, block_total): the
// line calling the block-level helper when the trace sums across warps, else the warp-level one
// (the single pass's warp_total when every warp hands on its own sum).
Lines warp_lines(const CodeEntry& e, const Trace& t, std::size_t step) {
  static const std::regex block_call(
      R"(\b(block_sum_shfl|block_total|BlockReduce|block_window_hand_on|block_range_sum)\b)"),
      warp_call(
          R"(\b(warp_sum_redux|warp_sum_shfl|warp_total|warp_window_entry)\b|cg::reduce\s*\()"),
      store(R"(\w+_sums\[[^\]]*\]\s*=[^=])"), read(R"(\w+_sums\[(lane|tile\.thread_rank\(\))\])"),
      barrier(R"(__syncthreads\s*\(|\.sync\s*\()");
  const Lines all = kernel_lines(e);
  const std::string& kind = t.steps[step].kind;
  const Lines stores = matching(e, all, store), reads = matching(e, all, read);
  if (!stores.empty()) {
    if (kind == "warp_sums") {
      Lines out = stores;
      for (int i : stores)
        if (kernel_line(e, i + 1) && std::regex_search(code_of(e.source[i + 1].text), barrier))
          out.push_back(i + 1);
      return out;
    }
    if (kind == "gather") return reads;
    const Lines calls = matching(e, all, warp_call);
    if (calls.empty()) return {};
    const bool after_gather = std::any_of(t.steps.begin(), t.steps.begin() + long(step),
                                          [](const TraceStep& s) { return s.kind == "gather"; });
    return {after_gather ? calls.back() : calls.front()};
  }
  const bool across_warps = std::any_of(t.steps.begin(), t.steps.end(),
                                        [](const TraceStep& s) { return s.kind == "warp_sums"; });
  Lines calls = matching(e, all, across_warps ? block_call : warp_call);
  // The cluster's leader sums the blocks' sums (`block_sums[lane]`): not this block's sum.
  std::erase_if(calls,
                [&](int i) { return std::find(reads.begin(), reads.end(), i) != reads.end(); });
  if (calls.empty() && !across_warps) calls = matching(e, all, block_call);
  if (calls.empty()) return {};
  return {calls.front()};
}

// A load step: the phase's own lines, else the line that reads the elements while it counts
// (the predicate labs: "count") or maps them (the divergence lab: "map"); *phase follows.
Lines load_lines(const CodeEntry& e, const Trace& t, std::string* phase) {
  static const std::regex reads(R"(\belement\s*\(|\bx\[)"), guarded(R"(\bif \(i < n\))");
  for (const char* mark : {"load", "count", "map"}) {
    const std::string p = mark_phase(e.variant, mark);
    Lines lines = with_phase(e, p);
    if (std::string_view(mark) != "load") lines = matching(e, lines, reads);
    if (lines.empty()) continue;
    *phase = p;
    // The unroll lab reads a whole tile unchecked and a ragged one element by element.
    if (t.variant == "unroll_pragma") {
      const std::uint64_t tile = std::uint64_t(t.block_size) * kernels::lab::kUnrollTrip;
      const bool whole = (std::uint64_t(t.block_index) + 1) * tile <= t.size;
      std::erase_if(lines, [&](int i) {
        return std::regex_search(code_of(e.source[i].text), guarded) == whole;
      });
    }
    return lines;
  }
  // row_per_block reads its row inside block_range_sum: one line that loads and sums.
  static const std::regex loads_and_sums(R"(\bblock_range_sum\b)");
  return matching(e, kernel_lines(e), loads_and_sums);
}

// The cluster kernel (kernels/modern_cluster.cu) hands on one sum per cluster of 8 blocks, from
// the leader; the others return after cluster.sync(). "" where the block does hand on its sum.
constexpr unsigned kClusterBlocks = 8;

std::string not_handed_on(const Trace& t) {
  if (t.variant != "cluster_single_pass" || t.block_index % kClusterBlocks == 0) return "";
  return "block " + std::to_string(t.block_index) +
         " is not its cluster's leader: it returned after cluster.sync()";
}

// The epoch pass hands on at its one epoch_hand_on call, except float32 blocks: inside
// block_window_hand_on (the line that also sums the block).
Lines epoch_atomic_lines(const CodeEntry& e, const Trace& t, const Lines& write_lines) {
  static const std::regex block_hand_on(R"(\bblock_window_hand_on\b)");
  const bool across_warps = std::any_of(t.steps.begin(), t.steps.end(),
                                        [](const TraceStep& s) { return s.kind == "warp_sums"; });
  if (t.type != DType::Float32 || !across_warps) return write_lines;
  const Lines block = matching(e, kernel_lines(e), block_hand_on);
  return block.empty() ? write_lines : block;
}

// The single passes hand on their sum by type (`if constexpr`): int32 to the counted word,
// float32 to the exponent windows; one cluster alone holds the total and writes it directly.
Lines atomic_lines(const CodeEntry& e, const Trace& t, const Lines& write_lines) {
  static const std::regex counted(R"(\bhand_on_counted\b)"), windows(R"(\bhand_on_windows\b)"),
      direct(R"(\*result\s*=)");
  if (t.variant == "cluster_single_pass" && t.grid <= kClusterBlocks)
    return matching(e, write_lines, direct);
  if (t.variant == "epoch_pass") return epoch_atomic_lines(e, t, write_lines);
  return matching(e, write_lines, t.type == DType::Int32 ? counted : windows);
}

}  // namespace

std::string_view mark_kind_of(std::string_view k) {
  static const std::map<std::string_view, std::string_view> kMarks{
      {"load", "load"},           {"tree", "tree"},           {"skipped", "tree"},
      {"last_warp", "last warp"}, {"write_partial", "write"}, {"atomic", "write"},
      {"cluster", "cluster"},     {"shuffle", "block sum"},   {"warp_reduce", "block sum"},
      {"warp_sums", "block sum"}, {"gather", "block sum"},    {"map", "map"},
      {"path_a", "map"},          {"path_b", "map"},          {"select", "map"},
      {"vote", "count"},          {"ballot", "count"},        {"epoch", "epoch"}};
  const auto it = kMarks.find(k);
  return it == kMarks.end() ? std::string_view() : it->second;
}

const std::vector<std::string>& kinds_without_source() {
  static const std::vector<std::string> kinds;
  return kinds;
}

StepLines step_lines(const CodeEntry& e, const Trace& t, std::size_t step) {
  StepLines r;
  if (step >= t.steps.size()) {
    r.reason = "no step " + std::to_string(step + 1);
    return r;
  }
  const TraceStep& s = t.steps[step];
  const std::string kernel = t.label.empty() ? t.variant : t.label;
  if (e.variant == nullptr || e.variant->id != t.variant) {
    r.reason = "the code shown is not " + kernel + "'s";
    return r;
  }
  if (e.source.empty()) {
    r.reason = "no source of " + kernel + " in this build";
    return r;
  }
  const std::string_view mark = mark_kind_of(s.kind);
  if (mark.empty()) {
    r.reason = "no source rule for a '" + s.kind + "' step";
    return r;
  }
  r.phase = mark_phase(e.variant, std::string(mark));
  Lines lines;
  if (s.kind == "shuffle" || s.kind == "warp_reduce" || s.kind == "warp_sums" ||
      s.kind == "gather") {
    lines = warp_lines(e, t, step);
  } else if (s.kind == "load") {
    lines = load_lines(e, t, &r.phase);
    // A load into shared memory ends at its barrier (the unroll lab's tree loops).
    static const std::regex barrier(R"(^__syncthreads\s*\(\s*\)\s*;$)");
    if (s.barrier && !lines.empty() && kernel_line(e, lines.back() + 1) &&
        std::regex_search(code_of(e.source[lines.back() + 1].text), barrier))
      lines.push_back(lines.back() + 1);
  } else if (s.kind == "atomic") {
    if (const std::string why = not_handed_on(t); !why.empty()) {
      r.reason = why;
      return r;
    }
    lines = atomic_lines(e, t, with_phase(e, r.phase));
  } else {
    lines = with_phase(e, r.phase);
    if (s.kind == "tree" || s.kind == "skipped") lines = tree_lines(e, lines, s.stride);
  }
  if (lines.empty()) {
    r.reason = "no line of " + kernel + " is marked for its '" + s.kind + "' step";
    return r;
  }
  r.lines = with_continuations(e, std::move(lines));
  return r;
}

}  // namespace rl::code
