// The Code view's data: every kernel instantiation the catalog can run has its source,
// SASS and PTX for sm_90 and every architecture built, and its resource usage.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "engine/catalog/catalog.h"
#include "engine/code/code_view.h"
#include "engine/core/error.h"

namespace rl::code {
namespace {

// Every (type, workspace, unroll, block) a variant takes; block 0 for variants that pick their own.
std::vector<CodeQuery> shapes_of(const VariantInfo& v) {
  std::vector<CodeQuery> out;
  const std::vector<int> blocks = v.block_sizes.empty() ? std::vector<int>{0} : v.block_sizes;
  for (DType t : v.types)
    for (Workspace w : v.workspaces)
      for (int u : v.unroll_factors)
        for (int b : blocks) out.push_back(CodeQuery{v.id, b, u, t, w});
  return out;
}

TEST(CodeView, EveryCatalogVariantHasItsSource) {
  const auto ids = variants_with_source();
  for (const VariantInfo& v : catalog()) {
    ASSERT_NE(std::find(ids.begin(), ids.end(), v.id), ids.end()) << v.id;
    const CodeEntry e = find_code(CodeQuery{v.id});
    const auto kernel_lines = std::count_if(e.source.begin(), e.source.end(),
                                            [](const SourceLine& l) { return l.in_kernel; });
    EXPECT_GT(kernel_lines, 3) << v.id;
    // Each phase-marked line names one of the variant's own phases.
    int marked = 0;
    for (const SourceLine& l : e.source) {
      if (l.phase.empty()) continue;
      ++marked;
      EXPECT_NE(std::find(v.phases.begin(), v.phases.end(), l.phase), v.phases.end())
          << v.id << ": " << l.phase;
    }
    EXPECT_GT(marked, 0) << v.id;
  }
}

TEST(CodeView, EveryCatalogInstantiationHasSassPtxAndResources) {
  if (!sass_unavailable_reason().empty()) GTEST_SKIP() << sass_unavailable_reason();
  const auto archs = sass_archs();
  ASSERT_NE(std::find(archs.begin(), archs.end(), "sm_90"), archs.end());
  int checked = 0;
  for (const VariantInfo& v : catalog()) {
    for (const CodeQuery& q : shapes_of(v)) {
      CodeEntry e = find_code(q);
      const std::string what =
          v.id + " B=" + std::to_string(q.block_size) + " U=" + std::to_string(q.unroll) + " " +
          std::string(rl::to_string(q.type)) + " " + std::string(rl::to_string(*q.workspace));
      ASSERT_TRUE(e.missing.empty()) << what << ": " << e.missing;
      for (const std::string& arch : archs) {
        EXPECT_GT(count_sass(e.sass[arch]).instructions, 0) << what << " " << arch;
        EXPECT_GT(e.resources[arch].registers, 0) << what << " " << arch;
      }
      EXPECT_NE(e.ptx.find("compute_90"), e.ptx.end()) << what;
      ++checked;
    }
  }
  EXPECT_GT(checked, 400);
}

TEST(CodeView, ClassicBarriersShowInSass) {
  if (!sass_unavailable_reason().empty()) GTEST_SKIP() << sass_unavailable_reason();
  // reduceInterleaved has a barrier in its tree loop; the warp-shuffle kernel shuffles.
  const CodeEntry tree = find_code(CodeQuery{"interleaved", 1024});
  EXPECT_GT(count_sass(tree.sass.at("sm_90")).barrier, 0);
  const CodeEntry shfl = find_code(CodeQuery{"warp_shuffle", 1024});
  EXPECT_GE(count_sass(shfl.sass.at("sm_90")).shuffle, 10);
}

TEST(CodeView, QueriesOutsideTheCatalogAreRejected) {
  EXPECT_THROW(find_code(CodeQuery{"nope"}), Error);
  EXPECT_THROW(find_code(CodeQuery{"interleaved", 256, 8}), Error);
  EXPECT_THROW(find_code(CodeQuery{"reduce_add_sync", 256, 1, DType::Float32}), Error);
  EXPECT_THROW(find_code(CodeQuery{"unroll_warp_sync", 32}), Error);
  const CodeEntry e = find_code(CodeQuery{"reduceUnroll4"});
  EXPECT_EQ(e.query.unroll, 4);
  EXPECT_EQ(e.query.block_size, 256);
}

TEST(CodeView, PreviousRungFollowsTheLadder) {
  auto prev = [](const char* id) {
    const VariantInfo* p = previous_rung(*find_variant_by_id(id));
    return p ? p->id : std::string("-");
  };
  EXPECT_EQ(prev("neighbored"), "-");
  EXPECT_EQ(prev("interleaved"), "neighbored_less");
  EXPECT_EQ(prev("unroll_warp_volatile"), "unroll");
  EXPECT_EQ(prev("unroll_warp_sync"), "unroll_warp_volatile");
  EXPECT_EQ(prev("complete_unroll_warp_volatile"), "unroll_warp_volatile");
}

TEST(CodeView, DiffFromThePreviousRungShowsTheChange) {
  const CodeEntry a = find_code(CodeQuery{"neighbored"});
  const CodeEntry b = find_code(CodeQuery{"neighbored_less"});
  const auto diff = source_diff(a, b);
  const DiffStats s = diff_stats(diff);
  EXPECT_GT(s.same, 5);
  EXPECT_GT(s.added, 0);
  EXPECT_GT(s.removed, 0);
  const std::string text = format_diff(diff, "neighbored", "neighbored_less");
  EXPECT_NE(text.find("+ "
                      "    const unsigned index = 2 * stride * tid;"),
            std::string::npos);
}

// Architectures read in the order of their number, never as strings ("sm_100" after "sm_90").
TEST(CodeView, ArchitecturesAreSortedByNumber) {
  std::vector<std::string> archs{"sm_100", "sm_90", "sm_75", "sm_90a", "sm_120", "sm_80"};
  std::sort(archs.begin(), archs.end(), arch_before);
  EXPECT_EQ(archs,
            (std::vector<std::string>{"sm_75", "sm_80", "sm_90", "sm_90a", "sm_100", "sm_120"}));
  const std::map<std::string, int> by_arch{{"sm_100", 1}, {"sm_75", 2}};
  EXPECT_EQ(archs_in_order(by_arch), (std::vector<std::string>{"sm_75", "sm_100"}));
  const std::vector<std::string> built = sass_archs();
  EXPECT_TRUE(std::is_sorted(built.begin(), built.end(), arch_before));
}

}  // namespace
}  // namespace rl::code
