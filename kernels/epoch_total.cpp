// The host's reading of a launch's total: from args.result, or the epoch pass's scratch
// (kernels/epoch_total.h, launch.h read_total).
#include "kernels/epoch_total.h"

#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace rl::kernels {
namespace {

const unsigned char* latest_total(const unsigned char* scratch) {
  unsigned long long word = 0;
  std::memcpy(&word, scratch + kEpochWordOffset, sizeof word);
  const auto epoch = static_cast<unsigned>(word >> 32);
  return scratch + kEpochTotals + kEpochTotalStride * ((epoch - 1u) & 1u);
}

long long word(const unsigned char* total, int k) {
  long long w = 0;
  std::memcpy(&w, total + 8 * k, sizeof w);
  return w;
}

}  // namespace

long long epoch_total_int32(const unsigned char* scratch) {
  return word(latest_total(scratch), kEpochInt32Word);
}

float epoch_total_float32(const unsigned char* scratch) {
  const unsigned char* total = latest_total(scratch);
  const auto special = static_cast<unsigned long long>(word(total, kEpochWindows));
  const unsigned nan = special & 0xffffu, pinf = (special >> 16) & 0xffffu,
                 ninf = (special >> 32) & 0xffffu;
  if (nan || (pinf && ninf)) return std::numeric_limits<float>::quiet_NaN();
  if (pinf) return std::numeric_limits<float>::infinity();
  if (ninf) return -std::numeric_limits<float>::infinity();
  // A window may hold up to 2^19 warp sums below 2^38 each, more than a double holds exactly,
  // and windows of opposite signs may cancel. So the reader first writes the total in base 256
  // (window k + 1 is 2^8 times window k): each window's bits above its 8 are carried into the
  // next, leaving every window but the top one in [0, 256); a negative total is negated and
  // carried again. Then every window is a nonnegative digit, exact as a double, and adding them
  // from the lowest up loses at most the last bits of a double, never a cancellation.
  long long w[kEpochWindows];
  for (int k = 0; k < kEpochWindows; ++k) w[k] = word(total, k);
  auto carry = [&w] {
    for (int k = 0; k + 1 < kEpochWindows; ++k) {
      w[k + 1] += w[k] >> 8;  // arithmetic: floor, so w[k] keeps 0..255
      w[k] &= 0xff;
    }
  };
  carry();
  const bool negative = w[kEpochWindows - 1] < 0;
  if (negative) {
    for (long long& d : w) d = -d;
    carry();
  }
  double v = 0;
  for (int k = 0; k < kEpochWindows; ++k) v += std::ldexp(static_cast<double>(w[k]), 8 * k - 149);
  return static_cast<float>(negative ? -v : v);
}

cudaError_t read_total(const LaunchArgs& a, const LaunchPlan& p, void* host) {
  const bool i32 = a.type == DType::Int32;
  if (!p.total_in_scratch) {
    const cudaError_t err =
        cudaMemcpyAsync(host, a.result, accum_size(a.type), cudaMemcpyDeviceToHost, a.stream);
    return err != cudaSuccess ? err : cudaStreamSynchronize(a.stream);
  }
  if (a.scratch == nullptr || p.scratch_bytes < kEpochScratchBytes) return cudaErrorInvalidValue;
  unsigned char copy[kEpochScratchBytes];
  cudaError_t err = cudaMemcpyAsync(copy, a.scratch, sizeof copy, cudaMemcpyDeviceToHost, a.stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(a.stream);
  if (err != cudaSuccess) return err;
  if (i32) {
    const long long total = epoch_total_int32(copy);
    std::memcpy(host, &total, sizeof total);
  } else {
    const float total = epoch_total_float32(copy);
    std::memcpy(host, &total, sizeof total);
  }
  return cudaSuccess;
}

}  // namespace rl::kernels
