#include "engine/counters/line_count_pass.h"

#include <algorithm>
#include <vector>

#include "backend/launch_args.h"
#include "backend/user_module.h"
#include "core/cuda_raii.h"
#include "counters/sass_counter.h"
#include "device/cuda_occupancy.h"
#include "engine/core/error.h"
#include "engine/counters/counter_pass.h"
#include "engine/experiment/input_data.h"
#include "io/counters_io.h"
#include "kernels/launch.h"

namespace rl {

namespace {

// Host-to-device copies only (see the header): a cudaMemset of 8 KiB or more runs as a kernel
// and leaves the SASS metrics with nothing to report.
void upload(void* device, const void* host, std::size_t bytes, cudaStream_t s,
            const std::string& what) {
  if (bytes == 0) return;
  RL_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, s), what);
}

void upload_zeros(void* device, std::size_t bytes, cudaStream_t s, const std::string& what) {
  const std::vector<char> zeros(bytes, 0);
  upload(device, zeros.data(), bytes, s, what);
}

// The buffers of one point's launch, filled without running anything on the GPU.
struct StepBuffers {
  DeviceBuffer input, partials, result, scratch;
};

// in: the point's input, for the first kernel; none for the finishing pass, which reads the
// partials only.
StepBuffers upload_point(const kernels::LaunchPlan& plan, const PointSpec& p, const InputData* in,
                         kernels::LaunchArgs& args, cudaStream_t s, const std::string& ctx) {
  StepBuffers b;
  const std::size_t elem = dtype_size(p.type);
  const std::size_t accum = kernels::accum_size(p.type);
  if (in) {
    b.input.allocate(plan.input_capacity * elem, "input for " + ctx);
    upload(b.input.get(), in->data(), p.size * elem, s, "uploading the input, " + ctx);
    // The zero padding up to a whole number of tiles (the in-place tree reads it).
    upload_zeros(static_cast<char*>(b.input.get()) + p.size * elem,
                 (plan.input_capacity - p.size) * elem, s, "zeroing the padding, " + ctx);
  }
  const std::size_t partial_bytes = std::max<std::size_t>(plan.partial_count, 1) * accum;
  b.partials.allocate(partial_bytes, "partials for " + ctx);
  upload_zeros(b.partials.get(), partial_bytes, s, "zeroing the partials, " + ctx);
  b.result.allocate(8, "result for " + ctx);
  b.scratch.allocate(plan.scratch_bytes, "scratch for " + ctx);
  upload_zeros(b.scratch.get(), plan.scratch_bytes, s, "zeroing the scratch, " + ctx);
  args.input = b.input.get();
  args.partials = b.partials.get();
  args.result = b.result.get();
  args.scratch = b.scratch.get();
  RL_CUDA_CHECK(cudaStreamSynchronize(s), "uploading, " + ctx);
  return b;
}

std::string arch_of(int device) {
  int major = 0, minor = 0;
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                "compute capability of cuda:" + std::to_string(device));
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
                "compute capability of cuda:" + std::to_string(device));
  return "sm_" + std::to_string(major * 10 + minor);
}

}  // namespace

CountedStep count_launch_step(int device, const PointSpec& p, const InputData& input, int step) {
  CountedStep out;
  const std::string ctx = p.label() + ", launch step " + std::to_string(step);
  kernels::LaunchArgs args = launch_args_for(p);
  RL_CUDA_CHECK(cudaSetDevice(device), ctx);
  attach_user_kernel(args, p, device);
  kernels::LaunchPlan plan;
  RL_CUDA_CHECK(kernels::plan_launch(args, &plan), "planning " + ctx);
  out.steps = plan.needs_finish ? 2 : 1;
  if (step < 0 || step >= out.steps)
    throw Error(ctx + ": the point has " + std::to_string(out.steps) + " launch step(s)");
  out.arch = arch_of(device);
  Stream stream;
  args.stream = stream.get();
  if (step == 0 && input.size() != p.size)
    throw Error(ctx + ": the input holds " + std::to_string(input.size()) + " elements");
  const StepBuffers buffers =
      upload_point(plan, p, step == 0 ? &input : nullptr, args, stream.get(), ctx);
  std::uint32_t scratch_launches = 0;  // the epoch pass's count on the scratch just zeroed
  args.epoch = &scratch_launches;
  const std::string role = counter_role(step, out.steps);
  auto launch_step = [&](cudaStream_t s) {
    kernels::LaunchArgs a = args;
    a.stream = s;
    return step == 0 ? kernels::launch_first(a, plan) : kernels::launch_finish(a, plan);
  };
  try {
    SassCounter counter(device);
    SassCounter::Counted c =
        counter.count([&](const std::string&) { return role; }, [] {},
                      [&] {
                        RL_CUDA_CHECK(launch_step(stream.get()), "counting " + ctx);
                        RL_CUDA_CHECK(cudaStreamSynchronize(stream.get()), "counting " + ctx);
                      },
                      ctx);
    out.functions = std::move(c.functions);
    out.dropped = c.dropped;
  } catch (const CountersUnavailable& e) {
    out.note = std::string("no line counts: ") + e.what();
    return out;
  }
  // After the count (a capture launches nothing, but nothing may come before the counted
  // launch): how many kernels the step starts, for a step the SASS metrics cannot count whole.
  try {
    out.kernels_in_step =
        step == 0 && args.user_kernel
            ? 1  // a user kernel's step is its one launch
            : int(captured_occupancy(launch_step, stream.get(), device, role, ctx).size());
  } catch (const std::exception& e) {  // the counts stand; only the kernel count is unknown
    out.note = std::string("how many kernels the step starts is unknown: ") + e.what();
  }
  const std::string sep = out.note.empty() ? "" : "; ";
  if (out.functions.empty())
    out.note += sep + "CUPTI returned no executed instructions for " + ctx;
  else if (out.kernels_in_step > int(out.functions.size()))
    out.note += sep + role + " starts " + std::to_string(out.kernels_in_step) +
                " kernels; CUPTI's SASS metrics count the first a process launches, so " +
                std::to_string(out.kernels_in_step - int(out.functions.size())) + " of them (" +
                role + "_2 on) are not counted";
  if (out.dropped > 0)
    out.note += std::string(out.note.empty() ? "" : "; ") + std::to_string(out.dropped) +
                " SASS records dropped by CUPTI";
  return out;
}

void merge_counted_step(PointLineSamples& into, const CountedStep& step) {
  if (!step.functions.empty()) {
    if (into.arch.empty()) into.arch = step.arch;
    into.counted_launches = 1;
    add_line_counts(into.functions, step.functions);
  }
  if (!step.note.empty()) into.count_note += (into.count_note.empty() ? "" : "; ") + step.note;
}

void add_line_counts(std::vector<SampledFunction>& into,
                     const std::vector<SampledFunction>& counted) {
  for (const SampledFunction& c : counted) {
    auto f = std::find_if(into.begin(), into.end(), [&](const SampledFunction& s) {
      return s.function == c.function && s.role == c.role;
    });
    if (f == into.end()) f = into.insert(into.end(), SampledFunction{c.role, c.function, {}});
    for (const SampledPc& pc : c.pcs) {
      auto at = std::find_if(f->pcs.begin(), f->pcs.end(),
                             [&](const SampledPc& s) { return s.offset == pc.offset; });
      if (at == f->pcs.end()) at = f->pcs.insert(f->pcs.end(), SampledPc{pc.offset, {}});
      at->inst_executed += pc.inst_executed;
      at->thread_inst_executed += pc.thread_inst_executed;
    }
    std::stable_sort(f->pcs.begin(), f->pcs.end(),
                     [](const SampledPc& a, const SampledPc& b) { return a.offset < b.offset; });
  }
}

std::string counted_step_to_json(const CountedStep& s) {
  PointLineSamples ls;
  ls.functions = s.functions;
  ls.arch = s.arch;
  ls.counted_launches = s.functions.empty() ? 0 : 1;
  ls.count_note = s.note;
  nlohmann::ordered_json j{{"steps", s.steps},
                           {"dropped", s.dropped},
                           {"kernels_in_step", s.kernels_in_step},
                           {"counts", line_samples_to_json(ls)}};
  return j.dump();
}

CountedStep counted_step_from_json(const std::string& text) {
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
  if (!j.is_object()) throw Error("counted step: not a JSON object");
  auto small = [&](const char* key, int max) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer() || it->get<long long>() < 0 ||
        it->get<long long>() > max)
      throw Error(std::string("counted step: ") + key + ": expected an integer 0.." +
                  std::to_string(max));
    return it->get<int>();
  };
  CountedStep s;
  s.steps = small("steps", 2);
  s.kernels_in_step = small("kernels_in_step", 64);
  const auto d = j.find("dropped");
  if (d == j.end() || !d->is_number_unsigned())
    throw Error("counted step: dropped: expected a count");
  s.dropped = d->get<std::uint64_t>();
  const auto c = j.find("counts");
  if (c == j.end()) throw Error("counted step: counts: missing");
  const PointLineSamples ls = line_samples_from_json(*c, "counted step.counts");
  s.functions = ls.functions;
  s.arch = ls.arch;
  s.note = ls.count_note;
  return s;
}

}  // namespace rl
