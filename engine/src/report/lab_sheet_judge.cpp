// Judging a lab sheet's goals on a session (lab_sheet.h): only the session's numbers, and a
// point that gave a wrong result or failed never meets a goal.
#include <algorithm>

#include "engine/counters/counter_catalog.h"
#include "engine/experiment/grammar.h"
#include "engine/report/counters_text.h"
#include "engine/report/format.h"
#include "engine/report/lab_sheet.h"
#include "engine/session/metrics.h"

namespace rl {

namespace {

// "N=2^24 int32 B=1024 U=8 shared": the unroll factor when it is not 1, the workspace when it
// is not global (a user kernel's is always global).
std::string point_text(const PointSpec& p) {
  std::string s = "N=" + format_size(p.size) + " " + std::string(to_string(p.type)) +
                  " B=" + block_size_text(p.block_size);
  if (p.unroll != 1) s += " U=" + std::to_string(p.unroll);
  if (p.workspace != Workspace::Global) s += " " + std::string(to_string(p.workspace));
  return s;
}

std::string where_suffix(const LabGoal& g) {
  const std::string w = g.where.text();
  return w.empty() ? "" : " at " + w;
}

std::string speedup_text(double s) {
  return format_speedup(s, Glyphs::Ascii);
}

std::string counter_words(std::string_view id) {
  std::string s(id);
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

std::string bounds_text(const LabGoal& g, std::string_view metric) {
  std::string s;
  if (g.at_least) s += "at least " + counter_value_text(metric, *g.at_least);
  if (g.at_most)
    s += (s.empty() ? "" : " and ") + ("at most " + counter_value_text(metric, *g.at_most));
  return s;
}

// The goal's number alone, for the end of a sentence: "1.50x", "at least 99.0%".
std::string goal_number(const LabGoal& g) {
  if (g.kind == LabGoalKind::Speedup) return speedup_text(*g.at_least);
  if (g.kind == LabGoalKind::Counter) return bounds_text(g, find_counter(g.counter)->metric);
  return "correct";
}

// One point's measure against the goal: its value (none, with why) and whether it meets it.
struct Measure {
  const PointResult* point = nullptr;
  std::optional<double> value;
  bool met = false;
  std::string text;  // "2.31x reduceNeighbored (115.5 µs against 268.6 µs)", or why there is none
};

Measure speedup_measure(const LabGoal& g, const Session& s, const PointResult& r) {
  Measure m;
  m.point = &r;
  const std::string against = variant_label(g.against, g.against_unroll);
  if (r.point.variant == g.against) {
    m.text = "it is " + against + " itself: nothing to compare with";
    return m;
  }
  // The against variant's points the goal admits: its unroll factor, and the same block size
  // where both have one; among them the engine's baseline rule picks (find_baseline).
  std::vector<PointResult> candidates;
  std::vector<const PointResult*> originals;
  for (const PointResult& b : s.results) {
    if (b.point.variant != g.against || b.point.unroll != g.against_unroll) continue;
    if (b.point.block_size && r.point.block_size && b.point.block_size != r.point.block_size)
      continue;
    PointResult slim;
    slim.point = b.point;
    slim.status = b.status;
    candidates.push_back(slim);
    originals.push_back(&b);
  }
  const PointResult* base = nullptr;
  if (const PointResult* pick = find_baseline(candidates, r.point, g.against))
    base = originals[std::size_t(pick - candidates.data())];
  const Summary* t = basis_time(r, TimeBasis::Whole);
  const Summary* bt = base ? basis_time(*base, TimeBasis::Whole) : nullptr;
  if (!base) {
    m.text = "no verified " + against + " point at N=" + format_size(r.point.size) + " " +
             std::string(to_string(r.point.type)) +
             (r.point.block_size ? " B=" + std::to_string(r.point.block_size) : "") +
             " in this session to compare with";
  } else if (!t || t->median_ms <= 0 || !bt || bt->median_ms <= 0) {
    m.text = "no whole-reduction time to compare";
  } else {
    m.value = bt->median_ms / t->median_ms;
    m.met = *m.value >= *g.at_least;
    const std::string base_ws = base->point.workspace != r.point.workspace
                                    ? "/" + std::string(to_string(base->point.workspace))
                                    : "";
    m.text = speedup_text(*m.value) + " " + against + base_ws + " (" +
             format_time_ms(t->median_ms) + " against " + format_time_ms(bt->median_ms) + ")";
  }
  return m;
}

Measure counter_measure(const LabGoal& g, const PointResult& r) {
  const CounterInfo& c = *find_counter(g.counter);
  Measure m;
  m.point = &r;
  const KernelCounters* k = r.counters ? r.counters->headline() : nullptr;
  if (!k || !k->value(c.metric)) {
    const std::string why = !r.counters                 ? "run with counters to measure it"
                            : !r.counters->note.empty() ? r.counters->note
                                                        : "not read on this GPU";
    m.text = "no " + counter_words(c.id) + " (" + why + ")";
    return m;
  }
  m.value = *k->value(c.metric);
  m.met = (!g.at_least || *m.value >= *g.at_least) && (!g.at_most || *m.value <= *g.at_most);
  m.text = counter_words(c.id) + " " + counter_value_text(c.metric, *m.value);
  return m;
}

// The sentence for the point a judgement names: "myRung 2.31x reduceNeighbored (...) at
// N=2^24 int32 B=1024 (goal 1.50x): met".
std::string sentence(const std::string& rung, const Measure& m, const std::string& count,
                     const LabGoal& g, GoalVerdict v) {
  const std::string at = " at " + point_text(m.point->point);
  const std::string what = m.value ? " " + m.text + at : at + ": " + m.text;
  return rung + what + count + " (goal " + goal_number(g) + "): " + std::string(to_string(v));
}

// The verdict over the points: any wrong or failed point, or any measured miss, is not met;
// otherwise any point without a measure leaves it not measured yet.
GoalJudgement judge_goal(const LabGoal& g, const Session& s, const std::string& rung) {
  GoalJudgement out;
  std::vector<const PointResult*> points, skipped;
  for (const PointResult& r : s.results)
    if (r.point.variant == rung && g.where.matches(r.point))
      (r.status == PointStatus::Skipped ? skipped : points).push_back(&r);
  const std::string where = where_suffix(g);
  if (points.empty()) {
    out.sentence = rung + ": no point" + where + " in this session" +
                   (skipped.empty() ? "" : " (skipped: " + skipped.front()->message + ")") +
                   " (goal: " + describe_goal(g) + "): not measured yet";
    return out;
  }
  std::vector<const PointResult*> bad;
  for (const PointResult* r : points)
    if (r->status != PointStatus::Ok) bad.push_back(r);
  if (!bad.empty()) {
    for (const PointResult* r : bad)
      out.points.push_back(point_text(r->point) + ": " + std::string(to_string(r->status)) +
                           (r->message.empty() ? "" : " (" + r->message + ")"));
    const PointResult& first = *bad.front();
    out.verdict = GoalVerdict::NotMet;
    out.sentence =
        rung + " " + (first.status == PointStatus::Wrong ? "gave a wrong result" : "failed") +
        " at " + point_text(first.point) +
        (first.message.empty() ? "" : " (" + first.message + ")") +
        (bad.size() > 1 ? " and at " + std::to_string(bad.size() - 1) + " more" : "") + "; " +
        std::to_string(points.size() - bad.size()) + " of " + std::to_string(points.size()) +
        " points right (goal: " + describe_goal(g) + "): not met";
    return out;
  }
  if (g.kind == LabGoalKind::Correct) {
    for (const PointResult* r : points) out.points.push_back(point_text(r->point) + ": ok");
    out.verdict = GoalVerdict::Met;
    out.sentence = rung + " correct at " +
                   (points.size() == 1 ? "its " + point_text(points.front()->point) + " point"
                                       : "all " + std::to_string(points.size()) + " points") +
                   where + ": met";
    return out;
  }
  // Speed-up or counter: the sentence names the point furthest from the goal, or the first
  // without a measure when none misses.
  std::vector<Measure> measures;
  for (const PointResult* r : points)
    measures.push_back(g.kind == LabGoalKind::Speedup ? speedup_measure(g, s, *r)
                                                      : counter_measure(g, *r));
  const Measure* worst = nullptr;
  const Measure* unmeasured = nullptr;
  int misses = 0;
  const bool higher_is_better = g.kind == LabGoalKind::Speedup || g.at_least.has_value();
  for (const Measure& m : measures) {
    out.points.push_back(point_text(m.point->point) + ": " + m.text +
                         (!m.value ? ""
                          : m.met  ? ": meets " + goal_number(g)
                                   : ": misses " + goal_number(g)));
    if (!m.value) {
      if (!unmeasured) unmeasured = &m;
      continue;
    }
    misses += m.met ? 0 : 1;
    if (!worst || (!m.met && worst->met) ||
        (m.met == worst->met &&
         (higher_is_better ? *m.value < *worst->value : *m.value > *worst->value)))
      worst = &m;
  }
  out.verdict = misses > 0   ? GoalVerdict::NotMet
                : unmeasured ? GoalVerdict::NotMeasured
                             : GoalVerdict::Met;
  const Measure& named = out.verdict == GoalVerdict::NotMeasured ? *unmeasured : *worst;
  std::string count;
  if (points.size() > 1 && out.verdict == GoalVerdict::NotMet)
    count =
        ", " + std::to_string(misses) + " of " + std::to_string(points.size()) + " points short";
  else if (points.size() > 1 && out.verdict == GoalVerdict::Met)
    count = std::string(higher_is_better ? ", the least" : ", the most") + " of " +
            std::to_string(points.size()) + " points";
  out.sentence = sentence(rung, named, count, g, out.verdict);
  return out;
}

}  // namespace

bool LabPointFilter::matches(const PointSpec& p) const {
  return (!size || p.size == *size) && (!type || p.type == *type) &&
         (!block_size || p.block_size == *block_size) && (!unroll || p.unroll == *unroll);
}

std::string LabPointFilter::text() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
  if (size) add("N=" + format_size(*size));
  if (type) add(std::string(to_string(*type)));
  if (block_size) add("B=" + std::to_string(*block_size));
  if (unroll) add("U=" + std::to_string(*unroll));
  return s;
}

std::string describe_goal(const LabGoal& g) {
  switch (g.kind) {
    case LabGoalKind::Correct:
      return "correct at every point" + where_suffix(g);
    case LabGoalKind::Speedup:
      return "at least " + speedup_text(*g.at_least) + " " +
             variant_label(g.against, g.against_unroll) + where_suffix(g) + ", whole reduction";
    case LabGoalKind::Counter: {
      const CounterInfo& c = *find_counter(g.counter);
      return counter_words(c.id) + " " + bounds_text(g, c.metric) + where_suffix(g);
    }
  }
  return {};
}

std::string_view to_string(GoalVerdict v) {
  switch (v) {
    case GoalVerdict::Met:
      return "met";
    case GoalVerdict::NotMet:
      return "not met";
    case GoalVerdict::NotMeasured:
      return "not measured yet";
  }
  return "?";
}

std::vector<GoalJudgement> judge_lab_sheet(const LabSheet& sheet, const Session& session,
                                           const std::string& rung_id) {
  std::vector<GoalJudgement> out;
  for (const LabGoal& g : sheet.goals) out.push_back(judge_goal(g, session, rung_id));
  return out;
}

bool lab_sheet_met(const std::vector<GoalJudgement>& goals) {
  return !goals.empty() && std::all_of(goals.begin(), goals.end(), [](const GoalJudgement& j) {
    return j.verdict == GoalVerdict::Met;
  });
}

}  // namespace rl
