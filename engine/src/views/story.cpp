#include "engine/views/story.h"

#include <algorithm>
#include <set>

#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/presets.h"
#include "engine/report/counters_text.h"
#include "engine/report/format.h"
#include "engine/report/time_basis.h"
#include "engine/user/user_kernel.h"
#include "io/json_bounded.h"
#include "io/json_read.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

using json::type_name;

// Reads one object's fields by name, every error naming where: "steps[2].caption: ...".
class Fields {
 public:
  Fields(const Json& j, std::string where, std::vector<std::string_view> known)
      : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) fail(where_, "expected an object, got " + type_name(j_));
    for (const auto& [key, value] : j_.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string list;
      for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(at(key), "unknown field (a story's fields: " + list + ")");
    }
  }
  std::string at(std::string_view key) const { return json::join(where_, key); }
  [[noreturn]] static void fail(const std::string& where, const std::string& why) {
    json::fail(where, why);
  }
  const Json* find(std::string_view key) const { return json::find(j_, key); }
  std::optional<std::string> text(std::string_view key, bool required) const {
    const Json* v = find(key);
    if (!v) {
      if (required) fail(at(key), "missing (a string is needed)");
      return std::nullopt;
    }
    if (!v->is_string()) fail(at(key), "expected a string, got " + type_name(*v));
    return v->get<std::string>();
  }
  std::optional<int> integer(std::string_view key) const {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_number_integer() || v->get<double>() < 0 || v->get<double>() > 1 << 20)
      fail(at(key), "expected a whole number from 0 to 1048576, got " +
                        (v->is_number() ? v->dump() : type_name(*v)));
    return v->get<int>();
  }

 private:
  const Json& j_;
  std::string where_;
};

std::string nonblank(const Fields& f, std::string_view key, std::size_t max_chars) {
  std::string s = *f.text(key, true);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    Fields::fail(f.at(key), "empty (write what this step shows)");
  if (s.size() > max_chars)
    Fields::fail(f.at(key), std::to_string(s.size()) + " characters; at most " +
                                std::to_string(max_chars) + " fit on a slide");
  return s;
}

Workspace workspace_of(const Fields& f, std::string_view key, const std::string& text) {
  const std::optional<Workspace> w = parse_workspace(text);
  if (!w) Fields::fail(f.at(key), echo(text) + " (expected global, shared or registers)");
  return *w;
}

LadderChoice choice_of(const Fields& f, std::string_view key, const std::string& text) {
  std::string why;
  const std::optional<LadderChoice> c = parse_ladder_choice(text, &why);
  if (!c) Fields::fail(f.at(key), why);
  return *c;
}

// The classic ladder's experiment (the `ladder` preset): where a story without a setting is
// measured.
LadderChoice seed_setting() {
  const ExperimentSpec& s = find_preset("ladder")->spec;
  return {s.sizes.front(), s.types.front(), s.block_sizes.front()};
}

// A step's own kernel file, relative to the story's folder: read and checked against the user
// kernels' contract and registered, so the catalog knows its name from here on.
UserKernelSource step_kernel(const Fields& f, const std::string& file, const std::string& name,
                             const std::string& base_dir) {
  if (file.empty()) Fields::fail(f.at("kernel"), "empty (a .cu file beside the story)");
  const std::string path = file.front() == '/' || base_dir.empty() ? file : base_dir + "/" + file;
  UserKernelSource k;
  try {
    k = read_user_kernel_file(path, name);
  } catch (const Error& e) {
    Fields::fail(f.at("kernel"), e.what());
  }
  if (const std::string why = register_user_kernel(k); !why.empty())
    Fields::fail(f.at("kernel"), why);
  return k;
}

// A rows and columns variant's matrix ("shape": "4096x4096"), which sets the point's N; the
// whole-array variants take none.
void read_shape(const Fields& f, const VariantInfo& v, PointSpec& point) {
  const std::optional<std::string> text = f.text("shape", false);
  if (!v.is_segmented()) {
    if (text)
      Fields::fail(f.at("shape"),
                   v.id + " sums a whole array; only the rows and columns variants take a shape");
    return;
  }
  if (!text)
    Fields::fail(f.at("shape"), "missing: " + v.id +
                                    " sums the rows or columns of a matrix; give its rows x "
                                    "cols, e.g. \"4096x4096\"");
  MatrixShape m;
  std::string why;
  if (!parse_shape(*text, &m, &why)) Fields::fail(f.at("shape"), why);
  point.rows = m.rows;
  point.cols = m.cols;
  point.size = m.rows * m.cols;
}

StoryStep read_step(const Json& j, const std::string& where, const LadderChoice& story_setting,
                    std::optional<Workspace> story_workspace, const std::string& base_dir) {
  const Fields f(j, where,
                 {"title", "caption", "variant", "kernel", "unroll", "workspace", "setting",
                  "shape", "counter"});
  StoryStep step;
  const std::optional<std::string> kernel_file = f.text("kernel", false);
  std::string name = f.text("variant", !kernel_file).value_or("");
  if (kernel_file) {
    step.user_kernel = step_kernel(f, *kernel_file, name, base_dir);
    name = step.user_kernel->name;
  }
  const std::optional<VariantRef> ref = resolve_variant(name);
  if (!ref)
    Fields::fail(f.at("variant"), "unknown variant " + echo(name) +
                                      " (reductionlab-cli variants lists them; ids or the "
                                      "classic names such as reduceUnroll8)");
  const VariantInfo& v = *ref->variant;
  step.point.variant = v.id;

  int unroll = ref->unroll.value_or(v.default_unroll);
  if (const std::optional<int> u = f.integer("unroll")) {
    if (ref->unroll && *u != *ref->unroll)
      Fields::fail(f.at("unroll"), std::to_string(*u) + " contradicts " + echo(name));
    unroll = *u;
  }
  if (!v.takes_unroll(unroll))
    Fields::fail(f.at("unroll"), v.id + " does not take unroll " + std::to_string(unroll));
  step.point.unroll = unroll;

  if (const std::optional<std::string> w = f.text("workspace", false)) {
    step.point.workspace = workspace_of(f, "workspace", *w);
    if (!v.takes_workspace(step.point.workspace))
      Fields::fail(f.at("workspace"), v.id + " does not run in " + echo(*w) + " memory");
  } else {
    // The story's workspace where the variant has it (the classic ladder's rungs), else its own
    // (the register-only kernels past the classic ladder).
    step.point.workspace = story_workspace && v.takes_workspace(*story_workspace)
                               ? *story_workspace
                               : v.workspaces.front();
  }

  LadderChoice setting = story_setting;
  if (const std::optional<std::string> s = f.text("setting", false)) {
    const LadderChoice own = choice_of(f, "setting", *s);
    if (own.size && v.is_segmented())
      Fields::fail(f.at("setting"), "N: " + v.id + " takes no N; its \"shape\" sets the matrix");
    if (own.size) setting.size = own.size;
    if (own.block) setting.block = own.block;
    if (own.type) setting.type = own.type;
  }
  step.point.size = *setting.size;
  step.point.type = *setting.type;
  read_shape(f, v, step.point);
  const std::string setting_where = f.find("setting") ? f.at("setting") : "setting";
  if (std::find(v.types.begin(), v.types.end(), step.point.type) == v.types.end())
    Fields::fail(setting_where, v.id + " does not take " + std::string(to_string(step.point.type)));
  if (v.block_sizes.empty()) {
    step.point.block_size = 0;  // picks its own, as the session records it
  } else {
    step.point.block_size = *setting.block;
    if (!v.takes_block_size(step.point.block_size))
      Fields::fail(setting_where,
                   v.id + " does not take block size " + std::to_string(step.point.block_size));
  }

  step.caption = nonblank(f, "caption", kMaxCaptionChars);
  step.title = f.find("title") ? nonblank(f, "title", 60) : v.seed_label(unroll);
  step.counter = f.text("counter", false).value_or("barrier_stall");
  if (!find_counter(step.counter)) {
    std::string ids;
    for (const CounterInfo& c : counter_catalog())
      ids += (ids.empty() ? "" : ", ") + std::string(c.id);
    Fields::fail(f.at("counter"),
                 "unknown counter " + echo(step.counter) + " (one of: " + ids + ")");
  }
  step.counter = std::string(find_counter(step.counter)->id);
  return step;
}

Story read_story(const Json& root, const std::string& base_dir) {
  const Fields f(
      root, "",
      {"version", "title", "subtitle", "setting", "workspace", "time", "animation_block", "steps"});
  if (const std::optional<int> version = f.integer("version"); version && *version != kStoryVersion)
    Fields::fail("version", std::to_string(*version) + ": this build reads story version " +
                                std::to_string(kStoryVersion));
  Story story;
  story.title = nonblank(f, "title", 120);
  story.subtitle = f.text("subtitle", false).value_or("");
  if (story.subtitle.size() > 200) Fields::fail("subtitle", "more than 200 characters");
  LadderChoice setting = seed_setting();
  if (const std::optional<std::string> s = f.text("setting", false)) {
    const LadderChoice own = choice_of(f, "setting", *s);
    if (own.size) setting.size = own.size;
    if (own.block) setting.block = own.block;
    if (own.type) setting.type = own.type;
  }
  std::optional<Workspace> workspace;
  if (const std::optional<std::string> w = f.text("workspace", false))
    workspace = workspace_of(f, "workspace", *w);
  if (const std::optional<std::string> t = f.text("time", false)) {
    const std::optional<TimeBasis> b = parse_time_basis(*t);
    if (!b) Fields::fail("time", echo(*t) + " (expected whole, gpu or first)");
    story.time = *b;
  }
  if (const std::optional<int> b = f.integer("animation_block")) {
    if (!is_block_size(*b))
      Fields::fail("animation_block", std::to_string(*b) + " (a power of two from 32 to 1024)");
    story.animation_block = *b;
  }
  const Json* steps = f.find("steps");
  if (!steps) Fields::fail("steps", "missing (a list of steps is needed)");
  if (!steps->is_array()) Fields::fail("steps", "expected a list, got " + type_name(*steps));
  if (steps->empty()) Fields::fail("steps", "empty: a story needs at least one step");
  if (steps->size() > kMaxStorySteps)
    Fields::fail("steps", std::to_string(steps->size()) + " steps; at most " +
                              std::to_string(kMaxStorySteps));
  for (std::size_t i = 0; i < steps->size(); ++i) {
    const std::string where = "steps[" + std::to_string(i) + "]";
    StoryStep step = read_step((*steps)[i], where, setting, workspace, base_dir);
    for (std::size_t k = 0; k < story.steps.size(); ++k)
      if (story.steps[k].point == step.point)
        Fields::fail(where, "the same point as steps[" + std::to_string(k) + "] (" +
                                step.point.label() + "): each step is another rung");
    story.steps.push_back(std::move(step));
  }
  return story;
}

std::string counter_name(std::string_view id) {
  std::string s(id);
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

// The counter's value as every front end writes it, unit included (counters_text.h:
// "5.36M instructions", "44.1%").
std::string value_with_unit(const CounterInfo& c, double v) {
  return counter_value_text(c.metric, v);
}

std::optional<double> counter_of(const PointResult* r, const CounterInfo& c) {
  const KernelCounters* k = r && r->counters ? r->counters->headline() : nullptr;
  return k ? k->value(c.metric) : std::nullopt;
}

// `source`: where the counter comes from when not from the step's own point ("" when it does).
StoryCounter resolve_counter(const StoryStep& step, const PointResult* r,
                             const PointResult* previous, const std::string& source) {
  const CounterInfo& c = *find_counter(step.counter);
  StoryCounter out;
  out.id = step.counter;
  out.meaning = std::string(c.meaning);
  out.value = counter_of(r, c);
  out.previous = counter_of(previous, c);
  const std::string name = counter_name(c.id);
  if (!out.value) {
    std::string why = "not measured";
    if (!r)
      why += " (no point for this step)";
    else if (r->counters && !r->counters->note.empty())
      why += " (" + r->counters->note + ")";
    else if (!r->counters)
      why += " (this point was run without --counters)";
    out.text = name + ": " + why;
    return out;
  }
  out.text = name + " " + value_with_unit(c, *out.value);
  // A value whose profiled launches moved more than the rule allows says so where it is read.
  const KernelCounters* k = r->counters ? r->counters->headline() : nullptr;
  if (const auto range = k ? k->range(c.metric) : std::nullopt;
      range && !counter_steady(c.metric, *range))
    out.text += " (unsteady: " + value_with_unit(c, range->lo) + " to " +
                value_with_unit(c, range->hi) + " over its profiled launches)";
  if (out.previous) out.text += " (previous step " + value_with_unit(c, *out.previous) + ")";
  if (!source.empty()) out.text += " [" + source + "]";
  out.text += ": " + out.meaning;
  return out;
}

StoryCode resolve_code(const Story& story, std::size_t i, const SourceDiffer& differ) {
  const StoryStep& step = story.steps[i];
  StoryCode out;
  if (const VariantInfo* v = find_variant_by_id(step.point.variant))
    out.explanation = v->explanation;
  if (i == 0) {
    out.note = "the first step";
    return out;
  }
  const StoryStep& prev = story.steps[i - 1];
  out.from = prev.title;
  if (!differ) {
    out.note = "no source in this build";
    return out;
  }
  std::string why;
  const std::optional<std::vector<code::DiffLine>> diff = differ(prev.point, step.point, &why);
  if (!diff) {
    out.note = why.empty() ? "no source for this kernel" : why;
    return out;
  }
  // Code lines only: the comments above a kernel say what the caption says, and on a slide
  // they would push the changed code out of sight.
  std::vector<code::DiffLine> code_lines;
  for (const code::DiffLine& d : *diff) {
    const std::size_t first = d.text.find_first_not_of(" \t");
    if (first != std::string::npos && d.text.compare(first, 2, "//") == 0) continue;
    code_lines.push_back(d);
    out.added += d.kind == code::DiffLine::Kind::Added;
    out.removed += d.kind == code::DiffLine::Kind::Removed;
  }
  if (out.added + out.removed == 0) {
    // One template at another shape (reduceUnroll2 -> reduceUnroll4): say what moved.
    std::string moved;
    auto change = [&](const std::string& what, const std::string& a, const std::string& b) {
      if (a != b) moved += (moved.empty() ? "" : ", ") + what + " " + a + " -> " + b;
    };
    change("U", std::to_string(prev.point.unroll), std::to_string(step.point.unroll));
    change("workspace", std::string(to_string(prev.point.workspace)),
           std::string(to_string(step.point.workspace)));
    change("B", std::to_string(prev.point.block_size), std::to_string(step.point.block_size));
    change("N", format_size(prev.point.size), format_size(step.point.size));
    change("type", std::string(to_string(prev.point.type)),
           std::string(to_string(step.point.type)));
    out.note = "the same source as " + prev.title + (moved.empty() ? "" : "; only " + moved);
    return out;
  }
  out.lines = diff_hunks(code_lines, 1);
  return out;
}

}  // namespace

Story parse_story(std::string_view json_text, const std::string& source,
                  const std::string& base_dir) {
  const std::string prefix = source.empty() ? "" : source + ": ";
  if (json_text.size() > kMaxStoryBytes)
    throw Error(prefix + "the file is " + std::to_string(json_text.size()) +
                " bytes; a story is at most " + std::to_string(kMaxStoryBytes));
  try {
    return read_story(parse_json_bounded(json_text), base_dir);
  } catch (const Error& e) {
    throw Error(prefix + e.what());
  }
}

std::vector<code::DiffLine> diff_hunks(const std::vector<code::DiffLine>& diff, int context) {
  const int n = int(diff.size());
  std::vector<bool> keep(diff.size(), false);
  for (int i = 0; i < n; ++i) {
    if (diff[i].kind == code::DiffLine::Kind::Same) continue;
    for (int k = std::max(0, i - context); k <= std::min(n - 1, i + context); ++k) keep[k] = true;
  }
  std::vector<code::DiffLine> out;
  for (int i = 0; i < n; ++i) {
    if (keep[i]) {
      out.push_back(diff[i]);
    } else if (out.empty() || out.back().text != "...") {
      code::DiffLine gap;
      gap.text = "...";
      out.push_back(gap);
    }
  }
  return out;
}

ResolvedStory resolve_story(const Story& story, const Session& session,
                            const std::vector<LivePoint>& live, const SourceDiffer& differ) {
  ResolvedStory out;
  out.title = story.title;
  out.subtitle = story.subtitle;
  out.time = story.time;
  out.session_device = session.device.name;
  std::vector<const PointResult*> points;
  for (std::size_t i = 0; i < story.steps.size(); ++i) {
    const StoryStep& step = story.steps[i];
    ResolvedStep r;
    r.step = step;
    const PointResult* point = nullptr;
    const PointResult* in_session = nullptr;
    for (const LivePoint& l : live)
      if (l.result.point == step.point) {
        point = &l.result, r.live = true, r.device = l.device.name;
      }
    for (const PointResult& p : session.results)
      if (p.point == step.point) in_session = &p;
    if (!point && in_session) point = in_session, r.device = session.device.name;
    // A live run takes no counters: the session's own, said to be the session's.
    const PointResult* counted = point;
    std::string counter_source;
    if (r.live && !point->counters && in_session && in_session->counters) {
      counted = in_session;
      counter_source = "the session's run on " + session.device.name + "; the live run took none";
    }
    points.push_back(counted);
    if (!point) {
      r.missing = "not measured in this session (" + step.point.label() + ")";
    } else if (point->status == PointStatus::Wrong) {
      r.missing = "wrong result: never shown as a speed-up (" + point->message + ")";
    } else if (point->status != PointStatus::Ok) {
      r.missing = std::string(to_string(point->status)) + ": " + point->message;
    } else if (const Summary* t = basis_time(*point, story.time); t && t->median_ms > 0) {
      r.time_ms = t->median_ms;
      r.noisy = point->noisy;
    } else {
      r.missing = "no " + time_basis_name(story.time) + " for this point";
    }
    r.code = resolve_code(story, i, differ);
    r.counter = resolve_counter(step, counted, i > 0 ? points[i - 1] : nullptr, counter_source);
    out.steps.push_back(std::move(r));
  }
  // Speed-ups: between two verified times measured on the same device only.
  auto ratio = [&](const ResolvedStep& from, const ResolvedStep& to, std::string* why) {
    std::optional<double> s;
    if (!from.time_ms || !to.time_ms)
      *why = from.time_ms ? "this step has no time" : "no time to compare with";
    else if (from.device != to.device)
      *why = "measured on " + from.device + " and " + to.device + ": not compared";
    else
      s = *from.time_ms / *to.time_ms;
    return s;
  };
  for (std::size_t i = 0; i < out.steps.size(); ++i) {
    ResolvedStep& r = out.steps[i];
    std::string why_step, why_first;
    r.cumulative_speedup = ratio(out.steps.front(), r, &why_first);
    if (i > 0) r.step_speedup = ratio(out.steps[i - 1], r, &why_step);
    r.speedup_note = !why_step.empty() ? why_step : why_first;
  }
  return out;
}

ExperimentSpec story_step_spec(const StoryStep& step, const TimingOptions& timing) {
  ExperimentSpec s;
  s.variants = {step.point.variant};
  s.workspaces = {step.point.workspace};
  // A variant that picks its own block size is recorded as 0; any valid size asks for it.
  s.block_sizes = {step.point.block_size ? step.point.block_size : 1024};
  s.unroll_factors = {step.point.unroll};
  if (step.point.is_matrix())
    s.shapes = {{step.point.rows, step.point.cols}};
  else
    s.sizes = {step.point.size};
  s.types = {step.point.type};
  s.timing = timing;
  s.baseline = step.point.variant;
  if (step.user_kernel) s.user_kernels = {*step.user_kernel};
  return s;
}

std::string story_source_line(const ResolvedStory& story, std::size_t index) {
  const ResolvedStep& r = story.steps.at(index);
  std::string line = time_basis_name(story.time);
  if (!r.device.empty()) line += (r.live ? ", measured live on " : ", measured on ") + r.device;
  return line + " · " + r.step.point.label();
}

std::string story_numbers_line(const ResolvedStory& story, std::size_t index) {
  const ResolvedStep& r = story.steps.at(index);
  if (!r.time_ms) return r.missing;
  std::string line = format_time_ms(*r.time_ms);
  if (r.noisy) line += " (noisy)";
  if (r.live) line += " live";
  if (index > 0)
    line += " · " + (r.step_speedup ? format_speedup(r.step_speedup) + " over the previous step"
                                    : std::string("no speed-up over the previous step"));
  if (index > 0 && r.cumulative_speedup)
    line += " · " + format_speedup(r.cumulative_speedup) + " over the first";
  if (!r.speedup_note.empty() && index > 0) line += " (" + r.speedup_note + ")";
  return line;
}

}  // namespace rl
