// The rows and columns kernels on the GPU, through kernels/launch.h directly: every kernel x
// type x a few block sizes and unroll factors x awkward shapes (one element, one row, one
// column, widths that are not a multiple of 4, a few very long rows), every row's (column's)
// sum against the host: int32 exactly, float32 within a bound from the segment's length and
// sum of |x|, and the same bits on a second launch.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/cuda_raii.h"
#include "gpu_fixture.h"
#include "kernels/accepts.h"
#include "kernels/launch.h"

namespace rl {
namespace {

using kernels::LaunchArgs;
using kernels::LaunchPlan;

struct Shape {
  std::size_t rows, cols;
};

struct SegmentedCase {
  KernelId kernel;
  DType type;
  int block;
  int unroll;
  Shape shape;
};

std::string kernel_name(KernelId k) {
  switch (k) {
    case KernelId::RowPerThread:
      return "RowPerThread";
    case KernelId::RowPerWarp:
      return "RowPerWarp";
    case KernelId::RowPerBlock:
      return "RowPerBlock";
    case KernelId::RowSplit:
      return "RowSplit";
    case KernelId::ColumnStrided:
      return "ColumnStrided";
    case KernelId::ColumnTiled:
      return "ColumnTiled";
    default:
      return "CubSegmentedRows";
  }
}

std::string case_name(const ::testing::TestParamInfo<SegmentedCase>& info) {
  const SegmentedCase& c = info.param;
  return kernel_name(c.kernel) + (c.type == DType::Int32 ? "_i32" : "_f32") + "_B" +
         std::to_string(c.block) + "_U" + std::to_string(c.unroll) + "_" +
         std::to_string(c.shape.rows) + "x" + std::to_string(c.shape.cols);
}

std::vector<SegmentedCase> all_cases() {
  // Short rows of a few lanes each (row_per_thread), misaligned rows, narrow columns tiled down the
  // rows, a few very long rows split into thousands of pieces, widths a multiple of 4 (columns
  // read in vectors) over a few rows and a few hundred, other widths a column a thread.
  const std::vector<Shape> shapes{{1, 1},      {1, 100003},  {70001, 1},          {33, 1025},
                                  {4097, 3},   {1000, 1000}, {3, (1u << 20) + 7}, {4099, 37},
                                  {20011, 32}, {2053, 250},  {2, 1u << 22},       {300, 4096},
                                  {9, 1028}};
  std::vector<SegmentedCase> out;
  for (KernelId k :
       {KernelId::RowPerThread, KernelId::RowPerWarp, KernelId::RowPerBlock, KernelId::RowSplit,
        KernelId::ColumnStrided, KernelId::ColumnTiled, KernelId::CubSegmentedRows}) {
    const kernels::KernelAccepts a = kernels::accepts(k);
    // The smallest block with one load in flight, a middle one with the most, the largest with
    // two; CUB's only shape is its own (block size 0, unroll 1).
    std::vector<std::pair<int, int>> configs;
    if (a.block_sizes.empty()) {
      configs = {{0, 1}};
    } else {
      configs = {{a.block_sizes.min, 1}, {256, a.unroll_factors.max}, {a.block_sizes.max, 2}};
    }
    for (DType t : {DType::Int32, DType::Float32})
      for (const auto& [b, u] : configs)
        for (const Shape& s : shapes) out.push_back({k, t, b, u, s});
  }
  return out;
}

// The matrix of a shape and type, made once per binary: int32 values in [0, 255] (the project's
// input contract), float32 in [0, 1), from a hash of the element's index.
const std::vector<std::uint32_t>& matrix(std::size_t n, DType t) {
  static std::map<std::pair<std::size_t, int>, std::vector<std::uint32_t>> cache;
  auto key = std::make_pair(n, static_cast<int>(t));
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::vector<std::uint32_t> words(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    if (t == DType::Int32) {
      words[i] = static_cast<std::uint32_t>(h % 256);
    } else {
      const float f = static_cast<float>(h & 0xffffff) * 0x1p-24f;
      std::memcpy(&words[i], &f, sizeof f);
    }
  }
  return cache.emplace(key, std::move(words)).first->second;
}

// The exact sum (int64, or double for float32, all values >= 0 so also the sum of |x|) of each
// row or column.
std::vector<double> host_sums(const std::vector<std::uint32_t>& m, Shape s, DType t, bool columns) {
  std::vector<double> sums(columns ? s.cols : s.rows, 0.0);
  for (std::size_t r = 0; r < s.rows; ++r)
    for (std::size_t c = 0; c < s.cols; ++c) {
      const std::uint32_t w = m[r * s.cols + c];
      float f = 0;
      std::memcpy(&f, &w, sizeof f);
      sums[columns ? c : r] += t == DType::Int32 ? double(w) : double(f);
    }
  return sums;
}

// Float error bound of a sum of `len` values >= 0 whose exact sum is `exact`: each rounding is
// at most 2^-24 of a partial sum <= the total, and they add up like a random walk (4 sigma), plus
// a few dozen for the fixed-depth trees.
double float_tolerance(std::size_t len, double exact) {
  return exact * 0x1p-24 * (4.0 * std::sqrt(double(len)) + 32.0) + 1e-6;
}

class SegmentedOnGpu : public ::testing::TestWithParam<SegmentedCase> {
 protected:
  void SetUp() override {
    RL_REQUIRE_GPU();
    ASSERT_EQ(cudaSetDevice(testing::GpuEnvironment::get().backend->device().index), cudaSuccess);
  }
};

TEST_P(SegmentedOnGpu, EverySegmentSumsRightAndRepeatsBitForBit) {
  const SegmentedCase& c = GetParam();
  const bool columns = kernels::reduces_columns(c.kernel);
  const std::size_t n = c.shape.rows * c.shape.cols;
  LaunchArgs a;
  a.kernel = c.kernel;
  a.type = c.type;
  a.workspace = Workspace::Registers;
  a.block_size = c.block;
  a.unroll = c.unroll;
  a.n = n;
  a.rows = c.shape.rows;
  a.cols = c.shape.cols;
  LaunchPlan plan;
  ASSERT_EQ(kernels::plan_launch(a, &plan), cudaSuccess);
  const std::size_t count = columns ? c.shape.cols : c.shape.rows;
  ASSERT_EQ(plan.partial_count, count);
  EXPECT_FALSE(plan.needs_finish);
  EXPECT_FALSE(plan.has_first_kernel);
  ASSERT_GE(plan.input_capacity, n);

  const std::vector<std::uint32_t>& m = matrix(n, c.type);
  const std::size_t accum = kernels::accum_size(c.type);
  DeviceBuffer input(plan.input_capacity * 4, "segmented input");
  DeviceBuffer partials(count * accum, "segment sums");
  DeviceBuffer scratch(plan.scratch_bytes, "segmented scratch");
  Stream stream;
  ASSERT_EQ(cudaMemcpy(input.get(), m.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  // Zeroed once, as the engine does: the launches keep their tickets at 0 between them.
  if (plan.scratch_bytes) ASSERT_EQ(cudaMemset(scratch.get(), 0, plan.scratch_bytes), cudaSuccess);
  // A copy from pageable memory may return before its DMA lands, and the non-blocking stream
  // does not wait for the legacy stream: without this the kernel can read a freed buffer's
  // stale values.
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  a.input = input.get();
  a.partials = partials.get();
  a.scratch = scratch.get();
  a.stream = stream.get();

  // Two launches (the second finds the tickets the first left); every entry is poisoned first,
  // so one left unwritten shows.
  std::vector<unsigned char> got[2];
  for (auto& g : got) {
    ASSERT_EQ(cudaMemsetAsync(partials.get(), 0xff, count * accum, stream.get()), cudaSuccess);
    ASSERT_EQ(kernels::launch_first(a, plan), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    g.resize(count * accum);
    ASSERT_EQ(cudaMemcpy(g.data(), partials.get(), g.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  }
  EXPECT_EQ(got[0], got[1]) << "the second launch gave other bits";

  const std::vector<double> want = host_sums(m, c.shape, c.type, columns);
  const std::size_t len = columns ? c.shape.rows : c.shape.cols;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < count; ++i) {
    bool ok = false;
    double value = 0;
    if (c.type == DType::Int32) {
      long long v = 0;
      std::memcpy(&v, got[0].data() + i * 8, 8);
      ok = v == static_cast<long long>(want[i]);
      value = double(v);
    } else {
      float v = 0;
      std::memcpy(&v, got[0].data() + i * 4, 4);
      ok = std::abs(double(v) - want[i]) <= float_tolerance(len, want[i]);
      value = v;
    }
    if (!ok && ++wrong <= 3)
      ADD_FAILURE() << (columns ? "column " : "row ") << i << ": got " << value << ", want "
                    << want[i];
  }
  EXPECT_EQ(wrong, 0u) << "of " << count << (columns ? " columns" : " rows");
}

INSTANTIATE_TEST_SUITE_P(AllKernels, SegmentedOnGpu, ::testing::ValuesIn(all_cases()), case_name);

// Large matrices of widths that are not a multiple of 4, which ColumnTiled reads 4 (16387 x
// 4097, 3 rows past the view) or 2 (32771 x 2050, 1 row past it) rows as one and folds in the
// same launch: 2^26 elements and more (segmented_shape.h's column_view), too large for every
// kernel at every configuration above.
std::vector<SegmentedCase> large_odd_cases() {
  std::vector<SegmentedCase> out;
  for (DType t : {DType::Int32, DType::Float32})
    for (const Shape& s : {Shape{16387, 4097}, Shape{32771, 2050}})
      out.push_back({KernelId::ColumnTiled, t, 256, 8, s});
  return out;
}
INSTANTIATE_TEST_SUITE_P(LargeOddWidths, SegmentedOnGpu, ::testing::ValuesIn(large_odd_cases()),
                         case_name);

// The launch refuses what would read or write out of bounds: a matrix not 16-byte aligned (the
// row kernels' vector loads), a missing partials buffer or scratch, and a plan of another shape.
TEST(SegmentedLaunchOnGpu, RefusesWhatItCannotLaunchSafely) {
  RL_REQUIRE_GPU();
  ASSERT_EQ(cudaSetDevice(testing::GpuEnvironment::get().backend->device().index), cudaSuccess);
  DeviceBuffer input(4 * 4096 + 16, "input");
  DeviceBuffer partials(8 * 4096, "partials");
  DeviceBuffer scratch(1 << 20, "scratch");
  LaunchArgs a;
  a.kernel = KernelId::RowSplit;
  a.workspace = Workspace::Registers;
  a.block_size = 128;
  a.unroll = 1;
  a.rows = 2;
  a.cols = 2048;
  a.n = 4096;
  LaunchPlan plan;
  ASSERT_EQ(kernels::plan_launch(a, &plan), cudaSuccess);
  ASSERT_GT(plan.scratch_bytes, 0u);
  a.input = input.get();
  a.partials = partials.get();
  a.scratch = scratch.get();
  ASSERT_EQ(kernels::launch_first(a, plan), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  LaunchArgs misaligned = a;
  misaligned.input = static_cast<char*>(input.get()) + 4;
  EXPECT_EQ(kernels::launch_first(misaligned, plan), cudaErrorInvalidValue);
  LaunchArgs no_partials = a;
  no_partials.partials = nullptr;
  EXPECT_EQ(kernels::launch_first(no_partials, plan), cudaErrorInvalidValue);
  LaunchArgs no_scratch = a;
  no_scratch.scratch = nullptr;
  EXPECT_EQ(kernels::launch_first(no_scratch, plan), cudaErrorInvalidValue);
  LaunchArgs other_shape = a;  // twice the rows: more rows' finish words than the plan's scratch
  other_shape.rows = 4;
  other_shape.n = 8192;
  EXPECT_EQ(kernels::launch_first(other_shape, plan), cudaErrorInvalidValue);
}

// CUB sizes its temp storage for the shape, and its rows come back in order.
TEST(SegmentedLaunchOnGpu, CubAsksForItsTempStorage) {
  RL_REQUIRE_GPU();
  ASSERT_EQ(cudaSetDevice(testing::GpuEnvironment::get().backend->device().index), cudaSuccess);
  LaunchArgs a;
  a.kernel = KernelId::CubSegmentedRows;
  a.workspace = Workspace::Registers;
  a.block_size = 0;
  a.rows = 1000;
  a.cols = 1000;
  a.n = 1000000;
  LaunchPlan plan;
  ASSERT_EQ(kernels::plan_launch(a, &plan), cudaSuccess);
  EXPECT_GT(plan.scratch_bytes, 0u);
  EXPECT_EQ(plan.partial_count, 1000u);
}

}  // namespace
}  // namespace rl
