#include "engine/device/device.h"
#include "engine/core/bandwidth.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/cuda_raii.h"

namespace rl {

namespace {

std::string host_cpu_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "host CPU";
}

std::string error_text(const char* call, cudaError_t e) {
  return std::string(call) + " returned " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
         ")";
}

DeviceInfo query_gpu(int i) {
  cudaDeviceProp p{};
  RL_CUDA_CHECK(cudaGetDeviceProperties(&p, i), "device " + std::to_string(i));
  DeviceInfo d;
  d.backend = "cuda";
  d.index = i;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.total_memory = p.totalGlobalMem;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.memory_bus_bits = p.memoryBusWidth;
  // CUDA 13 removed cudaDeviceProp::memoryClockRate; the attribute remains (kHz).
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, i),
                "device " + std::to_string(i));
  d.theoretical_gbps = 2.0 * d.memory_clock_khz * 1e3 * (d.memory_bus_bits / 8.0) / 1e9;
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  return d;
}

}  // namespace

std::string DeviceInfo::label() const {
  if (backend != "cuda") return "cpu (host emulation)";
  return "cuda:" + std::to_string(index) + " " + name + " (sm_" + std::to_string(cc_major) +
         std::to_string(cc_minor) + ")";
}

std::string no_such_gpu(int found) {
  return "no such GPU; " + std::to_string(found) + " found" +
         (found > 0 ? " (cuda:0..cuda:" + std::to_string(found - 1) + ")" : "");
}

Discovery discover_devices() {
  Discovery out;
  out.host.backend = "host";
  out.host.name = host_cpu_name();
  out.host.max_threads_per_block = 1024;
  out.host.total_memory =
      std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGE_SIZE));
  out.host.note =
      "host emulation: every block runs on the CPU with the GPU's algorithm; times are CPU times";

  int count = 0;  // left unwritten by some failures
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    if (e == cudaErrorInsufficientDriver)
      out.no_gpu_reason =
          "no NVIDIA driver (or one too old for CUDA 13): " + error_text("cudaGetDeviceCount", e);
    else if (e == cudaErrorNoDevice)
      out.no_gpu_reason = "the NVIDIA driver found no GPU: " + error_text("cudaGetDeviceCount", e);
    else
      out.no_gpu_reason = error_text("cudaGetDeviceCount", e);
    return out;
  }
  if (count == 0) {
    out.no_gpu_reason = "cudaGetDeviceCount found 0 GPUs";
    return out;
  }
  for (int i = 0; i < count; ++i) {
    try {
      DeviceInfo d = query_gpu(i);
      size_t free_b = 0, total_b = 0;
      if (cudaSetDevice(i) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
        d.free_memory = free_b;
      out.gpus.push_back(d);
    } catch (const Error& err) {
      out.no_gpu_reason += std::string(err.what()) + "; ";
    }
  }
  if (out.gpus.empty() && out.no_gpu_reason.empty()) out.no_gpu_reason = "no usable GPU";
  return out;
}

double measure_copy_bandwidth_gbps(int device, std::size_t bytes) {
  const std::string ctx = "copy bandwidth on device " + std::to_string(device);
  RL_CUDA_CHECK(cudaSetDevice(device), ctx);
  DeviceBuffer a(bytes, ctx), b(bytes, ctx);
  Stream stream;
  Event start, stop;
  RL_CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()), ctx);
  float best_ms = 0;
  // Median of several copies after a warm-up; a copy reads and writes `bytes`.
  std::vector<float> times;
  for (int i = 0; i < 12; ++i) {
    RL_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()), ctx);
    RL_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                  ctx);
    RL_CUDA_CHECK(cudaEventRecord(stop.get(), stream.get()), ctx);
    RL_CUDA_CHECK(cudaEventSynchronize(stop.get()), ctx);
    float ms = 0;
    RL_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()), ctx);
    if (i >= 2) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  best_ms = times[times.size() / 2];
  return gbps_of(2 * std::uint64_t(bytes), best_ms);  // each byte read and written
}

}  // namespace rl
