#include "engine/views/story.h"

#include <algorithm>

#include "engine/core/error.h"
#include "engine/counters/counter_catalog.h"
#include "engine/report/counters_text.h"
#include "engine/report/format.h"
#include "engine/report/time_basis.h"
#include "engine/user/user_kernel.h"

namespace rl {

namespace {

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
