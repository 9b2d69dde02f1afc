// A backend for tests without a GPU that faults like one: the host backend, except that the
// points where `faults` holds throw a CUDA illegal-address error from their first sample, and
// from then on every call throws it again (a sticky error) until recover() resets the "device".
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "engine/backend/backend.h"
#include "engine/core/error.h"

namespace rl::testing {

class FaultyHostBackend final : public Backend {
 public:
  static constexpr int kIllegalAddress = 700;  // cudaErrorIllegalAddress

  explicit FaultyHostBackend(std::function<bool(const PointSpec&)> faults,
                             bool recovery_fails = false)
      : host_(make_host_backend()), faults_(std::move(faults)), recovery_fails_(recovery_fails) {}

  int resets() const { return resets_; }

  const DeviceInfo& device() const override { return host_->device(); }
  bool is_gpu() const override { return false; }
  std::string unsupported_reason(const PointSpec& p) const override {
    return host_->unsupported_reason(p);
  }
  void prepare(const PointSpec& p, const InputData& input) override {
    sticky("prepare");
    point_ = p;
    host_->prepare(p, input);
  }
  unsigned grid() const override { return host_->grid(); }
  SampleTimes run_sample(bool cold_l2) override {
    if (faults_(point_)) broken_ = true;
    sticky("cudaEventSynchronize(stop_->get())");
    return host_->run_sample(cold_l2);
  }
  ReductionOutput read_output() override {
    sticky("read_output");
    return host_->read_output();
  }
  void release() override { host_->release(); }
  std::string recover() override {
    if (!broken_) return {};
    if (recovery_fails_) throw Error("resetting fake:0: cudaDeviceReset failed");
    broken_ = false;
    ++resets_;
    return "fake:0 was reset after cudaErrorIllegalAddress and its context created again";
  }

 private:
  void sticky(const std::string& call) const {
    if (broken_) throw CudaError(call, kIllegalAddress, "running " + point_.label());
  }
  std::unique_ptr<Backend> host_;
  std::function<bool(const PointSpec&)> faults_;
  bool recovery_fails_;
  bool broken_ = false;
  int resets_ = 0;
  PointSpec point_;
};

}  // namespace rl::testing
