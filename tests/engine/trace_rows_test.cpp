// The rows block model and traces of row_per_warp and row_per_block: every row's sum as the
// kernel adds it equals the host sum for awkward shapes, the trace writes the model's sums, and
// its masks show which lanes read a short row and a long one.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"
#include "engine/model/block_model_rows.h"
#include "engine/trace/trace.h"

namespace rl {
namespace {

constexpr std::uint32_t kFull = 0xffffffffu;

struct Shape {
  std::uint64_t rows, cols;
};
const Shape kAwkward[] = {{1, 1},  {3, 5},    {7, 31}, {5, 33},  {2, 1000},
                          {33, 7}, {1, 4097}, {65, 3}, {9, 130}, {4, 2}};

TraceRequest request(const char* id, int block, Shape s, DType type = DType::Int32,
                     unsigned block_index = 0, int unroll = 4) {
  TraceRequest r;
  r.variant = id;
  r.block_size = block;
  r.unroll = unroll;
  r.type = type;
  r.block_index = block_index;
  r.rows = s.rows;
  r.cols = s.cols;
  return r;
}

std::string where(const char* id, int block, int unroll, Shape s, DType type) {
  return std::string(id) + " B=" + std::to_string(block) + " U=" + std::to_string(unroll) + " " +
         std::to_string(s.rows) + "x" + std::to_string(s.cols) + " " + std::string(to_string(type));
}

const TraceStep& step_of(const Trace& t, const std::string& kind) {
  for (const TraceStep& s : t.steps)
    if (s.kind == kind) return s;
  ADD_FAILURE() << "no " << kind << " step";
  return t.steps.front();
}

TEST(RowsBlockModel, EveryRowSumEqualsTheHostSum) {
  int checked = 0;
  for (const char* id : {"row_per_warp", "row_per_block"}) {
    const KernelId k = find_variant_by_id(id)->kernel;
    for (int block : {32, 128, 1024})
      for (int unroll : {1, 4})
        for (DType type : {DType::Int32, DType::Float32})
          for (const Shape s : kAwkward) {
            const std::uint64_t n = s.rows * s.cols;
            const InputData x = make_input(n, type);
            PointSpec p{id, Workspace::Registers, block, unroll, n, type};
            p.rows = s.rows;
            p.cols = s.cols;
            const std::vector<double> want = exact_segment_sums(p, x);
            std::vector<double> got;
            const auto B = static_cast<unsigned>(block);
            for (std::uint64_t pass = 0; pass < rows::row_passes(k, s.rows, B); ++pass) {
              const auto sums = rows::pass_row_sums(k, x, s.rows, s.cols, B, unroll, pass);
              got.insert(got.end(), sums.begin(), sums.end());
            }
            ASSERT_EQ(got.size(), want.size()) << where(id, block, unroll, s, type);
            for (std::size_t r = 0; r < got.size(); ++r) {
              if (type == DType::Int32)
                ASSERT_EQ(got[r], want[r]) << where(id, block, unroll, s, type) << " row " << r;
              else
                ASSERT_NEAR(got[r], want[r], 1e-5 * (1 + std::abs(want[r])))
                    << where(id, block, unroll, s, type) << " row " << r;
            }
            ++checked;
          }
  }
  EXPECT_EQ(checked, 2 * 3 * 2 * 2 * 10);
}

TEST(RowsBlockModel, EachElementIsReadOnce) {
  for (std::uint64_t begin : {0u, 1u, 2u, 3u, 5u})
    for (std::uint64_t len : {0u, 1u, 3u, 4u, 7u, 31u, 32u, 129u, 1000u})
      for (unsigned n : {32u, 256u}) {
        std::uint64_t total = 0;
        for (unsigned t = 0; t < n; ++t) total += rows::thread_reads(begin, begin + len, t, n);
        EXPECT_EQ(total, len) << "begin " << begin << " len " << len << " threads " << n;
      }
}

TEST(TraceRows, WritesTheModelsSumsBitForBit) {
  for (const char* id : {"row_per_warp", "row_per_block"}) {
    const KernelId k = find_variant_by_id(id)->kernel;
    for (DType type : {DType::Int32, DType::Float32})
      for (const Shape s : {Shape{9, 130}, Shape{33, 7}, Shape{3, 4097}}) {
        const InputData x = make_input(s.rows * s.cols, type);
        const Trace first = make_trace(request(id, 128, s, type));
        const unsigned last = static_cast<unsigned>(first.grid - 1);
        for (unsigned b : {0u, last}) {
          const Trace t = make_trace(request(id, 128, s, type, b));
          const auto want = rows::pass_row_sums(k, x, s.rows, s.cols, 128, 4, b);
          ASSERT_EQ(t.row_sums.size(), want.size()) << where(id, 128, 4, s, type);
          for (std::size_t i = 0; i < want.size(); ++i)
            EXPECT_EQ(std::bit_cast<std::uint64_t>(t.row_sums[i]),
                      std::bit_cast<std::uint64_t>(want[i]))
                << where(id, 128, 4, s, type) << " block " << b << " row " << i;
          EXPECT_EQ(t.partial, want.front());
          EXPECT_EQ(t.rows, s.rows);
          EXPECT_EQ(t.size, s.rows * s.cols);
        }
        // Every element of the matrix is read once over the launch; row_per_block's warp 0 also
        // reads the 4 warp sums of each row from shared memory.
        const std::uint64_t shared_reads = k == KernelId::RowPerBlock ? 4 * s.rows : 0;
        EXPECT_EQ(first.launch_totals.loads, s.rows * s.cols + shared_reads)
            << where(id, 128, 4, s, type);
      }
  }
}

// A row of 10 elements: row 0 is two vectors (lanes 0, 1) and a tail of two (lanes 0, 1); row 1
// starts at element 10, a head of two, then two vectors. Lanes 2..31 read nothing.
TEST(TraceRows, ShortRowPerWarpLeavesLanesPastTheRowIdle) {
  const Trace t = make_trace(request("row_per_warp", 128, {3, 10}));
  ASSERT_EQ(t.warps(), 4u);
  EXPECT_EQ(t.grid, 1u);
  const TraceStep& load = step_of(t, "load");
  EXPECT_EQ(load.masks, (std::vector<std::uint32_t>{0x3u, 0x3u, 0x3u, 0u}));
  EXPECT_EQ(load.exited[3], kFull);  // the fourth warp has no row
  EXPECT_EQ(load.counters.loads, 30u);
  int shuffles = 0;
  for (const TraceStep& s : t.steps) {
    EXPECT_FALSE(s.barrier) << s.kind;
    if (s.kind != "shuffle") continue;
    ++shuffles;
    EXPECT_EQ(s.masks, (std::vector<std::uint32_t>{kFull, kFull, kFull, 0u}));
  }
  EXPECT_EQ(shuffles, 5);
  const TraceStep& write = t.steps.back();
  EXPECT_EQ(write.kind, "write_partial");
  EXPECT_EQ(write.masks, (std::vector<std::uint32_t>{1u, 1u, 1u, 0u}));
  EXPECT_EQ(t.block_totals.barriers, 0u);
}

TEST(TraceRows, LongRowPerWarpKeepsEveryLaneBusy) {
  const Trace t = make_trace(request("row_per_warp", 64, {5, 1000}, DType::Int32, 2));
  EXPECT_EQ(t.grid, 3u);
  EXPECT_EQ(t.first_row, 4u);
  const TraceStep& load = step_of(t, "load");
  // The last block holds one row: warp 1 has none.
  EXPECT_EQ(load.masks, (std::vector<std::uint32_t>{kFull, 0u}));
  EXPECT_EQ(load.counters.loads, 1000u);
  EXPECT_EQ(t.row_sums.size(), 1u);
}

TEST(TraceRows, RowPerBlockOneBarrierAndShortRowLanes) {
  // 40 elements, aligned: ten vectors for threads 0..9; every warp still runs its shuffles.
  const Trace t = make_trace(request("row_per_block", 128, {2, 40}));
  const TraceStep& load = step_of(t, "load");
  EXPECT_EQ(load.masks, (std::vector<std::uint32_t>{0x3ffu, 0u, 0u, 0u}));
  EXPECT_EQ(t.block_totals.barriers, 1u);
  EXPECT_EQ(step_of(t, "shuffle").masks, (std::vector<std::uint32_t>(4, kFull)));
  EXPECT_TRUE(step_of(t, "warp_sums").barrier);
  EXPECT_EQ(t.steps.back().masks, (std::vector<std::uint32_t>{1u, 0u, 0u, 0u}));

  const Trace wide = make_trace(request("row_per_block", 256, {2, 100000}));
  EXPECT_EQ(step_of(wide, "load").masks, (std::vector<std::uint32_t>(8, kFull)));
  EXPECT_EQ(wide.launch_totals.barriers, 2u);  // one per block, no grid-stride pass
}

// No factor asked for: the one a run of the shape and block uses (a block per row: U = 2 below
// 16 elements a thread).
TEST(TraceRows, TheDefaultFactorIsTheRunsAtTheShapeAndBlock) {
  TraceRequest r = request("row_per_block", 256, {2, 2048});
  r.unroll.reset();
  EXPECT_EQ(make_trace(r).unroll, 2);
  r.cols = 4096;
  EXPECT_EQ(make_trace(r).unroll, 4);
  r.block_size = 128;
  r.cols = 2048;
  EXPECT_EQ(make_trace(r).unroll, 4);
  r.unroll = 8;
  EXPECT_EQ(make_trace(r).unroll, 8);
}

TEST(TraceRows, ClearErrors) {
  auto message = [](const TraceRequest& r) {
    try {
      make_trace(r);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(request("row_per_warp", 128, {0, 0})).find("no shape"), std::string::npos);
  EXPECT_NE(message(request("row_per_block", 128, {4, 0})).find("no shape"), std::string::npos);
  TraceRequest sized = request("row_per_warp", 128, {4, 10});
  sized.size = 41;
  EXPECT_NE(message(sized).find("size 41"), std::string::npos);
  EXPECT_NE(message(request("row_per_warp", 128, {4, 10}, DType::Int32, 1)).find("block index 1"),
            std::string::npos);
  EXPECT_NE(message(request("row_per_warp", 48, {4, 10})).find("block size 48"), std::string::npos);
  EXPECT_NE(message(request("row_per_warp", 128, {4, 10}, DType::Int32, 0, 3)).find("unroll 3"),
            std::string::npos);
  TraceRequest whole = request("warp_shuffle", 128, {4, 10}, DType::Int32, 0, 1);
  EXPECT_NE(message(whole).find("only the rows and columns variants take a shape"),
            std::string::npos);
  EXPECT_NE(message(request("column_strided", 128, {4, 10})).find("no step-by-step trace"),
            std::string::npos);
}

}  // namespace
}  // namespace rl
