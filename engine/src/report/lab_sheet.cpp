// Reading and checking a lab sheet (lab_sheet.h); judging it is lab_sheet_judge.cpp.
#include "engine/report/lab_sheet.h"

#include <algorithm>
#include <cmath>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/io/input_file.h"
#include "engine/run/grammar.h"
#include "io/json_bounded.h"
#include "io/json_read.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

std::string type_name(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "true/false";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "a list";
  return "an object";
}

std::string joined(const std::vector<std::string_view>& items) {
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

std::string nonblank(const Fields& f, std::string_view key, std::size_t max_chars) {
  std::string s = *f.text(key, true);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos) json::fail(f.at(key), "empty");
  if (s.size() > max_chars)
    json::fail(f.at(key),
               std::to_string(s.size()) + " characters; at most " + std::to_string(max_chars));
  return s;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The built-in id or classic name nearest to a mistyped one, within a few edits; "" if none.
std::string nearest_variant_name(std::string_view name) {
  if (name.size() > 64) return {};
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, name.size() / 4) + 1;
  for (const VariantInfo& v : catalog())
    for (const std::string& candidate : {v.id, v.seed_name}) {
      if (candidate.empty()) continue;
      const std::size_t d = edit_distance(name, candidate);
      if (d < best_distance) best = candidate, best_distance = d;
    }
  return best;
}

bool built_in(const VariantInfo* v) {
  const std::vector<VariantInfo>& c = catalog();
  return v && !c.empty() && v >= &c.front() && v <= &c.back();
}

// A built-in reduction by id or classic name; `unroll` from the classic name when it has one.
const VariantInfo& reduction_variant(const std::string& where, const std::string& name,
                                     std::optional<int>* unroll) {
  const std::optional<VariantRef> ref = resolve_variant(name);
  if (!ref || !built_in(ref->variant)) {
    const std::string near = nearest_variant_name(name);
    json::fail(where, "no variant " + echo(name) +
                          (near.empty() ? " (reductionlab-cli variants lists them)"
                                        : " (did you mean " + near + "?)"));
  }
  if (is_lab(ref->variant->family))
    json::fail(where, ref->variant->id +
                          " is a lab kernel: its total is not the input's sum; name a reduction");
  *unroll = ref->unroll;
  return *ref->variant;
}

LabPointFilter read_filter(const Fields& f) {
  LabPointFilter w;
  if (const Json* v = f.find("size")) {
    std::uint64_t n = 0;
    std::string why;
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > 0)
      n = v->get<std::uint64_t>();
    else if (!v->is_string() || !parse_size(v->get<std::string>(), &n, &why))
      json::fail(f.at("size"), why.empty() ? "expected a size such as \"2^24\" or 16777216, got " +
                                                 (v->is_number() ? v->dump() : type_name(*v))
                                           : why);
    w.size = n;
  }
  if (const std::optional<std::string> t = f.text("type", false)) {
    w.type = parse_dtype(*t);
    if (!w.type) json::fail(f.at("type"), echo(*t) + " (expected int32 or float32)");
  }
  w.block_size = f.power_of_two("block_size", 32, 1024);
  w.unroll = f.power_of_two("unroll", 1, 64);
  return w;
}

void check_counter_bounds(const Fields& f, const LabGoal& g) {
  const CounterInfo& c = *find_counter(g.counter);
  for (const char* key : {"at_least", "at_most"}) {
    const std::optional<double> v = std::string_view(key) == "at_least" ? g.at_least : g.at_most;
    if (!v) continue;
    if (c.percent() && (*v < 0 || *v > 100))
      json::fail(f.at(key),
                 "must be a percentage from 0 to 100 (" + std::string(c.id) + " is in %)");
    if (!c.percent() && *v < 0) json::fail(f.at(key), "must be a number of at least 0");
  }
  if (!g.at_least && !g.at_most)
    json::fail(f.at("at_least"), "missing: a counter goal needs at_least, at_most or both");
  if (g.at_least && g.at_most && *g.at_least > *g.at_most)
    json::fail(f.at("at_most"), "less than at_least: no value could meet both");
}

LabGoal read_goal(const Json& j, const std::string& where) {
  if (!j.is_object()) json::fail(where, "expected an object, got " + type_name(j));
  const Json* kind = json::find(j, "kind");
  if (!kind) json::fail(json::join(where, "kind"), "missing (correct, speedup or counter)");
  if (!kind->is_string())
    json::fail(json::join(where, "kind"), "expected a string, got " + type_name(*kind));
  const std::string k = kind->get<std::string>();
  const std::vector<std::string_view> filter{"size", "type", "block_size", "unroll"};
  auto fields = [&](std::vector<std::string_view> own) {
    own.insert(own.begin(), "kind");
    own.insert(own.end(), filter.begin(), filter.end());
    return own;
  };
  LabGoal g;
  if (k == "correct") {
    const Fields f(j, where, fields({}), "a correct goal");
    g.where = read_filter(f);
  } else if (k == "speedup") {
    const Fields f(j, where, fields({"against", "against_unroll", "at_least"}), "a speedup goal");
    g.kind = LabGoalKind::Speedup;
    g.where = read_filter(f);
    std::optional<int> unroll;
    const VariantInfo& v = reduction_variant(f.at("against"), *f.text("against", true), &unroll);
    g.against = v.id;
    if (const std::optional<int> u = f.power_of_two("against_unroll", 1, 64)) {
      if (unroll && *u != *unroll)
        json::fail(f.at("against_unroll"),
                   std::to_string(*u) + " contradicts " + echo(*f.text("against", true)));
      unroll = u;
    }
    g.against_unroll = unroll.value_or(v.default_unroll);
    if (!v.takes_unroll(g.against_unroll))
      json::fail(f.at("against_unroll"),
                 v.id + " does not take unroll " + std::to_string(g.against_unroll));
    if (g.where.type && std::find(v.types.begin(), v.types.end(), *g.where.type) == v.types.end())
      json::fail(f.at("type"), v.id + " does not take " + std::string(to_string(*g.where.type)));
    g.at_least = f.number("at_least");
    if (!g.at_least) json::fail(f.at("at_least"), "missing (the speed-up factor, e.g. 1.5)");
    if (*g.at_least <= 0 || *g.at_least > 1000)
      json::fail(f.at("at_least"), "must be a number greater than 0 (and at most 1000)");
  } else if (k == "counter") {
    const Fields f(j, where, fields({"counter", "at_least", "at_most"}), "a counter goal");
    g.kind = LabGoalKind::Counter;
    g.where = read_filter(f);
    const std::string id = *f.text("counter", true);
    const CounterInfo* c = find_counter(id);
    if (!c) {
      std::vector<std::string_view> ids;
      for (const CounterInfo& info : counter_catalog()) ids.push_back(info.id);
      json::fail(f.at("counter"), "unknown counter " + echo(id) + " (one of: " + joined(ids) + ")");
    }
    g.counter = std::string(c->id);
    g.at_least = f.number("at_least");
    g.at_most = f.number("at_most");
    check_counter_bounds(f, g);
  } else if (k == "barriers") {
    json::fail(json::join(where, "kind"),
               "'barriers' cannot be judged: no GPU counter counts barriers (Hopper's profiler "
               "has none, counter_catalog.h), and a user kernel has no block model to count "
               "them; a counter goal on barrier_stall (at_most) measures what barriers cost");
  } else {
    json::fail(json::join(where, "kind"),
               "unknown kind " + echo(k) + " (one of: correct, speedup, counter)");
  }
  return g;
}

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
