#include "kernel_timer.h"

#include <cupti_activity.h>
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace rl {

namespace {

// The CUPTI entry points used, resolved at run time.
struct Cupti {
  void* lib = nullptr;
  CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc,
                                    CUpti_BuffersCallbackCompleteFunc) = nullptr;
  CUptiResult (*enable)(CUpti_ActivityKind) = nullptr;
  CUptiResult (*disable)(CUpti_ActivityKind) = nullptr;
  CUptiResult (*flush_all)(uint32_t) = nullptr;
  CUptiResult (*next_record)(uint8_t*, size_t, CUpti_Activity**) = nullptr;
};

struct KernelRecord {
  std::uint64_t start = 0, end = 0;
  std::string name;
};

// CUPTI delivers records through plain C callbacks, so the collected records are global and
// every timer shares them: timers may coexist (tests hold two backends) but must time one
// sample at a time, which every caller does (one runner per process times).
std::mutex g_mutex;
std::vector<KernelRecord> g_records;
Cupti g_cupti;
int g_users = 0;  // timers alive; tracing is on while > 0

constexpr std::size_t kBufferBytes = 1 << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  while (g_cupti.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    g_records.push_back({k->start, k->end, k->name ? k->name : ""});
  }
  std::free(buffer);
}

bool load(std::string* why) {
  if (g_cupti.lib) return true;
  for (const char* path : {"libcupti.so.13", "/usr/local/cuda/lib64/libcupti.so.13",
                           "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "libcupti.so"}) {
    g_cupti.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (g_cupti.lib) break;
  }
  if (!g_cupti.lib) {
    *why = "CUPTI (libcupti.so.13) not found";
    return false;
  }
  auto sym = [](const char* name) { return dlsym(g_cupti.lib, name); };
  g_cupti.register_callbacks =
      reinterpret_cast<decltype(g_cupti.register_callbacks)>(sym("cuptiActivityRegisterCallbacks"));
  g_cupti.enable = reinterpret_cast<decltype(g_cupti.enable)>(sym("cuptiActivityEnable"));
  g_cupti.disable = reinterpret_cast<decltype(g_cupti.disable)>(sym("cuptiActivityDisable"));
  g_cupti.flush_all = reinterpret_cast<decltype(g_cupti.flush_all)>(sym("cuptiActivityFlushAll"));
  g_cupti.next_record =
      reinterpret_cast<decltype(g_cupti.next_record)>(sym("cuptiActivityGetNextRecord"));
  if (!g_cupti.register_callbacks || !g_cupti.enable || !g_cupti.disable || !g_cupti.flush_all ||
      !g_cupti.next_record) {
    *why = "CUPTI found but it lacks the activity API";
    dlclose(g_cupti.lib);
    g_cupti = Cupti{};
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<KernelTimer> KernelTimer::create(std::string* why) {
  std::string reason;
  if (const char* off = std::getenv("RL_NO_CUPTI"); off && *off && *off != '0') {
    if (why) *why = "kernel timing off (RL_NO_CUPTI is set)";
    return nullptr;
  }
  if (g_users > 0) {
    ++g_users;
    return std::unique_ptr<KernelTimer>(new KernelTimer());
  }
  if (!load(&reason)) {
    if (why) *why = reason;
    return nullptr;
  }
  CUptiResult r = g_cupti.register_callbacks(buffer_requested, buffer_completed);
  if (r == CUPTI_SUCCESS) r = g_cupti.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (r != CUPTI_SUCCESS) {
    if (why)
      *why = "CUPTI refused kernel tracing (CUptiResult " + std::to_string(int(r)) +
             "; e.g. another profiler such as ncu is attached)";
    return nullptr;
  }
  g_users = 1;
  return std::unique_ptr<KernelTimer>(new KernelTimer());
}

KernelTimer::~KernelTimer() {
  if (--g_users > 0) return;
  g_cupti.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  g_cupti.flush_all(1);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_records.clear();
}

void KernelTimer::begin() {
  g_cupti.flush_all(0);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_records.clear();
}

std::optional<double> KernelTimer::end_ms(std::string_view skip) {
  g_cupti.flush_all(0);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::uint64_t ns = 0;
  bool any = false;
  for (const KernelRecord& k : g_records) {
    if (!skip.empty() && k.name.find(skip) != std::string::npos) continue;
    ns += k.end - k.start;
    any = true;
  }
  g_records.clear();
  if (!any) return std::nullopt;
  return double(ns) * 1e-6;
}

}  // namespace rl
