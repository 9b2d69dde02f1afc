// NCCL, loaded at run time (as CUPTI is: counters/cupti_api.h): libnccl.so.2 is opened with
// dlopen the first time it is asked for, so the app and the CLI start and do everything else
// where it is missing. Built against nccl.h when CMake found it (the nvidia-nccl-cu13 pip
// package that scripts/install-deps.sh installs, or a system copy); built without it, every
// NCCL exchange says so. No NCCL type appears here: callers see only the clique below.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/types.h"
#include "engine/multi/multi_run.h"  // NcclStatus

namespace rl {

// NCCL cannot be used: not built with its header, the library not found, a function missing,
// or a call failed. The message says which and what to do.
class NcclError : public Error {
 public:
  using Error::Error;
};

// The file names tried, in order: $RL_NCCL_LIBRARY when set (then only it), libnccl.so.2 from
// the loader's path, then the pip package's lib folder (found at configure time, and under the
// install-deps venv).
std::vector<std::string> nccl_library_candidates();

// Opens the first candidate that loads and has every function used. Not cached: tests point it
// at a missing library to see the reason. nccl_status() (multi_run.h) is the cached one.
NcclStatus load_nccl(const std::vector<std::string>& candidates);

// One communicator per GPU of a clique of this process (ncclCommInitAll), destroyed with it.
// Creating one sets NCCL_NVLS_ENABLE=0 first: NVLink multicast stays off in every process that
// uses NCCL. Every call is checked; errors name the call, NCCL's words and the context.
class NcclClique {
 public:
  // devices: CUDA ordinals in rank order. Throws NcclError.
  explicit NcclClique(const std::vector<int>& devices);
  ~NcclClique();
  NcclClique(const NcclClique&) = delete;
  NcclClique& operator=(const NcclClique&) = delete;

  // One element per rank, summed, in one NCCL group, enqueued on each rank's stream (recv may
  // be null on non-root ranks for reduce). accum: the partials' type (int64 for int32 input,
  // float for float32: kernels/launch.h Accum).
  void all_reduce(const std::vector<const void*>& send, const std::vector<void*>& recv,
                  DType input_type, const std::vector<cudaStream_t>& streams,
                  const std::string& context);
  void reduce(const std::vector<const void*>& send, const std::vector<void*>& recv,
              DType input_type, const std::vector<cudaStream_t>& streams,
              const std::string& context);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rl
