// A point's launch as the kernels library takes it (kernels/launch.h): the catalog's kernel for
// its variant and its shape; no buffers, no stream. Private to the engine: the CUDA backend and
// the line-count pass (counters/line_count_pass.h) launch the same point the same way.
#pragma once

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/spec.h"
#include "kernels/launch.h"

namespace rl {

// Throws rl::Error for a variant the catalog does not have.
inline kernels::LaunchArgs launch_args_for(const PointSpec& p) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  if (!v) throw Error("unknown variant " + p.variant);
  kernels::LaunchArgs a;
  a.kernel = v->kernel;
  a.type = p.type;
  a.workspace = p.workspace;
  a.block_size = p.block_size;
  a.unroll = p.unroll;
  a.n = p.size;
  // The rows and columns kernels' matrix (rows * cols == n); 0 x 0 for the others.
  a.rows = p.rows;
  a.cols = p.cols;
  return a;
}

}  // namespace rl
