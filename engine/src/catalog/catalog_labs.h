// The labs of the classic posts (divergence, block-wide predicates, #pragma unroll) are listed
// in catalog_labs.cpp.
#pragma once

#include <vector>

#include "engine/catalog/catalog.h"

namespace rl {
void append_lab_variants(std::vector<VariantInfo>& out);
}  // namespace rl
