// What each variant takes from a spec's axes and what `all` stands for (spec.cpp), shared by the
// spec's checks (spec_validate.cpp) and its expansion into points (spec_expand.cpp). Private to
// the experiment folder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/experiment/spec.h"

namespace rl::spec_detail {

// Byte counts that cannot wrap: a result past 2^64 stays at the maximum, which no memory holds.
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

std::string join_ints(const std::vector<int>& v);  // "1, 2, 4"

// The unroll factors a variant runs at, given the request, ascending: a variant's lowest
// factor is its own speed-up baseline (results.h), so it runs first and every row has one.
// Where none is asked for, the variant's default at rows of `cols` elements (0: no shape) and
// blocks of `block` threads (0: not known).
std::vector<int> unrolls_for(const VariantRef& ref, const ExperimentSpec& s, std::uint64_t cols = 0,
                             int block = 0);
// The requested workspaces and block sizes the variant takes.
std::vector<Workspace> workspaces_for(const VariantInfo& v, const ExperimentSpec& s);
std::vector<int> blocks_for(const VariantInfo& v, const ExperimentSpec& s);

// Each axis on which the variant takes none of the requested values: "takes X, not Y".
std::vector<std::string> axis_reasons(const VariantRef& r, const ExperimentSpec& s);

bool names_all(const ExperimentSpec& s);  // whether spec.variants holds `all`
// s with `all` replaced by what the spec's axes alone take (expand() has no device).
ExperimentSpec all_resolved(const ExperimentSpec& spec);

// The message for a spec that expands to n points when at most max may run (spec_expand.cpp).
std::string too_many_points(std::uint64_t n, std::uint64_t max);

}  // namespace rl::spec_detail
