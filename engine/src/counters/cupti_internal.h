// Pieces shared by the CUPTI profiler's files (cupti_profiler.cpp, cupti_ranges.cpp); not for
// use outside them.
#pragma once

#include <string>

#include "counters/cupti_api.h"

namespace rl::cupti_detail {

// Makes CUDA device `device`'s primary context current on this thread and returns it (the
// driver API reached through the runtime: static cudart, libcuda not linked). Throws rl::Error
// or CountersUnavailable.
CUcontext current_context(int device);

// A CUPTI parameter struct: zeroed, with its size set (what every CUPTI call checks).
template <typename P>
P params(std::size_t struct_size) {
  P p{};
  p.structSize = struct_size;
  return p;
}

// The range profiler enabled on a context for one range, disabled on scope exit.
class EnabledProfiler {
 public:
  EnabledProfiler(const CuptiApi& api, CUcontext ctx, const std::string& context) : api_(api) {
    auto p =
        params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    p.ctx = ctx;
    cupti_check(api_, api_.RangeEnable(&p), "cuptiRangeProfilerEnable", context);
    obj_ = p.pRangeProfilerObject;
  }
  ~EnabledProfiler() {
    auto p =
        params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = obj_;
    api_.RangeDisable(&p);
  }
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
  CUpti_RangeProfiler_Object* get() const { return obj_; }

 private:
  const CuptiApi& api_;
  CUpti_RangeProfiler_Object* obj_ = nullptr;
};

}  // namespace rl::cupti_detail
