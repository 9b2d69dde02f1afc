// The "line_samples" object of a result in a JSON session (counters_io.h). Read with the same
// care as any file a person may hand the app: every field checked, sizes bounded.
#include <string>

#include "engine/core/error.h"
#include "io/counters_io.h"
#include "io/json_read.h"

namespace rl {

namespace {
using Json = nlohmann::ordered_json;

constexpr std::size_t kMaxFunctions = 64;
constexpr std::size_t kMaxPcs = 1 << 16;  // per function: a kernel here has a few hundred
constexpr std::size_t kMaxReasons = 64;

using json::fail;

const Json& member(const Json& obj, const std::string& key, const std::string& path) {
  return json::member(obj, path, key);
}

std::string text(const Json& obj, const std::string& key, const std::string& path, bool required) {
  const auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) fail(json::join(path, key), "missing");
    return {};
  }
  if (!it->is_string()) fail(path + "." + key, "expected a string");
  return it->get<std::string>();
}

std::uint64_t count(const Json& v, const std::string& path) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
    fail(path, "expected a non-negative integer");
  return v.get<std::uint64_t>();
}

int small_int(const Json& obj, const std::string& key, const std::string& path, int max) {
  const auto it = obj.find(key);
  if (it == obj.end()) return 0;
  if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > max)
    fail(path + "." + key, "expected an integer 0.." + std::to_string(max));
  return int(it->get<long long>());
}

// [offset, {reason: samples}] or, with executed-instruction counts, [offset, {reason: samples},
// {"inst_executed": n, "thread_inst_executed": m}] (files before the counts have two elements).
SampledPc read_pc(const Json& j, const std::string& at) {
  if (!j.is_array() || j.size() < 2 || j.size() > 3)
    fail(at, "expected [offset, {reason: samples}] or [offset, {reason: samples}, {counts}]");
  SampledPc pc;
  pc.offset = count(j[0], at + "[0]");
  if (!j[1].is_object()) fail(at + "[1]", "expected an object of reason: samples");
  if (j[1].size() > kMaxReasons) fail(at + "[1]", "more than 64 reasons");
  // Exact sizes, here and below: a large session's samples are most of it in memory, and a
  // vector grown one element at a time holds up to twice what it needs.
  pc.reasons.reserve(j[1].size());
  for (const auto& [reason, n] : j[1].items()) {
    if (reason.empty()) fail(at + "[1]", "an empty reason name");
    pc.reasons.emplace_back(reason, count(n, at + "[1]." + reason));
  }
  if (j.size() == 3) {
    const std::string c = at + "[2]";
    if (!j[2].is_object()) fail(c, "expected an object of executed-instruction counts");
    for (const auto& [key, n] : j[2].items()) {
      if (key == "inst_executed")
        pc.inst_executed = count(n, c + "." + key);
      else if (key == "thread_inst_executed")
        pc.thread_inst_executed = count(n, c + "." + key);
      else
        fail(c, "unknown count '" + key + "' (inst_executed, thread_inst_executed)");
    }
  }
  return pc;
}

}  // namespace

Json line_samples_to_json(const PointLineSamples& s) {
  Json functions = Json::array();
  for (const SampledFunction& f : s.functions) {
    Json pcs = Json::array();
    for (const SampledPc& p : f.pcs) {
      Json reasons = Json::object();
      for (const auto& [r, n] : p.reasons) reasons[r] = n;
      Json pc = Json::array({p.offset, reasons});
      // Only where counted, so a file of samples alone has no count fields at all.
      if (p.inst_executed > 0 || p.thread_inst_executed > 0)
        pc.push_back(Json{{"inst_executed", p.inst_executed},
                          {"thread_inst_executed", p.thread_inst_executed}});
      pcs.push_back(std::move(pc));
    }
    functions.push_back(Json{{"role", f.role}, {"function", f.function}, {"pcs", pcs}});
  }
  Json j{{"arch", s.arch},
         {"period_log2", s.period_log2},
         {"launches", s.launches},
         {"dropped", s.dropped},
         {"note", s.note}};
  if (s.counted_launches > 0) j["counted_launches"] = s.counted_launches;
  if (!s.count_note.empty()) j["count_note"] = s.count_note;
  j["functions"] = std::move(functions);
  return j;
}

PointLineSamples line_samples_from_json(const Json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object");
  PointLineSamples s;
  s.arch = text(j, "arch", path, false);
  s.note = text(j, "note", path, false);
  s.period_log2 = small_int(j, "period_log2", path, 31);
  s.launches = small_int(j, "launches", path, 1000000);
  if (auto d = j.find("dropped"); d != j.end()) s.dropped = count(*d, path + ".dropped");
  s.counted_launches = small_int(j, "counted_launches", path, 1000000);
  s.count_note = text(j, "count_note", path, false);
  const Json& functions = member(j, "functions", path);
  if (!functions.is_array()) fail(path + ".functions", "expected an array");
  if (functions.size() > kMaxFunctions) fail(path + ".functions", "more than 64 functions");
  s.functions.reserve(functions.size());
  for (std::size_t i = 0; i < functions.size(); ++i) {
    const std::string at = path + ".functions[" + std::to_string(i) + "]";
    const Json& f = functions[i];
    if (!f.is_object()) fail(at, "expected an object");
    SampledFunction sf;
    sf.role = text(f, "role", at, true);
    sf.function = text(f, "function", at, true);
    if (sf.role.empty()) fail(at + ".role", "expected a non-empty string");
    const Json& pcs = member(f, "pcs", at);
    if (!pcs.is_array()) fail(at + ".pcs", "expected an array");
    if (pcs.size() > kMaxPcs) fail(at + ".pcs", "more than 65536 program counters");
    sf.pcs.reserve(pcs.size());
    for (std::size_t k = 0; k < pcs.size(); ++k)
      sf.pcs.push_back(read_pc(pcs[k], at + ".pcs[" + std::to_string(k) + "]"));
    s.functions.push_back(std::move(sf));
  }
  return s;
}

}  // namespace rl
