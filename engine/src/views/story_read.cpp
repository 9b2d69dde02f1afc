#include "engine/views/story.h"

#include <algorithm>

#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/presets.h"
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

  std::optional<int> unroll = ref->unroll;
  if (const std::optional<int> u = f.integer("unroll")) {
    if (ref->unroll && *u != *ref->unroll)
      Fields::fail(f.at("unroll"), std::to_string(*u) + " contradicts " + echo(name));
    unroll = *u;
  }

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
  // The variant's default at this width and block, as a run of the step's shape uses it.
  step.point.unroll = unroll.value_or(v.default_unroll_at(step.point.cols, step.point.block_size));
  if (!v.takes_unroll(step.point.unroll))
    Fields::fail(f.at("unroll"),
                 v.id + " does not take unroll " + std::to_string(step.point.unroll));

  step.caption = nonblank(f, "caption", kMaxCaptionChars);
  step.title = f.find("title") ? nonblank(f, "title", 60) : v.seed_label(step.point.unroll);
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

}  // namespace rl
