// Reading a lab sheet's goals (lab_sheet.h): what each kind takes, checked against the catalog
// and the counter catalog.
#include <cmath>

#include "engine/core/echo.h"
#include "engine/counters/counter_catalog.h"
#include "engine/experiment/grammar.h"
#include "report/lab_sheet_fields.h"

namespace rl::lab_detail {

namespace {

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

}  // namespace

bool built_in(const VariantInfo* v) {
  const std::vector<VariantInfo>& c = catalog();
  return v && !c.empty() && v >= &c.front() && v <= &c.back();
}

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

namespace {

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

}  // namespace

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

}  // namespace rl::lab_detail
