// The "counts" object of a session's result (model_counts_json.h),
// apart from the block model: the session reader needs only this, so it links without the
// model and the launch planner it uses (the fuzz build, fuzz/CMakeLists.txt, has no CUDA code).
#include "io/model_counts_json.h"
#include "engine/core/error.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

Json counters_json(const StepCounters& c) {
  Json j = Json::object();
  StepCounters::each(c, [&j](const char* name, std::uint64_t v) { j[name] = v; });
  return j;
}

std::uint64_t read_u64(const Json& obj, const std::string& path, const char* key) {
  const std::string at = path + "." + key;
  auto it = obj.find(key);
  if (it == obj.end()) throw Error(at + ": missing");
  if (!it->is_number_unsigned()) {
    if (it->is_number_integer()) throw Error(at + ": expected a non-negative integer");
    throw Error(at + ": expected an integer");
  }
  return it->get<std::uint64_t>();
}

StepCounters read_counters(const Json& obj, const std::string& path) {
  if (!obj.is_object()) throw Error(path + ": expected an object");
  StepCounters c;
  StepCounters::each(c, [&](const char* name, std::uint64_t& v) { v = read_u64(obj, path, name); });
  return c;
}

}  // namespace

nlohmann::ordered_json counts_to_json(const ModelCounts& c) {
  return Json{{"source", "block model"},
              {"grid", c.grid},
              {"launches", c.launches},
              {"first_kernel", counters_json(c.first_kernel)},
              {"finish", counters_json(c.finish)},
              // For people and scripts reading the file (first kernel); the reader ignores them.
              {"warp_steps", c.warp_steps()},
              {"lane_efficiency", c.lane_efficiency()}};
}

ModelCounts counts_from_json(const nlohmann::ordered_json& j, const std::string& path) {
  if (!j.is_object()) throw Error(path + ": expected an object or null");
  ModelCounts c;
  c.grid = read_u64(j, path, "grid");
  const std::uint64_t launches = read_u64(j, path, "launches");
  if (launches != 1 && launches != 2) throw Error(path + ".launches: expected 1 or 2");
  c.launches = int(launches);
  auto first = j.find("first_kernel");
  if (first == j.end()) throw Error(path + ".first_kernel: missing");
  c.first_kernel = read_counters(*first, path + ".first_kernel");
  auto finish = j.find("finish");
  if (finish == j.end()) throw Error(path + ".finish: missing");
  c.finish = read_counters(*finish, path + ".finish");
  return c;
}

}  // namespace rl
