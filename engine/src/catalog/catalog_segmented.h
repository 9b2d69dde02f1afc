// Variants that sum every row or every column of a matrix (many reductions at once) are listed
// in catalog_segmented.cpp.
#pragma once

#include <vector>

#include "engine/catalog/catalog.h"

namespace rl {
void append_segmented_variants(std::vector<VariantInfo>& out);
}  // namespace rl
