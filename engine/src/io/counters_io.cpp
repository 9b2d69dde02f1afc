#include "io/counters_io.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/core/error.h"
#include "engine/session/results.h"
#include "io/json_read.h"

namespace rl {

namespace {
using Json = nlohmann::ordered_json;

using json::fail;

const Json& member(const Json& obj, const std::string& key, const std::string& path) {
  return json::member(obj, path, key);
}

std::string csv_number(double d) {
  if (std::isnan(d)) return "nan";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

// The CSV columns of a counter's range over the repeats: "<role>.<metric>[lo]" and "[hi]".
constexpr const char* kRangeLow = "[lo]";
constexpr const char* kRangeHigh = "[hi]";

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
    Json kernel{{"role", k.role}, {"metrics", metrics}};
    Json ranges = Json::object();
    for (const auto& [m, r] : k.ranges)
      if (std::isfinite(r.lo) && std::isfinite(r.hi)) ranges[m] = Json::array({r.lo, r.hi});
    if (!ranges.empty()) kernel["ranges"] = ranges;
    kernels.push_back(std::move(kernel));
  }
  return Json{{"note", c.note}, {"passes", c.passes}, {"repeats", c.repeats}, {"kernels", kernels}};
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
  if (auto r = j.find("repeats"); r != j.end()) {  // absent before repeats: one
    if (!r->is_number_integer() || r->get<long long>() < 1 || r->get<long long>() > 1000)
      fail(path + ".repeats", "expected an integer 1..1000");
    c.repeats = int(r->get<long long>());
  }
  const Json& kernels = member(j, "kernels", path);
  if (!kernels.is_array()) fail(path + ".kernels", "expected an array");
  if (kernels.size() > 16) fail(path + ".kernels", "more than 16 kernels");
  // Exact sizes: every point of a large session has these, and a vector grown one element at a
  // time holds up to twice what it needs.
  c.kernels.reserve(kernels.size());
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
    kc.values.reserve(metrics.size());
    for (const auto& [name, v] : metrics.items()) {
      if (v.is_null()) continue;
      if (!v.is_number()) fail(at + ".metrics." + name, "expected a number or null");
      kc.values.emplace_back(name, v.get<double>());
    }
    if (auto ranges = k.find("ranges"); ranges != k.end()) {
      if (!ranges->is_object()) fail(at + ".ranges", "expected an object");
      kc.ranges.reserve(ranges->size());
      for (const auto& [name, r] : ranges->items()) {
        const std::string where = at + ".ranges." + name;
        if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number())
          fail(where, "expected [lowest, highest]");
        const CounterRange range{r[0].get<double>(), r[1].get<double>()};
        if (!(range.lo <= range.hi)) fail(where, "the lowest value is above the highest");
        if (!kc.value(name)) fail(where, "a range for a metric without a value");
        kc.ranges.emplace_back(name, range);
      }
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
    for (const KernelCounters& k : r.counters->kernels) {
      const auto add = [&](const std::string& col) {
        if (std::find(cols.begin(), cols.end(), col) == cols.end()) cols.push_back(col);
      };
      for (const auto& [m, v] : k.values) add(k.role + "." + m);
      for (const auto& [m, range] : k.ranges) {
        add(k.role + "." + m + kRangeLow);
        add(k.role + "." + m + kRangeHigh);
      }
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
    std::string metric = col.substr(dot + 1);
    const bool low = metric.ends_with(kRangeLow), high = metric.ends_with(kRangeHigh);
    if (low || high) {
      metric.resize(metric.size() - std::string_view(kRangeLow).size());
      if (const auto range = k->range(metric)) out += csv_number(low ? range->lo : range->hi);
    } else if (const auto v = k->value(metric)) {
      out += csv_number(*v);
    }
  }
  return out;
}

}  // namespace rl
