// CUPTI's PC sampling (cupti_pcsampling.h) for the line-sample pass: continuous collection with
// start/stop control, so only the launches the caller wraps are sampled (not its setup), and the
// samples of every wrapped launch add up per program counter.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "counters/cupti_api.h"
#include "engine/session/line_samples.h"

namespace rl {

struct PcSamplingBuffer;

class PcSampler {
 public:
  // Enables PC sampling on CUDA device `device`'s primary context (made current), sampling
  // every 2^period_log2 cycles. Throws CountersUnavailable when CUPTI or its PC sampling is
  // missing or refused.
  PcSampler(int device, int period_log2);
  ~PcSampler();  // disables sampling
  PcSampler(const PcSampler&) = delete;
  PcSampler& operator=(const PcSampler&) = delete;

  // For each repeat: setup() (not sampled), then launch() sampled (it must wait for its
  // kernels); repeats until `min_samples` were taken or `max_launches` launches ran. The
  // samples per function, in the order first seen, each tagged with `role`.
  struct Taken {
    std::vector<SampledFunction> functions;
    int launches = 0;
    std::uint64_t dropped = 0;
    std::uint64_t non_user = 0;  // samples CUPTI counted in kernels it gives no PCs for
  };
  Taken sample(const std::string& role, const std::function<void()>& setup,
               const std::function<void()>& launch, std::uint64_t min_samples, int max_launches,
               const std::string& context);

 private:
  void configure();
  void drain(std::vector<SampledFunction>& into, const std::string& role, std::uint64_t& dropped,
             const std::string& context);

  const CuptiApi& api_;
  CUcontext ctx_ = nullptr;
  int period_log2_ = 0;
  bool enabled_ = false;
  std::uint64_t non_user_ = 0;
  std::vector<std::uint32_t> reason_index_;
  std::vector<std::string> reason_name_;  // short names, "" for reasons not kept
  std::unique_ptr<PcSamplingBuffer> config_buffer_, read_buffer_;
};

}  // namespace rl
