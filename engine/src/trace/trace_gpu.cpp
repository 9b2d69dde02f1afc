// Traces recorded on a GPU by the instrumented kernels, and the comparison with the model.
#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

#include "core/cuda_raii.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model.h"
#include "engine/trace/trace.h"
#include "kernels/instrumented.h"
#include "trace/trace_internal.h"

namespace rl {

namespace {

std::string hex(std::uint32_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

}  // namespace

Trace record_trace_on_gpu(const TraceRequest& r, int device) {
  Trace model = make_trace(r);  // validates the request and gives kinds, ops, captions, totals
  const VariantInfo* variant = find_variant_by_id(model.variant);
  const bool warp_level =
      has_warp_family_trace(variant->kernel) || is_divergence_lab(variant->kernel);
  if (variant->family != VariantFamily::SeedLadder && !warp_level)
    throw Error(
        "recording on the GPU covers the classic ladder, warp_shuffle, reduce_add_sync, "
        "cg_reduce and the divergence lab (the other labs from the block model); " +
        model.label + " is traced from the block model only");
  const std::string context = "trace of " + model.label + " B=" + std::to_string(model.block_size) +
                              " on cuda:" + std::to_string(device);
  RL_CUDA_CHECK(cudaSetDevice(device), context);
  cudaDeviceProp prop{};
  RL_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), context);

  const std::uint64_t tile = std::uint64_t(model.block_size) * model.unroll;
  const std::uint64_t needed = std::min<std::uint64_t>(model.size, (model.block_index + 1) * tile);
  // The divergence lab maps one element per thread (its unroll is the data branch's k); the
  // partitioned branch maps CUB's partition of the whole input, as the model does.
  const bool lab = is_divergence_lab(variant->kernel);
  InputData input =
      trace_input(lab ? (variant->kernel == KernelId::BranchPartitioned
                             ? model.size
                             : std::min<std::uint64_t>(
                                   model.size, (model.block_index + 1ull) * model.block_size))
                      : needed,
                  model.type, model.block_index, lab ? std::uint64_t(model.block_size) : tile);
  if (variant->kernel == KernelId::BranchPartitioned)
    input.i32 = cub_partitioned(input.i32, model.unroll);
  kernels::MaskRecordingRequest req;
  req.kernel = variant->kernel;
  req.type = model.type;
  req.workspace = model.workspace;
  req.block_size = model.block_size;
  req.unroll = model.unroll;
  req.n = model.size;
  req.host_input = input.data();
  req.blocks = {model.block_index};
  kernels::MaskRecording rec;
  std::string where;
  const cudaError_t e = warp_level ? kernels::record_warp_masks(req, &rec, &where)
                                   : kernels::record_ladder_masks(req, &rec, &where);
  if (e != cudaSuccess) throw CudaError(where, e, context);
  if (rec.steps != model.steps.size())
    throw Error(context + ": the instrumented kernel recorded " + std::to_string(rec.steps) +
                " steps, the model has " + std::to_string(model.steps.size()));

  Trace gpu = model;
  gpu.source = "gpu";
  gpu.source_device = prop.name;
  std::vector<double> values = model.initial_values;
  std::vector<std::vector<std::uint32_t>> present(gpu.steps.size());
  for (unsigned s = 0; s < rec.steps; ++s) {
    TraceStep& ts = gpu.steps[s];
    for (unsigned w = 0; w < rec.warps; ++w) {
      ts.masks[w] = rec.acting[rec.index(0, s, w)];
      present[s].push_back(rec.present[rec.index(0, s, w)]);
    }
    // Threads that wrote no snapshot (outside the last warp, or every thread in the
    // write-partial step; for the warp-level kernels, warps 1.. in warp 0's steps) left their
    // element (register) as it was.
    for (unsigned t = 0; t < rec.block_size; ++t)
      if (rec.written[rec.value_index(0, s, t)]) values[t] = rec.values[rec.value_index(0, s, t)];
    ts.values = values;
  }
  mark_exited_lanes(gpu.steps);
  for (std::size_t s = 0; s < gpu.steps.size(); ++s) {
    for (std::size_t w = 0; w < present[s].size(); ++w) gpu.steps[s].exited[w] |= ~present[s][w];
    recount_lanes(gpu.steps[s]);
  }
  gpu.partial = rec.partials.at(0);
  return gpu;
}

std::vector<std::string> compare_traces(const Trace& model, const Trace& recorded,
                                        std::size_t max_messages) {
  std::vector<std::string> out;
  auto add = [&](std::string m) {
    if (out.size() < max_messages) out.push_back(std::move(m));
  };
  if (model.steps.size() != recorded.steps.size()) {
    add("step count: model " + std::to_string(model.steps.size()) + ", recorded " +
        std::to_string(recorded.steps.size()));
    return out;
  }
  for (std::size_t s = 0; s < model.steps.size(); ++s) {
    const TraceStep &a = model.steps[s], &b = recorded.steps[s];
    const std::string at = "step " + std::to_string(s) + " (" + a.kind + ")";
    for (std::size_t w = 0; w < a.masks.size() && w < b.masks.size(); ++w) {
      if (a.masks[w] != b.masks[w])
        add(at + " warp " + std::to_string(w) + ": model acting " + hex(a.masks[w]) +
            ", recorded " + hex(b.masks[w]));
      // A lane the GPU never brought to this step must be one the model says had finished.
      if ((b.exited[w] & ~a.exited[w]) != 0)
        add(at + " warp " + std::to_string(w) + ": lanes " + hex(b.exited[w] & ~a.exited[w]) +
            " never reached the step but the model says they still had work");
    }
    for (std::size_t t = 0; t < a.values.size() && t < b.values.size(); ++t) {
      if (std::bit_cast<std::uint64_t>(a.values[t]) != std::bit_cast<std::uint64_t>(b.values[t])) {
        add(at + " ws[" + std::to_string(t) + "]: model " + std::to_string(a.values[t]) +
            ", recorded " + std::to_string(b.values[t]));
        break;
      }
    }
  }
  if (std::bit_cast<std::uint64_t>(model.partial) != std::bit_cast<std::uint64_t>(recorded.partial))
    add("partial: model " + std::to_string(model.partial) + ", recorded " +
        std::to_string(recorded.partial));
  return out;
}

}  // namespace rl
