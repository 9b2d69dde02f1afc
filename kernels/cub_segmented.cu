// CubSegmentedRows: the library's answer to "a sum per row", cub::DeviceSegmentedReduce::Sum
// with one segment per row, run through the same harness as the hand-written row kernels.
// Segment r begins at r * cols and ends where row r + 1 begins: a transform of a counting
// iterator gives the offsets, so no offsets array is built. The output is the Accum type, and
// CUB accumulates in its output type (the initial value is a zero of it): int32 rows are summed
// in long long. CUB picks its own block size and tuning; its temp storage is the plan's scratch.
// One block reduces each segment in a fixed order, so float sums repeat bit for bit.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include "dispatch.cuh"
#include "segmented_shape.h"

namespace rl::kernels::segmented {
namespace {

struct RowStart {
  long long cols;
  __host__ __device__ long long operator()(long long r) const { return r * cols; }
};

// Called with temp == nullptr it only sizes the storage.
cudaError_t segmented_sum(const LaunchArgs& a, void* temp, std::size_t* temp_bytes) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    const auto begins = thrust::make_transform_iterator(thrust::make_counting_iterator(0LL),
                                                        RowStart{static_cast<long long>(a.cols)});
    return cub::DeviceSegmentedReduce::Sum(
        temp, *temp_bytes, static_cast<const T*>(a.input), static_cast<A*>(a.partials),
        static_cast<long long>(a.rows), begins, begins + 1, a.stream);
  });
}

}  // namespace

cudaError_t plan_cub_rows(const LaunchArgs& a, LaunchPlan* plan) {
  std::size_t temp_bytes = 0;
  if (const cudaError_t e = segmented_sum(a, nullptr, &temp_bytes); e != cudaSuccess) return e;
  // grid 0: CUB's own, not reported by the library.
  *plan = segment_sums_plan(0, a.rows, a.n, temp_bytes);
  return cudaSuccess;
}

cudaError_t launch_cub_rows(const LaunchArgs& a, const LaunchPlan& p) {
  if (p.scratch_bytes > 0 && a.scratch == nullptr) return cudaErrorInvalidValue;
  std::size_t temp_bytes = p.scratch_bytes;
  return segmented_sum(a, a.scratch, &temp_bytes);
}

}  // namespace rl::kernels::segmented
