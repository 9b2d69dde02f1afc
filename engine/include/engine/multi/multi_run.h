// Runs a multi-GPU experiment (multi_spec.h) in this process: one host thread issues every
// GPU's work on a non-blocking stream of its own, so the GPUs run at once. NCCL is opened at
// run time; without it the NCCL exchanges are SKIPPED saying why and the naive ones still run.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/session/multi_results.h"

namespace rl {

// Whether NCCL can be used here, and which: opened once per process (dlopen libnccl.so.2, then
// the nvidia-nccl-cu13 pip package's lib folder; RL_NCCL_LIBRARY names another). Never throws.
struct NcclStatus {
  bool available = false;
  std::string library;  // the file opened
  int version = 0;      // NCCL_VERSION_CODE of the library, e.g. 22809
  std::string text;     // "NCCL 2.28.9 (libnccl.so.2)" or "unavailable: <why>"
};
NcclStatus nccl_status();

// What each pair of the GPUs can do (cudaDeviceGetP2PAttribute) and what joins them (the
// driver's NVML: how many NVLinks, their version, the NVLink roof; or why that is unknown), for
// every ordered pair of distinct ordinals. Never throws: a failing query leaves the pair at
// "no access". Nothing is measured.
std::vector<PeerLink> discover_links(const std::vector<int>& devices);

// discover_devices() with Discovery::links filled: what `devices` and the Devices panel show.
Discovery discover_devices_with_links();

struct MultiCallbacks {
  // A point finished (index among `count`).
  std::function<void(const MultiPoint&, std::size_t index, std::size_t count)> on_point;
  // Something to say on a status line: "measuring read floors", "opening NCCL for 2 GPUs".
  std::function<void(const std::string&)> on_notice;
  // The session so far (devices, links, NCCL, read floors and every finished point), after each
  // point: what a supervisor keeps should the process be lost (multi_supervisor.h).
  std::function<void(const MultiSession&)> on_session;
};

// Validates (throws rl::Error with every message of validate(), joined by "; "), measures the
// links' peer-copy bandwidth and each GPU's read floor at its shard sizes, then runs every point:
// warm-up, samples until the total's noise is below the target (or four budgets are spent),
// verification against the host. A point that fails (a CUDA or NCCL error) is FAILED with the
// call and the GPU named, and the run goes on. cancel (may be null) is checked between samples.
MultiSession run_multi(const MultiSpec& spec, const MultiCallbacks& callbacks,
                       const std::atomic<bool>* cancel);

}  // namespace rl
