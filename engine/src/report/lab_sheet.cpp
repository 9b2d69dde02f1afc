// Reading and checking a lab sheet (lab_sheet.h); its goals are read in lab_sheet_goals.cpp,
// judged in lab_sheet_judge.cpp.
#include "engine/report/lab_sheet.h"

#include <algorithm>

#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/io/input_file.h"
#include "io/json_bounded.h"
#include "report/lab_sheet_fields.h"

namespace rl {

namespace {

using lab_detail::built_in;
using lab_detail::Fields;
using lab_detail::Json;
using lab_detail::nonblank;
using lab_detail::read_goal;
using lab_detail::reduction_variant;
using lab_detail::type_name;

bool plain_file_name(const std::string& s) {
  if (s.size() < 4 || s.size() > 64 || s.compare(s.size() - 3, 3, ".cu") != 0) return false;
  if (s.front() == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

bool c_identifier(const std::string& s) {
  if (s.empty() || s.size() > 64 || (s.front() >= '0' && s.front() <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::vector<std::string> read_hints(const Fields& f) {
  std::vector<std::string> hints;
  const Json* h = f.find("hints");
  if (!h) return hints;
  if (!h->is_array()) json::fail("hints", "expected a list of strings, got " + type_name(*h));
  if (h->size() > kMaxLabHints)
    json::fail("hints",
               std::to_string(h->size()) + " hints; at most " + std::to_string(kMaxLabHints));
  for (std::size_t i = 0; i < h->size(); ++i) {
    const Json& v = (*h)[i];
    const std::string where = json::index("hints", i);
    if (!v.is_string()) json::fail(where, "expected a string, got " + type_name(v));
    const std::string s = v.get<std::string>();
    if (s.find_first_not_of(" \t\r\n") == std::string::npos) json::fail(where, "empty");
    if (s.size() > kMaxLabHintChars)
      json::fail(where, std::to_string(s.size()) + " characters; at most " +
                            std::to_string(kMaxLabHintChars));
    hints.push_back(s);
  }
  return hints;
}

LabSheet read_sheet(const Json& root) {
  const Fields f(root, "",
                 {"version", "title", "task", "start", "starter", "rung", "goals", "hints"},
                 "a lab sheet");
  if (const Json* v = f.find("version"); v && (!v->is_number_integer() || *v != kLabSheetVersion))
    json::fail("version", v->dump() + ": this build reads lab sheet version " +
                              std::to_string(kLabSheetVersion));
  LabSheet sheet;
  sheet.title = nonblank(f, "title", 120);
  sheet.task = nonblank(f, "task", kMaxLabTaskChars);
  std::optional<int> unroll;
  const VariantInfo& start = reduction_variant("start", *f.text("start", true), &unroll);
  sheet.start = start.id;
  sheet.start_unroll = unroll.value_or(start.default_unroll);
  if (const std::optional<std::string> s = f.text("starter", false)) {
    if (!plain_file_name(*s))
      json::fail("starter", echo(*s) +
                                " (a file name under resources/kernels/ ending in .cu, "
                                "letters, digits, '_', '-' and '.', no folders)");
    sheet.starter = *s;
  }
  if (const std::optional<std::string> r = f.text("rung", false)) {
    if (!c_identifier(*r))
      json::fail("rung", echo(*r) +
                             " (a kernel name is a C identifier: letters, digits, _, "
                             "not starting with a digit, at most 64)");
    if (const std::optional<VariantRef> ref = resolve_variant(*r); ref && built_in(ref->variant))
      json::fail("rung", echo(*r) + " is a built-in variant's name; give the user's rung its own");
    sheet.rung = *r;
  }
  const Json* goals = f.find("goals");
  if (!goals) json::fail("goals", "missing (a list of goals is needed)");
  if (!goals->is_array()) json::fail("goals", "expected a list, got " + type_name(*goals));
  if (goals->empty()) json::fail("goals", "empty: a lab sheet needs at least one goal");
  if (goals->size() > kMaxLabGoals)
    json::fail("goals",
               std::to_string(goals->size()) + " goals; at most " + std::to_string(kMaxLabGoals));
  for (std::size_t i = 0; i < goals->size(); ++i)
    sheet.goals.push_back(read_goal((*goals)[i], json::index("goals", i)));
  sheet.hints = read_hints(f);
  return sheet;
}

}  // namespace

std::string_view to_string(LabGoalKind k) {
  switch (k) {
    case LabGoalKind::Correct:
      return "correct";
    case LabGoalKind::Speedup:
      return "speedup";
    case LabGoalKind::Counter:
      return "counter";
  }
  return "?";
}

LabSheet parse_lab_sheet(std::string_view json_text, const std::string& source) {
  const std::string prefix = source.empty() ? "" : source + ": ";
  if (json_text.size() > kMaxLabSheetBytes)
    throw Error(prefix + "the file is " + std::to_string(json_text.size()) +
                " bytes; a lab sheet is at most " + std::to_string(kMaxLabSheetBytes));
  try {
    return read_sheet(parse_json_bounded(json_text));
  } catch (const Error& e) {
    throw Error(prefix + e.what());
  }
}

LabSheet read_lab_sheet_file(const std::string& path) {
  std::string text;
  try {
    text = read_text_file(path, kMaxLabSheetBytes);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  return parse_lab_sheet(text, path);
}

}  // namespace rl
