#include "counters/counters_io.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/core/error.h"
#include "engine/run/results.h"

namespace rl {

namespace {
using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(path + ": " + what);
}

const Json& member(const Json& obj, const std::string& key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(path, "missing field '" + key + "'");
  return *it;
}

std::string csv_number(double d) {
  if (std::isnan(d)) return "nan";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}
}  // namespace

Json counters_to_json(const PointCounters& c) {
  Json kernels = Json::array();
  for (const KernelCounters& k : c.kernels) {
    Json metrics = Json::object();
    // NaN (a ratio over nothing) is written as null and read back as absent.
    for (const auto& [m, v] : k.values) metrics[m] = std::isfinite(v) ? Json(v) : Json(nullptr);
    kernels.push_back(Json{{"role", k.role}, {"metrics", metrics}});
  }
  return Json{{"note", c.note}, {"passes", c.passes}, {"kernels", kernels}};
}

PointCounters counters_from_json(const Json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object");
  PointCounters c;
  if (auto n = j.find("note"); n != j.end()) {
    if (!n->is_string()) fail(path + ".note", "expected a string");
    c.note = n->get<std::string>();
  }
  if (auto p = j.find("passes"); p != j.end()) {
    if (!p->is_number_integer() || p->get<long long>() < 0 || p->get<long long>() > 1000)
      fail(path + ".passes", "expected an integer 0..1000");
    c.passes = int(p->get<long long>());
  }
  const Json& kernels = member(j, "kernels", path);
  if (!kernels.is_array()) fail(path + ".kernels", "expected an array");
  if (kernels.size() > 16) fail(path + ".kernels", "more than 16 kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string at = path + ".kernels[" + std::to_string(i) + "]";
    const Json& k = kernels[i];
    if (!k.is_object()) fail(at, "expected an object");
    KernelCounters kc;
    const Json& role = member(k, "role", at);
    if (!role.is_string() || role.get<std::string>().empty())
      fail(at + ".role", "expected a non-empty string");
    kc.role = role.get<std::string>();
    const Json& metrics = member(k, "metrics", at);
    if (!metrics.is_object()) fail(at + ".metrics", "expected an object");
    for (const auto& [name, v] : metrics.items()) {
      if (v.is_null()) continue;
      if (!v.is_number()) fail(at + ".metrics." + name, "expected a number or null");
      kc.values.emplace_back(name, v.get<double>());
    }
    c.kernels.push_back(std::move(kc));
  }
  return c;
}

std::vector<std::string> counter_csv_columns(const std::vector<PointResult>& results) {
  std::vector<std::string> cols;
  bool any = false;
  for (const PointResult& r : results) {
    if (!r.counters) continue;
    any = true;
    for (const KernelCounters& k : r.counters->kernels)
      for (const auto& [m, v] : k.values) {
        const std::string col = k.role + "." + m;
        if (std::find(cols.begin(), cols.end(), col) == cols.end()) cols.push_back(col);
      }
  }
  if (any) cols.push_back("counters_note");
  return cols;
}

std::string counter_csv_cells(const PointResult& r, const std::vector<std::string>& columns) {
  std::string out;
  for (const std::string& col : columns) {
    out += ',';
    if (!r.counters) continue;
    if (col == "counters_note") {
      out += csv_quote(r.counters->note);
      continue;
    }
    const std::size_t dot = col.find('.');
    const KernelCounters* k = r.counters->kernel(col.substr(0, dot));
    if (!k) continue;
    if (const auto v = k->value(col.substr(dot + 1))) out += csv_number(*v);
  }
  return out;
}

}  // namespace rl
