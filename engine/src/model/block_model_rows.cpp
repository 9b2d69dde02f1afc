// The block model of row_per_warp and row_per_block (block_model_rows.h): range_thread_sum's
// partition of a row and its order of additions, the shuffle tree and the block's warp sums.
#include "engine/model/block_model_rows.h"

#include <array>
#include <string>

#include "engine/core/error.h"
#include "model/warp_tree.h"

namespace rl::rows {

namespace {

using model::block_tree;
using model::kWarp;
using model::wrap_add;

// The 16-byte cut of [begin, end): body vectors [vbegin, vend) (indices of 4-element vectors);
// head [begin, 4 * vbegin), tail [4 * vend, end). A range that never reaches a boundary is all
// head (vbegin == vend, the tail empty).
struct Cut {
  std::uint64_t head_end = 0, vbegin = 0, vend = 0, tail_begin = 0;
};
Cut cut_of(std::uint64_t begin, std::uint64_t end) {
  Cut c;
  const std::uint64_t body_begin = (begin + 3) & ~std::uint64_t(3);
  if (body_begin >= end) {
    c.head_end = c.tail_begin = end;
    return c;
  }
  c.head_end = body_begin;
  c.vbegin = body_begin / 4;
  c.vend = end / 4;
  c.tail_begin = c.vend * 4;
  return c;
}

template <typename T, typename A>
A share(const T* x, std::uint64_t begin, std::uint64_t end, unsigned t, unsigned n, unsigned u) {
  const Cut c = cut_of(begin, end);
  A acc = A(0);
  for (std::uint64_t i = begin + t; i < c.head_end; i += n) acc += A(x[i]);
  if (c.vbegin == c.vend && c.head_end == end) return acc;
  auto vec = [&](std::uint64_t v) {
    const T* p = x + 4 * v;
    return wrap_add(wrap_add(p[0], p[1]), wrap_add(p[2], p[3]));
  };
  std::uint64_t v = c.vbegin + t;
  for (; v + std::uint64_t(u - 1) * n < c.vend; v += std::uint64_t(u) * n) {
    T s = vec(v);
    for (unsigned k = 1; k < u; ++k) s = wrap_add(s, vec(v + std::uint64_t(k) * n));
    acc += A(s);
  }
  for (; v < c.vend; v += n) acc += A(vec(v));
  for (std::uint64_t i = c.tail_begin + t; i < end; i += n) acc += A(x[i]);
  return acc;
}

std::uint64_t strided_count(std::uint64_t from, std::uint64_t to, std::uint64_t step) {
  return from < to ? (to - from + step - 1) / step : 0;
}

// A warp per row is block_sum_shfl's first level alone.
template <typename T, typename A>
A warp_row_sum(const T* x, std::uint64_t begin, std::uint64_t end, unsigned u) {
  return block_tree<A>(kWarp, [&](unsigned t) { return share<T, A>(x, begin, end, t, kWarp, u); });
}

// kernels/modern_common.cuh block_sum_shfl over the block's shares.
template <typename T, typename A>
A block_row_sum(const T* x, std::uint64_t begin, std::uint64_t end, unsigned block, unsigned u) {
  return block_tree<A>(block, [&](unsigned t) { return share<T, A>(x, begin, end, t, block, u); });
}

template <typename T, typename A>
std::vector<double> sums_of(KernelId k, const T* x, std::uint64_t cols, unsigned block, unsigned u,
                            const RowPass& p) {
  std::vector<double> out;
  for (std::uint64_t r = p.first_row; r < p.first_row + p.row_count; ++r) {
    const std::uint64_t begin = r * cols, end = begin + cols;
    out.push_back(double(k == KernelId::RowPerWarp ? warp_row_sum<T, A>(x, begin, end, u)
                                                   : block_row_sum<T, A>(x, begin, end, block, u)));
  }
  return out;
}

void check_kernel(KernelId k) {
  if (k != KernelId::RowPerWarp && k != KernelId::RowPerBlock)
    throw Error("the rows block model covers row_per_warp and row_per_block only");
}

}  // namespace

std::uint64_t thread_reads(std::uint64_t begin, std::uint64_t end, unsigned t, unsigned n) {
  const Cut c = cut_of(begin, end);
  std::uint64_t reads = strided_count(begin + t, c.head_end, n);
  if (c.vbegin < c.vend) reads += 4 * strided_count(c.vbegin + t, c.vend, n);
  if (c.tail_begin < end) reads += strided_count(c.tail_begin + t, end, n);
  return reads;
}

std::int64_t thread_share(const std::int32_t* x, std::uint64_t begin, std::uint64_t end, unsigned t,
                          unsigned n, unsigned u) {
  return share<std::int32_t, std::int64_t>(x, begin, end, t, n, u);
}
float thread_share(const float* x, std::uint64_t begin, std::uint64_t end, unsigned t, unsigned n,
                   unsigned u) {
  return share<float, float>(x, begin, end, t, n, u);
}

std::uint64_t row_passes(KernelId k, std::uint64_t rows, unsigned block_size) {
  check_kernel(k);
  if (k == KernelId::RowPerBlock) return rows;
  const std::uint64_t warps = block_size / kWarp;
  return (rows + warps - 1) / warps;
}

RowPass row_pass(KernelId k, std::uint64_t rows, unsigned block_size, std::uint64_t pass) {
  const std::uint64_t passes = row_passes(k, rows, block_size);
  if (pass >= passes)
    throw Error("pass " + std::to_string(pass) + ": the " + std::to_string(rows) + " rows make " +
                std::to_string(passes) + " block passes");
  if (k == KernelId::RowPerBlock) return {pass, 1};
  const std::uint64_t warps = block_size / kWarp, first = pass * warps;
  return {first, std::min(warps, rows - first)};
}

std::vector<double> pass_row_sums(KernelId k, const InputData& x, std::uint64_t rows,
                                  std::uint64_t cols, unsigned block_size, unsigned unroll,
                                  std::uint64_t pass) {
  const RowPass p = row_pass(k, rows, block_size, pass);
  if (x.size() < (p.first_row + p.row_count) * cols)
    throw Error("the input holds " + std::to_string(x.size()) +
                " elements, fewer than the pass's rows need");
  if (x.type == DType::Int32)
    return sums_of<std::int32_t, std::int64_t>(k, x.i32.data(), cols, block_size, unroll, p);
  return sums_of<float, float>(k, x.f32.data(), cols, block_size, unroll, p);
}

}  // namespace rl::rows
