// A trace step's source lines (engine/code/step_source.h): every step of every traced variant
// lands on lines of its own kernel, or its kind is one the header lists as having no source.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/code/step_source.h"
#include "engine/trace/trace.h"

namespace rl::code {
namespace {

int block_for(const VariantInfo& v, int want) {
  return v.takes_block_size(want) ? want : v.block_sizes.front();
}

Trace trace_of(const std::string& variant, int block, DType type = DType::Int32) {
  TraceRequest r;
  r.variant = variant;
  const VariantInfo& v = *resolve_variant(variant)->variant;
  r.block_size = block_for(v, block);
  r.workspace = v.workspaces.front();
  r.type = type;
  if (v.is_segmented()) {  // a matrix variant's trace needs its shape: rows long and short
    r.rows = 5;
    r.cols = 1000;
  }
  return make_trace(r);
}

CodeEntry code_of(const Trace& t) {
  CodeQuery q;
  q.variant = t.variant;
  q.block_size = t.block_size;
  q.unroll = t.unroll;
  q.type = t.type;
  q.workspace = t.workspace;
  return find_code(q);
}

// The texts of a step's lines, trimmed, for readable expectations.
std::vector<std::string> texts(const CodeEntry& e, const StepLines& s) {
  std::vector<std::string> out;
  for (int i : s.lines) {
    const std::string& t = e.source[i].text;
    const std::size_t a = t.find_first_not_of(' ');
    out.push_back(a == std::string::npos ? "" : t.substr(a));
  }
  return out;
}

std::size_t first_step(const Trace& t, const std::string& kind, unsigned stride = 0) {
  for (std::size_t i = 0; i < t.steps.size(); ++i)
    if (t.steps[i].kind == kind && (stride == 0 || t.steps[i].stride == stride)) return i;
  ADD_FAILURE() << t.variant << " has no " << kind << " step of stride " << stride;
  return 0;
}

TEST(StepSource, EveryStepOfEveryTraceFindsItsKernelLinesOrSaysWhy) {
  int checked = 0;
  for (const VariantInfo& v : catalog()) {
    if (!has_trace(v)) continue;
    for (DType type : v.types) {
      const Trace t = trace_of(v.id, 256, type);
      const CodeEntry e = code_of(t);
      // The rows and columns kernels are not among the Code view's sources (engine/src/code's
      // kernel files): their steps have no lines to land on.
      if (v.is_segmented() && e.source.empty()) continue;
      for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const std::string what = v.id + " " + std::string(rl::to_string(type)) +
                                 " B=" + std::to_string(t.block_size) + " step " +
                                 std::to_string(i) + " (" + t.steps[i].kind + ")";
        const StepLines s = step_lines(e, t, i);
        ++checked;
        if (s.lines.empty()) {
          const auto& none = kinds_without_source();
          EXPECT_NE(std::find(none.begin(), none.end(), t.steps[i].kind), none.end())
              << what << ": " << s.reason;
          EXPECT_FALSE(s.reason.empty()) << what;
          continue;
        }
        EXPECT_TRUE(s.reason.empty()) << what;
        EXPECT_TRUE(std::is_sorted(s.lines.begin(), s.lines.end())) << what;
        for (int l : s.lines) {
          ASSERT_GE(l, 0) << what;
          ASSERT_LT(l, int(e.source.size())) << what;
          EXPECT_TRUE(e.source[l].in_kernel) << what << ": " << e.source[l].text;
        }
        // The step's phase is one of the variant's own (the Code view's phase column).
        EXPECT_NE(std::find(v.phases.begin(), v.phases.end(), s.phase), v.phases.end())
            << what << ": " << s.phase;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(StepSource, EveryBlockSizeFindsLinesForEveryStep) {
  for (const VariantInfo& v : catalog()) {
    if (!has_trace(v)) continue;
    for (int b : v.block_sizes) {
      const Trace t = trace_of(v.id, b);
      const CodeEntry e = code_of(t);
      if (v.is_segmented() && e.source.empty()) continue;  // not in the Code view's sources
      for (std::size_t i = 0; i < t.steps.size(); ++i)
        EXPECT_FALSE(step_lines(e, t, i).lines.empty())
            << v.id << " B=" << b << " step " << i << " (" << t.steps[i].kind
            << "): " << step_lines(e, t, i).reason;
    }
  }
}

TEST(StepSource, InterleavedTreeIsItsStrideLoopAndBarrier) {
  const Trace t = trace_of("reduceInterleaved", 256);
  const CodeEntry e = code_of(t);
  const StepLines s = step_lines(e, t, first_step(t, "tree"));
  EXPECT_EQ(texts(e, s),
            (std::vector<std::string>{
                "for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {",
                "if (tid < stride) ws[tid] += ws[tid + stride];", "__syncthreads();"}));
  EXPECT_EQ(s.phase.rfind("tree", 0), 0u) << s.phase;
  // reduceInterleaved has no load step (the tile is its workspace); reduceUnroll4 pre-reduces.
  // Load and write land on their own calls, not on the loop.
  const Trace u = trace_of("reduceUnroll4", 256);
  const CodeEntry ue = code_of(u);
  EXPECT_EQ(texts(ue, step_lines(ue, u, first_step(u, "load"))),
            (std::vector<std::string>{
                "T* ws = prepare_workspace<U, W>(input, n, detail::dynamic_smem<T>());"}));
  EXPECT_EQ(texts(ue, step_lines(ue, u, first_step(u, "write_partial"))),
            (std::vector<std::string>{"write_partial(ws, partials);"}));
}

TEST(StepSource, LabsReadTheirElementsWhereTheyMapOrCountThem) {
  const Trace d = trace_of("branch_divergent", 256);
  const CodeEntry de = code_of(d);
  const StepLines load = step_lines(de, d, first_step(d, "load"));
  EXPECT_EQ(texts(de, load),
            (std::vector<std::string>{"if (i < n) v = mapped<K>(x[i], threadIdx.x, knob, mode);"}));
  EXPECT_EQ(load.phase.rfind("map", 0), 0u) << load.phase;
  // any_full_scan: the load is the scan, the vote its one __syncthreads_or.
  const Trace a = trace_of("any_full_scan", 256);
  const CodeEntry ae = code_of(a);
  const std::vector<std::string> scan = texts(ae, step_lines(ae, a, first_step(a, "load")));
  ASSERT_FALSE(scan.empty());
  EXPECT_EQ(scan.back(),
            "hit |= lab::searched(element(x, n, base + std::size_t(t) * blockDim.x));");
  // The unroll lab: a whole tile takes the unchecked loop, not the tail's.
  const Trace p = trace_of("unroll_pragma", 256);
  const CodeEntry pe = code_of(p);
  EXPECT_EQ(texts(pe, step_lines(pe, p, first_step(p, "load"))),
            (std::vector<std::string>{
                "for (int j = 0; j < kTrip; ++j) sum += mine[std::size_t(j) * blockDim.x];"}));
}

TEST(StepSource, SinglePassesHandOnTheirSumWhereTheKernelDoes) {
  const Trace i = trace_of("single_pass", 256);
  const CodeEntry ie = code_of(i);
  const std::vector<std::string> counted = texts(ie, step_lines(ie, i, first_step(i, "atomic")));
  ASSERT_FALSE(counted.empty());
  EXPECT_NE(counted.back().find("hand_on_counted("), std::string::npos) << counted.back();
  const Trace f = trace_of("single_pass", 256, DType::Float32);
  const CodeEntry fe = code_of(f);
  const std::vector<std::string> windows = texts(fe, step_lines(fe, f, first_step(f, "atomic")));
  ASSERT_FALSE(windows.empty());
  EXPECT_NE(windows.front().find("hand_on_windows("), std::string::npos) << windows.front();
  // One cluster holds the total: its leader writes it, no atomic; a block that is not the
  // leader has returned, and says so.
  const Trace c = trace_of("cluster_single_pass", 256);
  const CodeEntry ce = code_of(c);
  EXPECT_EQ(texts(ce, step_lines(ce, c, first_step(c, "atomic"))),
            (std::vector<std::string>{"if (lane == 0) *result = sum;"}));
  TraceRequest r{"cluster_single_pass", 256, std::nullopt, Workspace::Registers, 0,
                 DType::Int32,          3};
  r.size = 8 * 256 * 4;
  const Trace other = make_trace(r);
  const StepLines none = step_lines(ce, other, first_step(other, "atomic"));
  EXPECT_TRUE(none.lines.empty());
  EXPECT_NE(none.reason.find("not its cluster's leader"), std::string::npos) << none.reason;
}

TEST(StepSource, CompleteUnrollStepsLandOnTheirStride) {
  const Trace t = trace_of("complete_unroll_warp_sync", 256);
  const CodeEntry e = code_of(t);
  EXPECT_EQ(
      texts(e, step_lines(e, t, first_step(t, "tree", 128))),
      (std::vector<std::string>{"if (blockDim.x >= 256 && tid < 128) ws[tid] += ws[tid + 128];",
                                "__syncthreads();"}));
  // A false step of the blockDim.x chain still tests its `if` and waits at its barrier.
  EXPECT_EQ(
      texts(e, step_lines(e, t, first_step(t, "skipped", 512))),
      (std::vector<std::string>{"if (blockDim.x >= 1024 && tid < 512) ws[tid] += ws[tid + 512];",
                                "__syncthreads();"}));
  EXPECT_EQ(texts(e, step_lines(e, t, first_step(t, "last_warp"))),
            (std::vector<std::string>{"last_warp<Volatile>(ws, tid);"}));
  // The template form: the `if constexpr` block of that stride.
  const Trace c = trace_of("complete_unroll_sync", 256);
  const CodeEntry ce = code_of(c);
  EXPECT_EQ(
      texts(ce, step_lines(ce, c, first_step(c, "tree", 64))),
      (std::vector<std::string>{"if constexpr (B >= 128) {",
                                "if (tid < 64) ws[tid] += ws[tid + 64];", "__syncthreads();"}));
}

TEST(StepSource, WarpLevelStepsLandOnTheReductionTheyRun) {
  const Trace t = trace_of("reduce_add_sync", 256);
  const CodeEntry e = code_of(t);
  ASSERT_EQ(texts(e, step_lines(e, t, first_step(t, "warp_reduce"))),
            (std::vector<std::string>{"int v = warp_sum_redux(load_pre_reduced<U>(x, n));"}));
  EXPECT_EQ(texts(e, step_lines(e, t, first_step(t, "warp_sums"))),
            (std::vector<std::string>{"if (lane == 0) warp_sums[warp] = v;", "__syncthreads();"}));
  const std::size_t gather = first_step(t, "gather");
  const std::vector<std::string> second{
      "if (warp == 0) v = warp_sum_redux(lane < nwarps ? warp_sums[lane] : 0);"};
  EXPECT_EQ(texts(e, step_lines(e, t, gather)), second);
  EXPECT_EQ(texts(e, step_lines(e, t, gather + 1)), second);  // warp 0's reduction
  // warp_shuffle hides the whole block sum in block_sum_shfl: every step is that call.
  const Trace w = trace_of("warp_shuffle", 256);
  const CodeEntry we = code_of(w);
  for (const std::string kind : {"shuffle", "warp_sums", "gather"})
    EXPECT_EQ(texts(we, step_lines(we, w, first_step(w, kind))),
              (std::vector<std::string>{
                  "const T sum = block_sum_shfl(load_pre_reduced<U>(x, n), blockDim.x / kWarp);"}))
        << kind;
}

TEST(StepSource, NoLinesComeWithAReason) {
  const Trace t = trace_of("reduceInterleaved", 256);
  const CodeEntry other = code_of(trace_of("reduceNeighbored", 256));
  const StepLines wrong = step_lines(other, t, 0);
  EXPECT_TRUE(wrong.lines.empty());
  EXPECT_NE(wrong.reason.find("not reduceInterleaved"), std::string::npos) << wrong.reason;
  Trace odd = t;
  odd.steps[0].kind = "teleport";
  const StepLines unknown = step_lines(code_of(t), odd, 0);
  EXPECT_TRUE(unknown.lines.empty());
  EXPECT_NE(unknown.reason.find("teleport"), std::string::npos) << unknown.reason;
  EXPECT_TRUE(step_lines(code_of(t), t, t.steps.size()).lines.empty());
  EXPECT_TRUE(mark_kind_of("teleport").empty());
}

}  // namespace
}  // namespace rl::code
