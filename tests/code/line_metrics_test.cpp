// Per-line metrics without a GPU: every sm_90 kernel of the catalog has a line
// table, and samples and executed-instruction counts placed at the offsets of an entry's own
// instructions land on those SASS lines and, through the table, on the source lines they came
// from. The samples and counts here are made up by the test at chosen offsets (no GPU run);
// tests/gpu/line_samples_gpu_test.cpp and line_counts_gpu_test.cpp check real ones.
#include <gtest/gtest.h>

#include <regex>

#include "engine/catalog/catalog.h"
#include "engine/code/line_diff.h"
#include "engine/code/line_metrics.h"

namespace rl::code {
namespace {

#define RL_REQUIRE_SM90_LINES(e)                                                       \
  if (!sass_unavailable_reason().empty()) GTEST_SKIP() << sass_unavailable_reason();   \
  if (!lines_unavailable_reason().empty()) GTEST_SKIP() << lines_unavailable_reason(); \
  if (!(e).sass.count("sm_90")) GTEST_SKIP() << "this build has no sm_90 SASS: " << (e).missing

// The offsets of the SASS lines of `e` (sm_90) whose text contains `opcode`, with their lines.
std::vector<std::pair<std::uint64_t, std::size_t>> offsets_of(const CodeEntry& e,
                                                              const std::string& opcode) {
  static const std::regex offset(R"(/\*([0-9a-f]{4,})\*/)");
  std::vector<std::pair<std::uint64_t, std::size_t>> out;
  const auto lines = split_lines(e.sass.at("sm_90"));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (lines[i].find(opcode) != std::string::npos && std::regex_search(lines[i], m, offset))
      out.emplace_back(std::stoull(m[1].str(), nullptr, 16), i);
  }
  return out;
}

TEST(LineMetrics, EveryCatalogKernelHasASm90LineTable) {
  for (const VariantInfo& v : catalog()) {
    const CodeEntry e = find_code(CodeQuery{v.id});
    RL_REQUIRE_SM90_LINES(e);
    ASSERT_EQ(e.lines.count("sm_90"), 1u) << v.id;
    // Every sm_90 function of the entry has one (CUB's kernels name their architecture, so an
    // entry also lists the other architectures' functions, which have no sm_90 code).
    const auto& tables = e.lines.at("sm_90");
    EXPECT_FALSE(tables.empty()) << v.id;
    for (const auto& [f, table] : tables) {
      EXPECT_NE(std::find(e.mangled.begin(), e.mangled.end(), f), e.mangled.end()) << f;
      EXPECT_FALSE(table.empty()) << v.id << " " << f;
      EXPECT_NE(e.sass.at("sm_90").find("/*0000*/"), std::string::npos);
    }
  }
}

TEST(LineMetrics, SamplesAtTheBarrierLandOnItsSassAndSourceLines) {
  const CodeEntry e = find_code(CodeQuery{"reduceInterleaved", 1024});
  RL_REQUIRE_SM90_LINES(e);
  const auto bars = offsets_of(e, "BAR.SYNC");
  ASSERT_FALSE(bars.empty());
  PointLineSamples s;
  s.arch = "sm_90";
  SampledFunction f{"first_kernel", e.mangled.front(), {}};
  for (const auto& [offset, line] : bars)
    f.pcs.push_back({offset, {{"barrier", 90}, {"selected", 10}}});
  s.functions.push_back(f);
  s.functions.push_back({"finish", "_Z6finishv", {{0, {{"selected", 7}}}}});
  const LineMetrics m = line_metrics(e, s);
  EXPECT_EQ(m.kernel.total, 100 * bars.size());
  EXPECT_EQ(m.kernel.reason("barrier"), 90 * bars.size());
  EXPECT_EQ(m.other_functions, 7u);
  EXPECT_EQ(m.unplaced, 0u);
  for (const auto& [offset, line] : bars) {
    EXPECT_EQ(m.sass[line].total, 100u);
    EXPECT_EQ(m.sass[line].top_stall(), "barrier");
  }
  // The source lines that got them are the kernel's __syncthreads() lines.
  std::uint64_t on_sync = 0, placed = 0;
  for (std::size_t i = 0; i < e.source.size(); ++i) {
    placed += m.source[i].total;
    if (e.source[i].text.find("__syncthreads") != std::string::npos) on_sync += m.source[i].total;
  }
  EXPECT_EQ(placed + m.off_source, m.kernel.total);
  EXPECT_EQ(on_sync, placed);
  EXPECT_GT(on_sync, 0u);
  EXPECT_EQ(
      line_note(m.sass[bars.front().second], m.kernel.total).find("barrier") != std::string::npos,
      true);
}

TEST(LineMetrics, AnotherCheckoutsAnonymousNamespaceStillMatches) {
  // nvcc names an anonymous namespace after its file's path: the GPU machine's build that took a
  // session's samples names the same kernel with another hash.
  const CodeEntry e = find_code(CodeQuery{"reduceInterleaved", 1024});
  RL_REQUIRE_SM90_LINES(e);
  std::string other = e.mangled.front();
  const std::size_t at = other.find("_GLOBAL__N__");
  ASSERT_NE(at, std::string::npos) << other;
  other[at + 12] = other[at + 12] == 'a' ? 'b' : 'a';  // one hex digit of the hash
  ASSERT_NE(other, e.mangled.front());
  const auto bars = offsets_of(e, "BAR.SYNC");
  ASSERT_FALSE(bars.empty());
  PointLineSamples s;
  s.arch = "sm_90";
  s.functions.push_back({"first_kernel", other, {{bars.front().first, {{"barrier", 9}}}}});
  const LineMetrics m = line_metrics(e, s);
  EXPECT_EQ(m.kernel.total, 9u);
  EXPECT_EQ(m.other_functions, 0u);
  EXPECT_EQ(m.sass[bars.front().second].total, 9u);
}

TEST(LineMetrics, OffsetsTheBuildLacksAreCountedNotDropped) {
  const CodeEntry e = find_code(CodeQuery{"reduceInterleaved", 1024});
  RL_REQUIRE_SM90_LINES(e);
  PointLineSamples s;
  s.arch = "sm_90";
  s.functions.push_back({"first_kernel", e.mangled.front(), {{0xfffff0, {{"barrier", 5}}}}});
  const LineMetrics m = line_metrics(e, s);
  EXPECT_EQ(m.unplaced, 5u);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.back().find("different build"), std::string::npos);
}

TEST(LineMetrics, SamplesOfAnotherArchitectureSaySo) {
  const CodeEntry e = find_code(CodeQuery{"reduceInterleaved", 1024});
  PointLineSamples s;
  s.arch = "sm_61";
  s.functions.push_back({"first_kernel", "x", {{0, {{"barrier", 5}}}}});
  const LineMetrics m = line_metrics(e, s);
  EXPECT_TRUE(m.empty());
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.front().find("sm_61"), std::string::npos);
}

// The offsets and SASS lines of every instruction of the entry's first function (sm_90): its lines
// up to the next "// Function : " header of another function.
std::vector<std::pair<std::uint64_t, std::size_t>> first_function(const CodeEntry& e) {
  static const std::regex offset(R"(/\*([0-9a-f]{4,})\*/)");
  std::vector<std::pair<std::uint64_t, std::size_t>> out;
  const auto lines = split_lines(e.sass.at("sm_90"));
  bool first = true;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("// Function : ", 0) == 0)
      first = !e.functions.empty() && lines[i].substr(14) == e.functions.front();
    std::smatch m;
    if (first && std::regex_search(lines[i], m, offset))
      out.emplace_back(std::stoull(m[1].str(), nullptr, 16), i);
  }
  return out;
}

SampledPc counted_pc(std::uint64_t offset, std::uint64_t inst, std::uint64_t thread) {
  SampledPc pc{offset, {}};
  pc.inst_executed = inst;
  pc.thread_inst_executed = thread;
  return pc;
}

TEST(LineMetrics, ALinesThreadEfficiencyIsItsSumsNotAnAverage) {
  ReasonSamples line;
  line.add(counted_pc(0x10, 30, 30 * 32));  // 100% of the threads
  line.add(counted_pc(0x20, 10, 0));        // none: the average would say 50%
  EXPECT_EQ(line.inst_executed, 40u);
  EXPECT_EQ(line.thread_inst_executed, 960u);
  EXPECT_DOUBLE_EQ(line.thread_efficiency(), 0.75);
  ReasonSamples sum;
  sum.add(line);
  sum.add(line);
  EXPECT_EQ(sum.inst_executed, 80u);
  EXPECT_DOUBLE_EQ(sum.thread_efficiency(), 0.75);
  EXPECT_EQ(sum.total, 0u);
  EXPECT_EQ(count_note(line), "40 inst, 75% threads");
  EXPECT_EQ(count_note(ReasonSamples{}), "");
}

TEST(LineMetrics, CountsReadShort) {
  EXPECT_EQ(short_count(0), "");
  EXPECT_EQ(short_count(812), "812");
  EXPECT_EQ(short_count(1234), "1.2K");
  EXPECT_EQ(short_count(12345), "12.3K");
  EXPECT_EQ(short_count(999499), "999K");
  EXPECT_EQ(short_count(999500), "1.0M");
  EXPECT_EQ(short_count(1234567), "1.2M");
  EXPECT_EQ(short_count(412000000000ull), "412G");
}

TEST(LineMetrics, CountsLandOnEveryInstructionsSassAndSourceLines) {
  const CodeEntry e = find_code(CodeQuery{"reduceNeighbored", 256});
  RL_REQUIRE_SM90_LINES(e);
  const auto pcs = first_function(e);
  ASSERT_GT(pcs.size(), 10u);
  // Every instruction ran 10 times; the even ones with every thread, the odd ones with 4 of 32.
  PointLineSamples s;
  s.arch = "sm_90";
  s.counted_launches = 1;
  SampledFunction f{"first_kernel", e.mangled.front(), {}};
  for (std::size_t k = 0; k < pcs.size(); ++k)
    f.pcs.push_back(counted_pc(pcs[k].first, 10, k % 2 == 0 ? 320 : 40));
  s.functions.push_back(f);
  s.functions.push_back({"finish", "_Z6finishv", {counted_pc(0, 7, 7 * 32)}});
  const LineMetrics m = line_metrics(e, s);
  EXPECT_TRUE(m.counted);
  EXPECT_FALSE(m.sampled);
  EXPECT_FALSE(m.empty());
  EXPECT_EQ(m.kernel.total, 0u);
  EXPECT_EQ(m.kernel.inst_executed, 10 * pcs.size());
  EXPECT_EQ(m.other_functions_inst, 7u);
  EXPECT_EQ(m.unplaced_inst, 0u);
  for (std::size_t k = 0; k < pcs.size(); ++k) {
    const ReasonSamples& line = m.sass[pcs[k].second];
    EXPECT_EQ(line.inst_executed, 10u) << k;
    EXPECT_DOUBLE_EQ(line.thread_efficiency(), k % 2 == 0 ? 1.0 : 0.125) << k;
  }
  // On the source: every count placed once, each line's efficiency its own sums'.
  std::uint64_t inst = 0, thread = 0;
  for (const ReasonSamples& line : m.source) {
    inst += line.inst_executed;
    thread += line.thread_inst_executed;
    if (line.inst_executed == 0) continue;
    EXPECT_EQ(line.inst_executed % 10, 0u);
    EXPECT_GE(line.thread_efficiency(), 0.125);
    EXPECT_LE(line.thread_efficiency(), 1.0);
  }
  EXPECT_EQ(inst + m.off_source_inst, m.kernel.inst_executed);
  EXPECT_GT(inst, 0u);
  EXPECT_LE(thread, m.kernel.thread_inst_executed);
  // The finishing pass is named in a note, in executed instructions (there are no samples).
  bool said = false;
  for (const std::string& n : m.notes)
    said = said || n.find("7 warp instructions executed in other kernels") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(LineMetrics, CountsAtOffsetsTheBuildLacksAreCountedNotDropped) {
  const CodeEntry e = find_code(CodeQuery{"reduceInterleaved", 1024});
  RL_REQUIRE_SM90_LINES(e);
  PointLineSamples s;
  s.arch = "sm_90";
  s.counted_launches = 1;
  s.functions.push_back({"first_kernel", e.mangled.front(), {counted_pc(0xfffff0, 5, 160)}});
  const LineMetrics m = line_metrics(e, s);
  EXPECT_EQ(m.unplaced_inst, 5u);
  EXPECT_EQ(m.unplaced, 0u);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.back().find("5 warp instructions executed at offsets"), std::string::npos)
      << m.notes.back();
  EXPECT_NE(m.notes.back().find("the counts were taken with a different build"), std::string::npos);
}

TEST(LineMetrics, TheSampledPointOfASessionMatchesTheQuery) {
  Session session;
  auto add = [&](const char* variant, std::uint64_t n, bool samples) {
    PointResult r;
    r.point = PointSpec{variant, Workspace::Global, 1024, 1, n, DType::Int32};
    if (samples) r.line_samples = PointLineSamples{{{"whole", "f", {{0, {{"selected", 1}}}}}}};
    session.results.push_back(r);
  };
  add("interleaved", 1u << 20, true);
  add("interleaved", 1u << 24, true);
  add("interleaved", 1u << 26, false);
  add("neighbored", 1u << 28, true);
  const CodeQuery q = resolve_query(CodeQuery{"reduceInterleaved", 1024});
  const PointResult* p = sampled_point(session, q);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->point.size, 1u << 24);
  EXPECT_EQ(sampled_point(session, q, 1u << 20)->point.size, 1u << 20);
  EXPECT_EQ(sampled_point(session, q, 1u << 26), nullptr);
  EXPECT_EQ(sampled_point(session, resolve_query(CodeQuery{"reduceInterleaved", 256})), nullptr);
}

}  // namespace
}  // namespace rl::code
