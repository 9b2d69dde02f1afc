// Links between GPUs in and out of JSON (io/export_json_parts.h). The NVLink fields were added
// to files that already existed (multi-GPU sessions, schema 1; the run stream 1.1): a file
// without them reads as a link nobody asked NVML about, never as "no NVLink".
#include <cmath>

#include "engine/core/error.h"
#include "io/export_json_parts.h"
#include "io/json_read.h"

namespace rl::detail {

namespace {

using json::fail;

const OrderedJson* find(const OrderedJson& v, const char* key) {
  auto it = v.find(key);
  return it == v.end() ? nullptr : &*it;
}

const OrderedJson& need(const OrderedJson& v, const std::string& path, const char* key) {
  const OrderedJson* f = find(v, key);
  if (!f) fail(path + "." + key, "missing");
  return *f;
}

int integer(const OrderedJson& f, const std::string& path, long long lo, long long hi) {
  if (!f.is_number_integer()) fail(path, "expected an integer");
  if (f.is_number_unsigned() && f.get<unsigned long long>() > static_cast<unsigned long long>(hi))
    fail(path, "out of range");
  const long long i = f.get<long long>();
  if (i < lo || i > hi) fail(path, "out of range");
  return int(i);
}

bool boolean(const OrderedJson& f, const std::string& path) {
  if (!f.is_boolean()) fail(path, "expected true or false");
  return f.get<bool>();
}

// A bandwidth: finite, 0 or more (no GPU link reaches a petabyte per second). The writer spells
// a non-finite number as a string (json_number); such a value measured nothing: 0.
double gbps(const OrderedJson& f, const std::string& path) {
  if (f == "nan" || f == "inf" || f == "-inf") return 0;
  if (!f.is_number()) fail(path, "expected a number");
  const double d = f.get<double>();
  if (!std::isfinite(d) || d < 0 || d > 1e6) fail(path, "out of range");
  return d;
}

std::string text(const OrderedJson& f, const std::string& path) {
  if (!f.is_string()) fail(path, "expected a string");
  return f.get<std::string>();
}

}  // namespace

OrderedJson link_to_json_value(const PeerLink& l) {
  return OrderedJson{{"from", l.from},
                     {"to", l.to},
                     {"access", l.access},
                     {"performance_rank", l.performance_rank},
                     {"native_atomics", l.native_atomics},
                     {"measured_gbps", json_number(l.measured_gbps)},
                     {"nvlinks", l.nvlinks},
                     {"nvswitch", l.nvswitch},
                     {"nvlink_version", l.nvlink_version},
                     {"nvlink_gbps", json_number(l.nvlink_gbps)},
                     {"link_source", l.link_source}};
}

PeerLink link_from_json_value(const OrderedJson& v, const std::string& path) {
  if (!v.is_object()) fail(path, "expected an object");
  PeerLink l;
  l.from = integer(need(v, path, "from"), path + ".from", 0, 1023);
  l.to = integer(need(v, path, "to"), path + ".to", 0, 1023);
  l.access = boolean(need(v, path, "access"), path + ".access");
  l.performance_rank = integer(need(v, path, "performance_rank"), path + ".performance_rank",
                               -2147483647LL, 2147483647LL);
  l.native_atomics = boolean(need(v, path, "native_atomics"), path + ".native_atomics");
  l.measured_gbps = gbps(need(v, path, "measured_gbps"), path + ".measured_gbps");
  if (const OrderedJson* f = find(v, "nvlinks"))
    l.nvlinks = integer(*f, path + ".nvlinks", 0, 4096);
  if (const OrderedJson* f = find(v, "nvswitch")) l.nvswitch = boolean(*f, path + ".nvswitch");
  if (const OrderedJson* f = find(v, "nvlink_version"))
    l.nvlink_version = text(*f, path + ".nvlink_version");
  if (const OrderedJson* f = find(v, "nvlink_gbps"))
    l.nvlink_gbps = gbps(*f, path + ".nvlink_gbps");
  if (const OrderedJson* f = find(v, "link_source"))
    l.link_source = text(*f, path + ".link_source");
  if (l.from == l.to) fail(path, "a link from a GPU to itself");
  return l;
}

}  // namespace rl::detail
