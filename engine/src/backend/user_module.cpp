#include "backend/user_module.h"

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "core/cuda_raii.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"

namespace rl {

namespace {

struct LibraryDeleter {
  void operator()(cudaLibrary_t l) const { cudaLibraryUnload(l); }
};
using LibraryOwner = std::unique_ptr<std::remove_pointer_t<cudaLibrary_t>, LibraryDeleter>;

struct Loaded {
  LibraryOwner library;
  cudaKernel_t kernel = nullptr;
  void* timeline_sink = nullptr;
  UserKernelContract contract;
};

using Key = std::tuple<std::string, std::string, int, int, int, std::string,
                       bool>;  // name, source, B, U, type, arch, timeline mode

std::string first_errors(const CompileResult& r) {
  std::string out;
  int shown = 0;
  for (const CompileDiagnostic& d : r.diagnostics) {
    if (d.severity != "error") continue;
    if (shown++ == 3) break;
    out += (out.empty() ? "" : "; ") +
           (d.line > 0 ? "line " + std::to_string(d.line) + ": " : std::string()) + d.message;
  }
  return out.empty() ? r.log : out;
}

}  // namespace

UserCompileShape user_shape_of(const PointSpec& p, int cc_major, int cc_minor) {
  UserCompileShape s;
  s.block_size = p.block_size;
  s.unroll = p.unroll;
  s.type = p.type;
  s.arch = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
  return s;
}

LoadedUserKernel load_user_kernel(const PointSpec& p, int cc_major, int cc_minor, bool timeline) {
  static std::mutex mutex;
  static std::map<Key, Loaded> cache;
  const std::optional<UserKernelSource> k = user_variant_source(p.variant);
  if (!k) throw Error("no user kernel named " + p.variant + " is registered");
  UserCompileShape shape = user_shape_of(p, cc_major, cc_minor);
  shape.timeline = timeline;
  const Key key{k->name,         k->source,  shape.block_size, shape.unroll,
                int(shape.type), shape.arch, timeline};
  const std::lock_guard lock(mutex);
  LoadedUserKernel out;
  auto it = cache.find(key);
  if (it == cache.end()) {
    const CompileResult r = compile_user_kernel(*k, shape);
    if (!r.unavailable.empty()) throw Error(k->name + " cannot be compiled here: " + r.unavailable);
    if (!r.ok)
      throw Error(k->name + " does not compile for " + shape.arch + ": " + first_errors(r));
    const std::string ctx = "loading " + k->name + " for " + shape.arch;
    cudaLibrary_t lib = nullptr;
    RL_CUDA_CHECK(
        cudaLibraryLoadData(&lib, r.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), ctx);
    Loaded loaded;
    loaded.library.reset(lib);
    RL_CUDA_CHECK(
        cudaLibraryGetKernel(&loaded.kernel, lib, timeline ? kUserTimelineEntry : k->name.c_str()),
        ctx);
    if (timeline) {
      std::size_t bytes = 0;
      RL_CUDA_CHECK(cudaLibraryGetGlobal(&loaded.timeline_sink, &bytes, lib, "rl_timeline_sink"),
                    ctx);
    }
    loaded.contract = user_kernel_contract(*k);
    out.compile_ms = r.compile_ms;
    it = cache.emplace(key, std::move(loaded)).first;
  }
  out.kernel = it->second.kernel;
  out.timeline_sink = it->second.timeline_sink;
  out.contract = it->second.contract;
  return out;
}

void attach_user_kernel(kernels::LaunchArgs& a, const PointSpec& p, int device) {
  if (a.kernel != KernelId::User) return;
  const std::string ctx = "the GPU of " + p.label();
  int major = 0, minor = 0, sms = 0;
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), ctx);
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), ctx);
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), ctx);
  const LoadedUserKernel k = load_user_kernel(p, major, minor);
  a.user_kernel = k.kernel;
  a.user_blocks_per_sm = k.contract.grid_blocks_per_sm;
  a.user_writes_total = k.contract.writes_total;
  a.sm_count = sms;
}

}  // namespace rl
