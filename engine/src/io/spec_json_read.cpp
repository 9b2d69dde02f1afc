// Spec files and a session's "spec": the reader. Missing fields keep the ExperimentSpec defaults
// and every bad field is named ("spec.block_sizes[2]: expected an integer").
#include <nlohmann/json.hpp>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/user/user_kernel.h"
#include "io/export_json_parts.h"
#include "io/json_bounded.h"
#include "io/json_read.h"
#include "io/shapes_json.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

using json::as_bool;
using json::as_double;
using json::as_dtype;
using json::as_int;
using json::as_string;
using json::as_uint64;
using json::as_workspace;
using json::expect_array;
using json::expect_object;
using json::fail;
using json::index;
using json::join;

template <typename T, typename Convert>
std::vector<T> as_vector(const Json& v, const std::string& path, Convert convert) {
  std::vector<T> out;
  out.reserve(expect_array(v, path).size());
  for (std::size_t i = 0; i < expect_array(v, path).size(); ++i)
    out.push_back(convert(v[i], index(path, i)));
  return out;
}

// Sizes in spec files may be numbers or text as people type it: "2^24", "16M", and ranges
// "2^10..2^28" (every power of two between), so one item may give several sizes.
std::vector<std::uint64_t> read_sizes(const Json& v, const std::string& path) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < expect_array(v, path).size(); ++i) {
    if (v[i].is_number_unsigned()) {  // the usual case; the path is made only for an error
      out.push_back(v[i].get<std::uint64_t>());
      continue;
    }
    if (!v[i].is_string()) {
      out.push_back(as_uint64(v[i], index(path, i)));
      continue;
    }
    std::vector<std::uint64_t> sizes;
    std::string error;
    if (!parse_size_list(v[i].get_ref<const std::string&>(), &sizes, &error))
      fail(index(path, i), error);
    // A range gives up to 41 sizes and a string of lists thousands: the total is bounded as
    // an array's items are (json_bounded.h), before it grows further.
    if (sizes.size() > kMaxJsonItems - out.size())
      fail(path, "more than " + std::to_string(kMaxJsonItems) + " sizes");
    out.insert(out.end(), sizes.begin(), sizes.end());
  }
  return out;
}

std::string resolvable_variant(const Json& v, const std::string& path) {
  std::string name = as_string(v, path);
  if (!resolve_variant(name)) fail(path, "unknown variant " + echo(name));
  return name;
}

// A spec's variants list may also say "all" (spec.h kAllVariants).
std::string variant_or_all(const Json& v, const std::string& path) {
  return as_string(v, path) == kAllVariants ? std::string(kAllVariants)
                                            : resolvable_variant(v, path);
}

void read_timing(const Json& obj, const std::string& path, TimingOptions* t) {
  expect_object(obj, path);
  for (const auto& [key, v] : obj.items()) {
    const std::string p = join(path, key);
    if (key == "noise")
      t->noise = as_double(v, p);
    else if (key == "budget_ms")
      t->budget_ms = as_double(v, p);
    else if (key == "warmup")
      t->warmup = as_int(v, p);
    else if (key == "min_samples")
      t->min_samples = as_int(v, p);
    else if (key == "max_samples")
      t->max_samples = as_int(v, p);
    else if (key == "cold_l2")
      t->cold_l2 = as_bool(v, p);
    else if (key == "user_kernel_limit_s")
      t->user_kernel_limit_s = as_double(v, p);
    else
      fail(p,
           "unknown field (known: noise, budget_ms, warmup, min_samples, max_samples, "
           "cold_l2, user_kernel_limit_s)");
  }
}

// A spec's user kernels, checked against the contract and registered with the catalog before
// anything that names them is read (engine/user/user_kernel.h).
std::vector<UserKernelSource> read_user_kernels(const Json& arr, const std::string& path) {
  expect_array(arr, path);
  std::vector<UserKernelSource> out;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string at = index(path, i);
    const Json& o = expect_object(arr[i], at);
    UserKernelSource k;
    for (const auto& [key, v] : o.items()) {
      const std::string p = join(at, key);
      if (key == "name")
        k.name = as_string(v, p);
      else if (key == "source")
        k.source = as_string(v, p);
      else if (key == "file")
        k.file = as_string(v, p);
      else if (key == "started_from")
        k.started_from = as_string(v, p);
      else
        fail(p, "unknown field (known: name, source, file, started_from)");
    }
    if (k.name.empty()) fail(join(at, "name"), "missing");
    if (k.source.empty()) fail(join(at, "source"), "missing");
    if (const std::string why = register_user_kernel(k); !why.empty()) fail(at, why);
    out.push_back(std::move(k));
  }
  return out;
}

// Missing fields keep the ExperimentSpec defaults; unknown fields are refused, so a typo in a
// hand-written spec file ("block_size") is reported instead of silently ignored.
ExperimentSpec read_spec(const Json& obj, const std::string& path) {
  expect_object(obj, path);
  ExperimentSpec s;
  if (const Json* user = json::find(obj, "user_kernels"))
    s.user_kernels = read_user_kernels(*user, join(path, "user_kernels"));
  for (const auto& [key, v] : obj.items()) {
    const std::string p = join(path, key);
    if (key == "user_kernels") continue;
    if (key == "variants")
      s.variants = as_vector<std::string>(v, p, variant_or_all);
    else if (key == "workspaces")
      s.workspaces = as_vector<Workspace>(v, p, as_workspace);
    else if (key == "block_sizes")
      s.block_sizes = as_vector<int>(v, p, as_int);
    else if (key == "unroll_factors")
      s.unroll_factors = as_vector<int>(v, p, as_int);
    else if (key == "sizes")
      s.sizes = read_sizes(v, p);
    else if (key == "types")
      s.types = as_vector<DType>(v, p, as_dtype);
    else if (key == "shapes")
      s.shapes = detail::shapes_from_json(v, p);
    else if (key == "reduce")
      s.reduce = detail::reduce_from_json(v, p);
    else if (key == "timing")
      read_timing(v, p, &s.timing);
    else if (key == "baseline") {
      // Speed-ups match the baseline by id; a classic name ("reduceNeighbored") means its id.
      // An empty baseline means no speed-ups.
      s.baseline = as_string(v, p);
      if (!s.baseline.empty()) s.baseline = resolve_variant(resolvable_variant(v, p))->variant->id;
    } else if (key == "max_points") {
      s.max_points = as_uint64(v, p);
      if (s.max_points == 0) fail(p, "0: a run has at least one point");
    } else {
      fail(p,
           "unknown field (known: variants, workspaces, block_sizes, unroll_factors, sizes, "
           "shapes, reduce, types, timing, baseline, max_points, user_kernels)");
    }
  }
  return s;
}

}  // namespace

namespace detail {
TimingOptions timing_from_json_value(const OrderedJson& v, const std::string& path) {
  TimingOptions t;
  read_timing(v, path, &t);
  return t;
}
ExperimentSpec spec_from_json_value(const OrderedJson& v, const std::string& path) {
  return read_spec(v, path);
}
std::vector<UserKernelSource> user_kernels_from_json_value(const OrderedJson& v,
                                                           const std::string& path) {
  return read_user_kernels(v, path);
}
}  // namespace detail

ExperimentSpec spec_from_json(std::string_view text) {
  // Bounded (json_bounded.h): depth, string sizes, NUL bytes and numbers out of range are
  // refused with the place named, never a crash or a raw library message.
  const Json doc = parse_json_bounded(text);
  if (!doc.is_object()) throw Error("not a spec: expected a JSON object");
  // An empty list is not the default (the classic ladder): that is the field left out.
  if (auto v = doc.find("variants"); v != doc.end() && v->is_array() && v->empty())
    fail("variants",
         "an empty list; name at least one variant, or \"all\" (leave the field out for the "
         "classic ladder)");
  return read_spec(doc, "");
}

}  // namespace rl
