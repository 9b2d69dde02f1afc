// The lab sheet readers' shared pieces (lab_sheet.cpp reads a sheet, lab_sheet_goals.cpp its
// goals): one object's fields read by name, every error naming the field's path.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/report/lab_sheet.h"
#include "io/json_read.h"

namespace rl::lab_detail {

using Json = nlohmann::ordered_json;

using json::type_name;

inline std::string joined(const std::vector<std::string_view>& items) {
  std::string out;
  for (std::string_view s : items) out += (out.empty() ? "" : ", ") + std::string(s);
  return out;
}

// One object's fields by name, every error naming where: "goals[2].at_least: ...".
class Fields {
 public:
  Fields(const Json& j, std::string where, const std::vector<std::string_view>& known,
         const std::string& what)
      : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) json::fail(where_, "expected an object, got " + type_name(j_));
    for (const auto& [key, value] : j_.items())
      if (std::find(known.begin(), known.end(), key) == known.end())
        json::fail(at(key), "unknown field (" + what + "'s fields: " + joined(known) + ")");
  }
  std::string at(std::string_view key) const { return json::join(where_, key); }
  const Json* find(std::string_view key) const { return json::find(j_, key); }
  std::optional<std::string> text(std::string_view key, bool required) const {
    const Json* v = find(key);
    if (!v) {
      if (required) json::fail(at(key), "missing (a string is needed)");
      return std::nullopt;
    }
    if (!v->is_string()) json::fail(at(key), "expected a string, got " + type_name(*v));
    return v->get<std::string>();
  }
  // A whole number in [lo, hi] that is a power of two.
  std::optional<int> power_of_two(std::string_view key, int lo, int hi) const {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    const bool whole = v->is_number_integer() && v->get<double>() >= lo && v->get<double>() <= hi;
    const int n = whole ? v->get<int>() : 0;
    if (!whole || (n & (n - 1)) != 0)
      json::fail(at(key), "expected a power of two from " + std::to_string(lo) + " to " +
                              std::to_string(hi) + ", got " +
                              (v->is_number() ? v->dump() : type_name(*v)));
    return n;
  }
  std::optional<double> number(std::string_view key) const {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_number() || !std::isfinite(v->get<double>()))
      json::fail(at(key), "expected a number, got " + type_name(*v));
    return v->get<double>();
  }

 private:
  const Json& j_;
  std::string where_;
};

inline std::string nonblank(const Fields& f, std::string_view key, std::size_t max_chars) {
  std::string s = *f.text(key, true);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos) json::fail(f.at(key), "empty");
  if (s.size() > max_chars)
    json::fail(f.at(key),
               std::to_string(s.size()) + " characters; at most " + std::to_string(max_chars));
  return s;
}

// A built-in reduction (not a lab kernel) by id or classic name, refused naming `where` with the
// nearest name when there is one; *unroll is the classic name's factor, if it gives one.
const VariantInfo& reduction_variant(const std::string& where, const std::string& name,
                                     std::optional<int>* unroll);
// Whether v is one of the built-in table's variants (not a user kernel).
bool built_in(const VariantInfo* v);
// One goal of goals[]; `where` is its path ("goals[1]").
LabGoal read_goal(const Json& j, const std::string& where);

}  // namespace rl::lab_detail
