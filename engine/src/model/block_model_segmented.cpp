// Host models of the rows and columns variants (block_model.h model_reduce_segmented): one sum
// per row or column, int32 exact, float32 in a warp's order, and the double reference the
// verification compares with.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {

namespace {

constexpr unsigned kLanes = 32;
// Columns are walked a strip of this many at a time, row after row, so the input is read in
// order and the per-column accumulators stay small (a strip x 32 lanes).
constexpr std::uint64_t kStrip = 4096;

const VariantInfo& segmented_variant(const PointSpec& p, const InputData& input) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  if (v == nullptr || !v->is_segmented())
    throw Error("host model: " + p.variant + " does not sum rows or columns [" + p.label() + "]");
  if (p.rows == 0 || p.cols == 0 || p.rows * p.cols != p.size)
    throw Error("host model: the point has no matrix shape of " + std::to_string(p.size) +
                " elements [" + p.label() + "]");
  if (input.type != p.type || input.size() != p.size)
    throw Error("host model: the input does not match the point [" + p.label() + "]");
  return *v;
}

float lanes_total(std::array<float, kLanes> lanes) {
  for (unsigned offset = kLanes / 2; offset > 0; offset >>= 1)
    for (unsigned i = 0; i < offset; ++i) lanes[i] += lanes[i + offset];
  return lanes[0];
}

// Row r of x (rows x cols) summed into Acc by add(acc, lane, value).
template <typename T, typename Acc, typename Add>
void each_row(const T* x, std::uint64_t rows, std::uint64_t cols, std::vector<Acc>& acc, Add add) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const T* row = x + r * cols;
    for (std::uint64_t k = 0; k < cols; ++k) add(acc[r], unsigned(k % kLanes), row[k]);
  }
}

// Column c of x summed into acc[c], element k of it (row k) in order.
template <typename T, typename Acc, typename Add>
void each_column(const T* x, std::uint64_t rows, std::uint64_t cols, std::vector<Acc>& acc,
                 Add add) {
  for (std::uint64_t c0 = 0; c0 < cols; c0 += kStrip) {
    const std::uint64_t c1 = std::min(cols, c0 + kStrip);
    for (std::uint64_t r = 0; r < rows; ++r) {
      const T* row = x + r * cols;
      for (std::uint64_t c = c0; c < c1; ++c) add(acc[c], unsigned(r % kLanes), row[c]);
    }
  }
}

template <typename T, typename Acc, typename Add>
void each_segment(const PointSpec& p, bool columns, const T* x, std::vector<Acc>& acc, Add add) {
  acc.assign(columns ? p.cols : p.rows, Acc{});
  if (columns)
    each_column(x, p.rows, p.cols, acc, add);
  else
    each_row(x, p.rows, p.cols, acc, add);
}

}  // namespace

std::optional<ReductionOutput> model_reduce_segmented(const PointSpec& p, const InputData& input) {
  const VariantInfo* found = find_variant_by_id(p.variant);
  if (found == nullptr || !found->is_segmented()) return std::nullopt;
  const VariantInfo& v = segmented_variant(p, input);
  const bool columns = v.reduces == Reduces::Columns;
  ReductionOutput out;
  out.type = p.type;
  if (p.type == DType::Int32) {
    each_segment(p, columns, input.i32.data(), out.partials_i64,
                 [](std::int64_t& a, unsigned, std::int32_t x) { a += x; });
  } else {
    std::vector<std::array<float, kLanes>> lanes;
    each_segment(p, columns, input.f32.data(), lanes,
                 [](std::array<float, kLanes>& a, unsigned lane, float x) { a[lane] += x; });
    out.partials_f32.resize(lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) out.partials_f32[i] = lanes_total(lanes[i]);
  }
  total_from_segments(out);
  return out;
}

std::vector<double> exact_segment_sums(const PointSpec& p, const InputData& input) {
  const bool columns = segmented_variant(p, input).reduces == Reduces::Columns;
  std::vector<double> sums;
  auto add = [](double& a, unsigned, auto x) { a += double(x); };
  if (p.type == DType::Int32)
    each_segment(p, columns, input.i32.data(), sums, add);
  else
    each_segment(p, columns, input.f32.data(), sums, add);
  return sums;
}

}  // namespace rl
