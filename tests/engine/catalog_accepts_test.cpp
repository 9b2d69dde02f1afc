// The catalog states no shape of its own: every variant accepts exactly what its kernel's row of
// kernels/accepts.h says (block sizes, unroll factors, vector width, types, workspaces).
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"
#include "kernels/accepts.h"

namespace rl {
namespace {

TEST(CatalogAccepts, EveryVariantTakesExactlyItsKernelsRow) {
  for (const VariantInfo& v : catalog()) {
    SCOPED_TRACE(v.id);
    const kernels::KernelAccepts a = kernels::accepts(v.kernel);
    ASSERT_NE(a.types, 0u) << "no row in kernels/accepts.h";
    for (int x = 0; x <= 4096; ++x) {
      EXPECT_EQ(v.takes_block_size(x), a.block_sizes.contains(x)) << "block size " << x;
      EXPECT_EQ(v.takes_unroll(x), a.unroll_factors.contains(x)) << "unroll " << x;
    }
    EXPECT_EQ(v.vector_width, a.vector_width);
    for (DType t : {DType::Int32, DType::Float32}) {
      const bool listed = std::find(v.types.begin(), v.types.end(), t) != v.types.end();
      EXPECT_EQ(listed, a.takes_type(t)) << "type " << static_cast<int>(t);
    }
    for (Workspace w : {Workspace::Global, Workspace::Shared, Workspace::Registers})
      EXPECT_EQ(v.takes_workspace(w), a.takes_workspace(w)) << "workspace " << static_cast<int>(w);
    // The defaults the catalog picks are among the accepted values.
    EXPECT_TRUE(v.takes_unroll(v.default_unroll));
  }
}

TEST(CatalogAccepts, EveryTableRowHasAVariant) {
  for (const kernels::KernelAccepts& a : kernels::kKernelAccepts) {
    SCOPED_TRACE(static_cast<int>(a.kernel));
    // A user kernel's row stands for every kernel a user writes: its variants are registered
    // at run time (engine/user/user_kernel.h), none is in the built-in table.
    if (a.kernel == KernelId::User) continue;
    EXPECT_NE(find_variant_by_kernel(a.kernel), nullptr);
  }
}

// The values the catalog published before it read the table, as a check that moving them did
// not change what any variant takes.
TEST(CatalogAccepts, ShapesUnchangedByTheMove) {
  const auto blocks = [](std::string_view id) { return find_variant_by_id(id)->block_sizes; };
  const auto unrolls = [](std::string_view id) { return find_variant_by_id(id)->unroll_factors; };
  EXPECT_EQ(blocks("neighbored"), (std::vector<int>{32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(unrolls("interleaved"), (std::vector<int>{1}));
  EXPECT_EQ(unrolls("unroll"), (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_EQ(blocks("unroll_warp_volatile"), (std::vector<int>{64, 128, 256, 512, 1024}));
  EXPECT_EQ(blocks("complete_unroll_sync"), (std::vector<int>{64, 128, 256, 512, 1024}));
  EXPECT_EQ(blocks("warp_shuffle"), (std::vector<int>{32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(blocks("vectorized"), (std::vector<int>{128, 256, 512, 1024}));
  EXPECT_EQ(unrolls("single_pass"), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_TRUE(blocks("cub_device_reduce").empty());
  EXPECT_EQ(unrolls("cub_device_reduce"), (std::vector<int>{1}));
  EXPECT_EQ(blocks("cub_block_reduce_raking"), (std::vector<int>{64, 128, 256, 512, 1024}));
  EXPECT_EQ(find_variant_by_id("reduce_add_sync")->types, (std::vector<DType>{DType::Int32}));
  EXPECT_EQ(find_variant_by_id("neighbored")->workspaces,
            (std::vector<Workspace>{Workspace::Global, Workspace::Shared}));
  EXPECT_EQ(find_variant_by_id("cg_reduce")->workspaces,
            (std::vector<Workspace>{Workspace::Registers}));
}

}  // namespace
}  // namespace rl
