// Reading the value types out of bounded JSON (json_bounded.h): the one set of accessors every
// reader of the engine uses (sessions, multi-GPU sessions, stream lines, counters, line
// samples, occupancy, links, stories), so that every refusal reads alike and names the field:
// "results[3].block_size: expected an integer", "results[0].counters.kernels: missing".
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/core/types.h"

namespace rl::json {

using Json = nlohmann::ordered_json;

// Throws rl::Error "path: what" (what alone for the document itself).
[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  throw Error(path.empty() ? what : path + ": " + what);
}

// "device.name", "results[3]".
inline std::string join(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}
inline std::string index(const std::string& parent, std::size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

// A field that may be left out: null when absent.
inline const Json* find(const Json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}
// A field that must be there: "parent.key: missing".
inline const Json& member(const Json& obj, const std::string& parent, std::string_view key) {
  const Json* v = find(obj, key);
  if (!v) fail(join(parent, key), "missing");
  return *v;
}

inline const Json& expect_object(const Json& v, const std::string& path) {
  if (!v.is_object()) fail(path, "expected an object");
  return v;
}
inline const Json& expect_array(const Json& v, const std::string& path) {
  if (!v.is_array()) fail(path, "expected an array");
  return v;
}

inline std::int64_t as_int64(const Json& v, const std::string& path) {
  if (!v.is_number_integer()) fail(path, "expected an integer");
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    fail(path, "integer out of range");
  return v.get<std::int64_t>();
}
inline int as_int(const Json& v, const std::string& path) {
  const std::int64_t i = as_int64(v, path);
  if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
    fail(path, "integer out of range");
  return int(i);
}
inline std::uint64_t as_uint64(const Json& v, const std::string& path) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) fail(path, "expected a non-negative integer");
  fail(path, "expected an integer");
}
// NaN and infinity are written as the strings "nan", "inf", "-inf" (JSON has neither).
inline double as_double(const Json& v, const std::string& path) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  fail(path, "expected a number");
}
inline bool as_bool(const Json& v, const std::string& path) {
  if (!v.is_boolean()) fail(path, "expected true or false");
  return v.get<bool>();
}
// What a value is, for messages to people who write the file by hand: "expected a string, got
// a number".
inline std::string type_name(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "true/false";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "a list";
  return "an object";
}

inline std::string as_string(const Json& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string");
  return v.get<std::string>();
}

inline Workspace as_workspace(const Json& v, const std::string& path) {
  const std::string s = as_string(v, path);
  if (auto w = parse_workspace(s)) return *w;
  fail(path, "unknown workspace " + echo(s) + " (expected global, shared or registers)");
}

inline DType as_dtype(const Json& v, const std::string& path) {
  const std::string s = as_string(v, path);
  if (auto t = parse_dtype(s)) return *t;
  fail(path, "unknown type " + echo(s) + " (expected int32 or float32)");
}

}  // namespace rl::json
