#include "multi/nccl_api.h"

#include <glob.h>

#include <cstdlib>
#include <mutex>

#ifdef RL_HAVE_NCCL_H
#include <nccl.h>
#endif

#include "core/shared_library.h"

namespace rl {

namespace {

// "2.28.9" from NCCL_VERSION_CODE (major * 10000 + minor * 100 + patch since 2.9).
std::string version_text(int code) {
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}

#ifdef RL_HAVE_NCCL_H

struct NcclApi {
  ncclResult_t (*GetVersion)(int*) = nullptr;
  const char* (*GetErrorString)(ncclResult_t) = nullptr;
  const char* (*GetLastError)(ncclComm_t) = nullptr;
  ncclResult_t (*CommInitAll)(ncclComm_t*, int, const int*) = nullptr;
  ncclResult_t (*CommDestroy)(ncclComm_t) = nullptr;
  ncclResult_t (*GroupStart)() = nullptr;
  ncclResult_t (*GroupEnd)() = nullptr;
  ncclResult_t (*AllReduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                            cudaStream_t) = nullptr;
  ncclResult_t (*Reduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, int, ncclComm_t,
                         cudaStream_t) = nullptr;
};

// Opens one candidate; "" and the api filled, or why not.
std::string open_one(const std::string& name, NcclApi* api) {
  std::string why;
  void* lib = open_shared_library(name, &why);
  if (!lib) return why;
  std::string missing;
  look_up(lib, "ncclGetVersion", api->GetVersion, &missing);
  look_up(lib, "ncclGetErrorString", api->GetErrorString, &missing);
  look_up(lib, "ncclGetLastError", api->GetLastError, &missing);
  look_up(lib, "ncclCommInitAll", api->CommInitAll, &missing);
  look_up(lib, "ncclCommDestroy", api->CommDestroy, &missing);
  look_up(lib, "ncclGroupStart", api->GroupStart, &missing);
  look_up(lib, "ncclGroupEnd", api->GroupEnd, &missing);
  look_up(lib, "ncclAllReduce", api->AllReduce, &missing);
  look_up(lib, "ncclReduce", api->Reduce, &missing);
  if (!missing.empty()) return reject_shared_library(lib, missing, "an NCCL 2.x library is needed");
  return {};  // kept loaded for the life of the process: NCCL keeps threads of its own
}

NcclApi g_api;  // filled once, by nccl_status()'s call_once

const NcclApi& api() {
  const NcclStatus& s = nccl_status();
  if (!s.available) throw NcclError("NCCL is " + s.text);
  return g_api;
}

void check(ncclResult_t r, const char* call, const std::string& context, ncclComm_t comm) {
  if (r == ncclSuccess) return;
  const NcclApi& a = g_api;
  std::string msg = std::string(call) +
                    " failed: " + (a.GetErrorString ? a.GetErrorString(r) : "NCCL error") +
                    " (code " + std::to_string(int(r)) + ")";
  const char* last = a.GetLastError ? a.GetLastError(comm) : nullptr;
  if (last && *last) msg += ": " + std::string(last);
  throw NcclError(msg + " [" + context + "]");
}

ncclDataType_t accum_type(DType input) {
  return input == DType::Int32 ? ncclInt64 : ncclFloat32;
}

#endif  // RL_HAVE_NCCL_H

}  // namespace

std::vector<std::string> nccl_library_candidates() {
  if (const char* env = std::getenv("RL_NCCL_LIBRARY"); env && *env) return {env};
  std::vector<std::string> names{"libnccl.so.2"};
#ifdef RL_NCCL_PIP_LIB_DIR
  names.push_back(std::string(RL_NCCL_PIP_LIB_DIR) + "/libnccl.so.2");
#endif
  if (const char* home = std::getenv("HOME"); home && *home) {
    const std::string pattern = std::string(home) +
                                "/.local/share/reductionlab/cuda-tools/lib/python3*/"
                                "site-packages/nvidia/nccl/lib/libnccl.so.2";
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
      for (std::size_t i = 0; i < g.gl_pathc; ++i) names.emplace_back(g.gl_pathv[i]);
    globfree(&g);
  }
  return names;
}

NcclStatus load_nccl(const std::vector<std::string>& candidates) {
  NcclStatus s;
#ifndef RL_HAVE_NCCL_H
  (void)candidates;
  s.text =
      "unavailable: this build has no NCCL (nccl.h was not found when it was configured; "
      "scripts/install-deps.sh installs it from the nvidia-nccl-cu13 pip package, then "
      "reconfigure)";
  return s;
#else
  std::string tried;
  for (const std::string& name : candidates) {
    NcclApi a;
    const std::string why = open_one(name, &a);
    if (!why.empty()) {
      tried += "\n  " + name + ": " + why;
      continue;
    }
    int code = 0;
    if (a.GetVersion(&code) != ncclSuccess) {
      tried += "\n  " + name + ": ncclGetVersion failed";
      continue;
    }
    g_api = a;
    s.available = true;
    s.library = name;
    s.version = code;
    s.text = "NCCL " + version_text(code) + " (" + name + ")";
    return s;
  }
  s.text = "unavailable: NCCL (libnccl.so.2) could not be loaded; tried:" + tried +
           "\n  install it (the system's libnccl2, or pip install nvidia-nccl-cu13 as "
           "scripts/install-deps.sh does), or set RL_NCCL_LIBRARY to its path";
  return s;
#endif
}

NcclStatus nccl_status() {
  static std::once_flag once;
  static NcclStatus status;
  std::call_once(once, [] { status = load_nccl(nccl_library_candidates()); });
  return status;
}

#ifdef RL_HAVE_NCCL_H

struct NcclClique::Impl {
  std::vector<ncclComm_t> comms;
  std::vector<int> devices;
};

NcclClique::NcclClique(const std::vector<int>& devices) : impl_(std::make_unique<Impl>()) {
  const NcclApi& a = api();
  // NVLink multicast (NVLS) stays off: the machines this runs on share their NVSwitch fabric,
  // and the collectives here move one number per GPU, which NVLS would not speed up.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  impl_->devices = devices;
  impl_->comms.assign(devices.size(), nullptr);
  std::string context = "communicators for";
  for (int d : devices) context += " cuda:" + std::to_string(d);
  check(a.CommInitAll(impl_->comms.data(), int(devices.size()), devices.data()), "ncclCommInitAll",
        context, nullptr);
}

NcclClique::~NcclClique() {
  for (ncclComm_t c : impl_->comms)
    if (c) g_api.CommDestroy(c);  // cannot fail usefully in a destructor
}

void NcclClique::all_reduce(const std::vector<const void*>& send, const std::vector<void*>& recv,
                            DType input_type, const std::vector<cudaStream_t>& streams,
                            const std::string& context) {
  const NcclApi& a = api();
  check(a.GroupStart(), "ncclGroupStart", context, nullptr);
  ncclResult_t first_error = ncclSuccess;
  const char* failed_call = "ncclAllReduce";
  for (std::size_t r = 0; r < impl_->comms.size() && first_error == ncclSuccess; ++r)
    first_error = a.AllReduce(send[r], recv[r], 1, accum_type(input_type), ncclSum, impl_->comms[r],
                              streams[r]);
  const ncclResult_t end = a.GroupEnd();  // always closes the group, even after an error
  if (first_error == ncclSuccess) failed_call = "ncclGroupEnd";
  check(first_error != ncclSuccess ? first_error : end, failed_call, context, nullptr);
}

void NcclClique::reduce(const std::vector<const void*>& send, const std::vector<void*>& recv,
                        DType input_type, const std::vector<cudaStream_t>& streams,
                        const std::string& context) {
  const NcclApi& a = api();
  check(a.GroupStart(), "ncclGroupStart", context, nullptr);
  ncclResult_t first_error = ncclSuccess;
  const char* failed_call = "ncclReduce";
  for (std::size_t r = 0; r < impl_->comms.size() && first_error == ncclSuccess; ++r)
    first_error = a.Reduce(send[r], recv[r], 1, accum_type(input_type), ncclSum, /*root=*/0,
                           impl_->comms[r], streams[r]);
  const ncclResult_t end = a.GroupEnd();
  if (first_error == ncclSuccess) failed_call = "ncclGroupEnd";
  check(first_error != ncclSuccess ? first_error : end, failed_call, context, nullptr);
}

#else  // built without nccl.h: every clique says why

struct NcclClique::Impl {};

NcclClique::NcclClique(const std::vector<int>&) {
  throw NcclError("NCCL is " + nccl_status().text);
}
NcclClique::~NcclClique() = default;
void NcclClique::all_reduce(const std::vector<const void*>&, const std::vector<void*>&, DType,
                            const std::vector<cudaStream_t>&, const std::string&) {}
void NcclClique::reduce(const std::vector<const void*>&, const std::vector<void*>&, DType,
                        const std::vector<cudaStream_t>&, const std::string&) {}

#endif

}  // namespace rl
