// Multi-GPU sessions in: every field checked, the first bad one named
// ("points[2].gpu_count: expected an integer"), the whole session built before it is returned.
// Read as the one-GPU reader reads (export_json_read.cpp): what the file says it is first, from
// its first bytes, then its points one at a time as they stream in, so a session takes about its
// own size in memory, never a whole document beside it.
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/io/session_file.h"
#include "io/export_json_parts.h"
#include "io/json_bounded.h"
#include "io/json_read.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

// A field of an object, read with the path of every error (json_read.h's accessors, bound to
// one object).
class Reader {
 public:
  Reader(const Json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
    if (!obj_.is_object()) fail(path_, "expected an object");
  }
  [[noreturn]] static void fail(const std::string& path, const std::string& what) {
    json::fail(path, what);
  }
  std::string at(std::string_view key) const { return json::join(path_, key); }
  const Json& get(std::string_view key) const { return json::member(obj_, path_, key); }
  const Json& array(std::string_view key) const { return json::expect_array(get(key), at(key)); }
  std::int64_t integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
    const Json& v = get(key);
    return integer_of(v, at(key), lo, hi);
  }
  static std::int64_t integer_of(const Json& v, const std::string& path, std::int64_t lo,
                                 std::int64_t hi) {
    if (!v.is_number_integer()) fail(path, "expected an integer");
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(hi))
      fail(path, "out of range");
    const std::int64_t i = v.get<std::int64_t>();
    if (i < lo || i > hi) fail(path, "out of range");
    return i;
  }
  // NaN and infinity are written as strings (JSON has neither).
  double number(std::string_view key) const { return json::as_double(get(key), at(key)); }
  std::string text(std::string_view key) const { return json::as_string(get(key), at(key)); }
  bool boolean(std::string_view key) const { return json::as_bool(get(key), at(key)); }
  std::vector<double> numbers(std::string_view key) const {
    std::vector<double> out;
    const Json& arr = array(key);
    for (std::size_t i = 0; i < arr.size(); ++i)
      out.push_back(json::as_double(arr[i], json::index(at(key), i)));
    return out;
  }
  const std::string& path() const { return path_; }

 private:
  const Json& obj_;
  std::string path_;
};

constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxSizeN = std::int64_t(1) << 40;

std::vector<int> ordinals(const Reader& r, std::string_view key) {
  std::vector<int> out;
  const Json& arr = r.array(key);
  for (std::size_t i = 0; i < arr.size(); ++i)
    out.push_back(int(Reader::integer_of(arr[i], json::index(r.at(key), i), 0, 1023)));
  return out;
}

DType dtype_of(const Reader& r, std::string_view key) {
  const std::string s = r.text(key);
  const auto t = parse_dtype(s);
  if (!t) Reader::fail(r.at(key), "unknown type " + echo(s) + " (expected int32 or float32)");
  return *t;
}

Exchange exchange_of(const Json& v, const std::string& path) {
  if (!v.is_string()) Reader::fail(path, "expected a string");
  const auto e = parse_exchange(v.get<std::string>());
  if (!e) Reader::fail(path, "unknown exchange " + echo(v.get<std::string>()));
  return *e;
}

MultiSpec read_spec(const Reader& r) {
  MultiSpec s;
  s.devices = ordinals(r, "devices");
  s.gpu_counts = ordinals(r, "gpu_counts");
  s.exchanges.clear();
  const Json& ex = r.array("exchanges");
  for (std::size_t i = 0; i < ex.size(); ++i)
    s.exchanges.push_back(exchange_of(ex[i], json::index(r.at("exchanges"), i)));
  s.variant = r.text("variant");
  if (!find_variant_by_id(s.variant))
    Reader::fail(r.at("variant"), "unknown variant " + echo(s.variant));
  const auto w = parse_workspace(r.text("workspace"));
  if (!w) Reader::fail(r.at("workspace"), "unknown workspace");
  s.workspace = *w;
  s.block_size = int(r.integer("block_size", 0, 1024));
  s.unroll = int(r.integer("unroll", 1, 64));
  s.sizes.clear();
  const Json& sizes = r.array("sizes");
  for (std::size_t i = 0; i < sizes.size(); ++i)
    s.sizes.push_back(
        std::uint64_t(Reader::integer_of(sizes[i], json::index(r.at("sizes"), i), 1, kMaxSizeN)));
  s.types.clear();
  const Json& types = r.array("types");
  for (std::size_t i = 0; i < types.size(); ++i) {
    const auto t = types[i].is_string() ? parse_dtype(types[i].get<std::string>()) : std::nullopt;
    if (!t) Reader::fail(json::index(r.at("types"), i), "expected int32 or float32");
    s.types.push_back(*t);
  }
  s.timing = detail::timing_from_json_value(r.get("timing"), r.at("timing"));
  return s;
}

// The phases and samples a point and each of its GPUs carry.
void read_phases(const Reader& r, PhaseTimes* t, std::vector<double>* local,
                 std::vector<double>* exchange, std::vector<double>* total) {
  const Reader phases(r.get("phases"), r.at("phases"));
  t->local = detail::summary_from_json_value(phases.get("local"), phases.at("local"));
  t->exchange = detail::summary_from_json_value(phases.get("exchange"), phases.at("exchange"));
  t->total = detail::summary_from_json_value(phases.get("total"), phases.at("total"));
  const Reader samples(r.get("samples"), r.at("samples"));
  *local = samples.numbers("local");
  *exchange = samples.numbers("exchange");
  *total = samples.numbers("total");
}

MultiPoint read_point(const Reader& r) {
  MultiPoint p;
  p.point.exchange = exchange_of(r.get("exchange"), r.at("exchange"));
  p.point.gpu_count = int(r.integer("gpu_count", 1, 1024));
  p.point.size = std::uint64_t(r.integer("size", 1, kMaxSizeN));
  p.point.type = dtype_of(r, "type");
  p.devices = ordinals(r, "devices");
  if (int(p.devices.size()) != p.point.gpu_count)
    Reader::fail(r.at("devices"), "lists " + std::to_string(p.devices.size()) +
                                      " GPUs; gpu_count says " + std::to_string(p.point.gpu_count));
  const auto status = parse_point_status(r.text("status"));
  if (!status) Reader::fail(r.at("status"), "unknown status");
  p.status = *status;
  p.message = r.text("message");
  p.value = r.text("value");
  p.expected = r.text("expected");
  p.rel_error = r.number("rel_error");
  p.noisy = r.boolean("noisy");
  p.read_roof_gbps = r.number("read_roof_gbps");
  read_phases(r, &p.times, &p.local_samples_ms, &p.exchange_samples_ms, &p.total_samples_ms);
  const Json& gpus = r.array("gpus");
  if (gpus.size() != p.devices.size())
    Reader::fail(r.at("gpus"), "has " + std::to_string(gpus.size()) + " entries for " +
                                   std::to_string(p.devices.size()) + " GPUs");
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const Reader g(gpus[i], json::index(r.at("gpus"), i));
    GpuShare share;
    share.device = int(g.integer("device", 0, 1023));
    share.elements = std::uint64_t(g.integer("elements", 0, kMaxSizeN));
    share.partial = g.text("partial");
    share.expected_partial = g.text("expected_partial");
    read_phases(g, &share.times, &share.local_samples_ms, &share.exchange_samples_ms,
                &share.total_samples_ms);
    p.gpus.push_back(std::move(share));
  }
  return p;
}

}  // namespace

namespace {

// A newer file is named as such, not by the first field this build does not know.
int check_version(const Reader& r) {
  const int version = int(r.integer("schema_version", 1, kMaxInt));
  if (version > MultiSession::kSchemaVersion)
    throw Error("schema_version " + std::to_string(version) + " is newer than this build reads (" +
                std::to_string(MultiSession::kSchemaVersion) + ")");
  return version;
}

bool says_multi_gpu(const Json& head) {
  if (!head.is_object()) return false;
  auto kind = head.find("kind");
  return kind != head.end() && *kind == MultiSession::kKind;
}

// What the file says of itself before its first list (json_bounded.h's head; the writer puts
// schema_version and kind first): a one-GPU session or anything else is refused here, before
// its points are read.
void check_head(const Json& head) {
  if (!head.is_object()) throw Error("not a ReductionLab session: expected a JSON object");
  if (!head.contains("kind"))
    Reader::fail("kind",
                 "missing: a multi-GPU session says \"kind\": \"multi_gpu\" before its first "
                 "list or object (a one-GPU session has no kind)");
  const Reader r(head, "");
  if (r.text("kind") != MultiSession::kKind)
    Reader::fail("kind", "not a multi-GPU session (expected \"multi_gpu\")");
  if (head.contains("schema_version")) check_version(r);
}

// A multi-GPU session from a parse that streams its points (json_bounded.h): each point becomes
// a MultiPoint as soon as it is read, so the document never holds the points beside the values.
template <typename Parse>
MultiSession read_multi_session(const Json& head, Parse parse) {
  check_head(head);
  MultiSession s;
  const Json doc = parse([&](const Json& point, std::size_t i, const Json&) {
    s.points.push_back(read_point(Reader(point, json::index("points", i))));
  });
  if (!doc.is_object()) throw Error("not a ReductionLab session: expected a JSON object");
  const Reader r(doc, "");
  s.schema_version = check_version(r);
  const Reader tool(r.get("tool"), "tool");
  s.tool_version = tool.text("version");
  s.git_commit = tool.text("git_commit");
  s.created_utc = r.text("created_utc");
  s.cancelled = r.boolean("cancelled");
  const Json& devices = r.array("devices");
  for (std::size_t i = 0; i < devices.size(); ++i)
    s.devices.push_back(detail::device_from_json_value(devices[i], json::index("devices", i)));
  const Json& links = r.array("links");
  for (std::size_t i = 0; i < links.size(); ++i)
    s.links.push_back(detail::link_from_json_value(links[i], json::index("links", i)));
  const Reader nccl(r.get("nccl"), "nccl");
  s.nccl_available = nccl.boolean("available");
  s.nccl = nccl.text("text");
  s.spec = read_spec(Reader(r.get("spec"), "spec"));
  const Json& floors = r.array("read_floors");
  for (std::size_t i = 0; i < floors.size(); ++i) {
    const Reader f(floors[i], json::index("read_floors", i));
    s.read_floors.push_back(ShardFloor{int(f.integer("device", 0, 1023)),
                                       std::uint64_t(f.integer("bytes", 0, kMaxSizeN * 8)),
                                       f.number("median_ms")});
  }
  r.array("points");  // read above, element by element; it must be there
  return s;
}

}  // namespace

bool is_multi_session_json(std::string_view text) {
  try {
    return says_multi_gpu(parse_json_head(text));
  } catch (const std::exception&) {
    return false;
  }
}

bool is_multi_session_file(const std::string& path) {
  try {
    return says_multi_gpu(read_json_file_head(path, kMaxSessionFileBytes));
  } catch (const std::exception&) {
    return false;
  }
}

MultiSession multi_session_from_json(std::string_view text) {
  return read_multi_session(parse_json_head(text), [&](const JsonElementSink& sink) {
    return parse_json_bounded(text, "points", sink);
  });
}

MultiSession multi_session_from_json_file(const std::string& path) {
  return read_multi_session(
      read_json_file_head(path, kMaxSessionFileBytes), [&](const JsonElementSink& sink) {
        return parse_json_file_bounded(path, kMaxSessionFileBytes, "points", sink);
      });
}

}  // namespace rl
