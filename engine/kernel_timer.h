// Kernel-only GPU time from CUPTI activity records: the start and end timestamps the GPU writes
// for each kernel, the same quantity `ncu --metrics gpu__time_duration` reports. CUDA events
// cannot give it: an empty event pair alone reads 1.25 us on an H200, so event times carry a
// constant that dominates small reductions. The runner reports both.
// CUPTI is loaded with dlopen, so binaries still start where it is missing (no toolkit, no
// driver); then, or when tracing is refused (e.g. under ncu), create() says why and returns null.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rl {

class KernelTimer {
 public:
  static std::unique_ptr<KernelTimer> create(std::string* why);
  ~KernelTimer();
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

  // Drops every record so far; call before the work to time is launched.
  void begin();
  // After the work finished (stream synchronized): the summed durations, in ms, of the kernels
  // recorded since begin() whose name does not contain `skip` (the L2 flush); nullopt if none.
  std::optional<double> end_ms(std::string_view skip);

 private:
  KernelTimer() = default;
};

}  // namespace rl
