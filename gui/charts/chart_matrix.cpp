// The rows and columns charts: time against the row length N at one total M x N (one line per
// strategy), and the strategy maps (the fastest row or column sum at every measured shape,
// labelled with its margin over the runner-up). Matrix points only (PointSpec::is_matrix).
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "charts/chart_builders_internal.h"
#include "charts/palette.h"
#include "engine/catalog/catalog.h"
#include "engine/session/metrics.h"
#include "format.h"

namespace rl::gui {

using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

namespace detail {

QColor strategy_color(const std::string& id) {
  int index = 0;
  for (const VariantInfo& v : catalog()) {
    if (v.family != VariantFamily::RowsAndColumns) continue;
    if (v.id == id) return charts::palette_color(index);
    ++index;
  }
  return charts::palette_color(index);
}

std::set<std::uint64_t> exact_totals(const Session& s) {
  std::set<std::uint64_t> out;
  for (const PointResult& r : s.results)
    if (r.point.is_matrix()) out.insert(r.point.rows * r.point.cols);
  return out;
}

// The total of the sweep a matrix point belongs to: its own M x N, or, for a width that does not
// divide a sweep's total (rows rounded down), the largest measured total T with T / N = M.
std::uint64_t total_of(const PointSpec& p, const std::set<std::uint64_t>& totals) {
  for (auto t = totals.rbegin(); t != totals.rend(); ++t)
    if (*t % p.cols != 0 && *t / p.cols == p.rows) return *t;
  return p.rows * p.cols;
}

std::optional<DType> drawn_type(const Session& s) {
  std::optional<DType> type;
  for (const PointResult& r : s.results)
    if (r.point.is_matrix() && (!type || r.point.type == DType::Int32)) type = r.point.type;
  return type;
}

QString no_matrix_hint() {
  return "No matrix points in this session.\nPick the preset \"Rows and columns\" in "
         "the Experiment panel and press Run (Ctrl+R), or run\nreductionlab-cli run --preset "
         "rows-and-columns --json rows.json and open that file.";
}

}  // namespace detail

namespace {

// Where the % of the read floor view can be drawn: a shown session that measured floors.
void offer_pct_of_floor(Chart& c, const std::vector<ShownSession>& ss) {
  bool any = false;
  for (const ShownSession& s : ss) any = any || !s.session->read_floors.empty();
  c.pct_of_limit_available = any;
  c.pct_of_limit_note =
      any ? QString("Each point as % of the read floor its session measured at its bytes")
          : QString("unavailable: no session shown measured a read floor (host runs have none)");
}

}  // namespace

namespace detail {
const Summary* time_of(const PointResult& r, TimeBasis basis) {
  const Summary* t = basis_time(r, basis);
  return t && t->median_ms > 0 ? t : nullptr;
}
}  // namespace detail

bool matrices_only(const Session& s) {
  return !s.results.empty() &&
         std::all_of(s.results.begin(), s.results.end(),
                     [](const PointResult& r) { return r.point.is_matrix(); });
}

bool matrices_only(const ExperimentSpec& spec) {
  const std::vector<PointSpec> points = expand(spec);
  return !points.empty() && std::all_of(points.begin(), points.end(),
                                        [](const PointSpec& p) { return p.is_matrix(); });
}

std::vector<std::uint64_t> matrix_totals(const Session& s) {
  const std::set<std::uint64_t> exact = detail::exact_totals(s);
  std::map<std::uint64_t, int> count;
  for (const PointResult& r : s.results)
    if (r.point.is_matrix()) ++count[detail::total_of(r.point, exact)];
  std::vector<std::uint64_t> out;
  for (const auto& [t, n] : count)
    if (n >= 1) out.push_back(t);
  return out;
}

std::optional<std::uint64_t> drawn_matrix_total(const Session& s,
                                                std::optional<std::uint64_t> chosen) {
  const std::set<std::uint64_t> exact = detail::exact_totals(s);
  std::map<std::uint64_t, int> count;
  for (const PointResult& r : s.results)
    if (r.point.is_matrix()) ++count[detail::total_of(r.point, exact)];
  if (chosen && count.count(*chosen)) return chosen;
  std::optional<std::uint64_t> best;
  for (const auto& [t, n] : count)
    if (!best || n > count[*best]) best = t;
  return best;
}

namespace detail {

namespace {

struct Line {
  int session = 0;
  PointSpec proto;  // unroll 0: the line joins each width's own factor
  std::vector<const PointResult*> points;
};

// A strategy's configuration in one shown session: (session, variant, workspace, block).
using LineKey = std::tuple<int, std::string, int, int>;

// Each shown session's drawable matrix points of one type at the sweep of total `at`.
std::vector<std::vector<const PointResult*>> drawn_points(const std::vector<ShownSession>& ss,
                                                          DType type, std::uint64_t at) {
  std::vector<std::vector<const PointResult*>> out(ss.size());
  for (std::size_t si = 0; si < ss.size(); ++si) {
    const std::set<std::uint64_t> exact = exact_totals(*ss[si].session);
    for (const PointResult& r : ss[si].session->results) {
      const PointSpec& p = r.point;
      if (!p.is_matrix() || p.type != type || total_of(p, exact) != at) continue;
      if (r.status == PointStatus::Ok || r.status == PointStatus::Wrong) out[si].push_back(&r);
    }
  }
  return out;
}

// The configurations that ran one factor at each width, but not the same at every width (a
// default that depends on the width): one line each, not one per factor.
std::set<LineKey> unroll_by_width(const std::vector<std::vector<const PointResult*>>& drawn) {
  std::map<LineKey, std::map<std::uint64_t, std::set<int>>> factors;
  for (int si = 0; si < int(drawn.size()); ++si)
    for (const PointResult* r : drawn[size_t(si)]) {
      const PointSpec& p = r->point;
      factors[{si, p.variant, int(p.workspace), p.block_size}][p.cols].insert(p.unroll);
    }
  std::set<LineKey> out;
  for (const auto& [key, by_cols] : factors) {
    std::set<int> all;
    bool one_each = true;
    for (const auto& [cols, us] : by_cols) {
      one_each = one_each && us.size() == 1;
      all.insert(us.begin(), us.end());
    }
    if (one_each && all.size() > 1) out.insert(key);
  }
  return out;
}

}  // namespace

Chart row_length_chart(const QString& id, const std::vector<ShownSession>& ss, TimeBasis basis,
                       std::optional<std::uint64_t> total, bool pct) {
  Chart c;
  c.id = id;
  c.title = "Time against the row length N, at a fixed total M x N";
  c.x = {"row length N (columns; M = total / N rows)", "row length N", AxisScale::Log2,
         charts::TickStyle::PowerOfTwo};
  c.y = {qtext::time_axis_title(basis, "ms"), "time (ms)", AxisScale::Auto};
  const Session* primary = ss.empty() ? nullptr : ss.front().session;
  const std::optional<DType> type = primary ? drawn_type(*primary) : std::nullopt;
  const std::optional<std::uint64_t> at =
      primary ? drawn_matrix_total(*primary, total) : std::nullopt;
  if (!type || !at) {
    c.empty_hint = has_results(ss) ? no_matrix_hint() : no_results_hint(ss);
    return c;
  }
  offer_pct_of_floor(c, ss);
  pct = pct && c.pct_of_limit_available;
  // Microseconds where every median is under a millisecond: "0.00" ticks say nothing.
  double slowest = 0;
  for (const PointResult& r : primary->results)
    if (r.point.is_matrix())
      if (const Summary* t = time_of(r, basis)) slowest = std::max(slowest, t->median_ms);
  const double unit = slowest < 1 ? 1000 : 1;
  if (unit > 1) c.y = {qtext::time_axis_title(basis, "µs"), "time (µs)", AxisScale::Auto};
  const std::vector<std::vector<const PointResult*>> drawn = drawn_points(ss, *type, *at);
  const std::set<LineKey> by_width = unroll_by_width(drawn);
  std::map<std::tuple<LineKey, int>, Line> lines;
  std::map<std::string, std::set<std::tuple<int, int, int>>> configs;
  int missing_floor = 0;
  for (int si = 0; si < int(drawn.size()); ++si) {
    for (const PointResult* r : drawn[size_t(si)]) {
      const PointSpec& p = r->point;
      const LineKey key{si, p.variant, int(p.workspace), p.block_size};
      // 0: one line through each width's own factor (the variant's default by width).
      const int unroll = by_width.count(key) ? 0 : p.unroll;
      Line& l = lines[{key, unroll}];
      l.session = si;
      l.proto = p;
      l.proto.unroll = unroll;
      l.points.push_back(r);
      configs[p.variant].insert({int(p.workspace), p.block_size, unroll});
    }
  }
  for (auto& [key, l] : lines) {
    Series s;
    s.name = QString::fromStdString(l.proto.variant);
    if (configs[l.proto.variant].size() > 1) {
      s.name +=
          QString(" %1 B=%2").arg(ws_name(l.proto.workspace), block_size_text(l.proto.block_size));
      if (l.proto.unroll) s.name += QString(" U=%1").arg(l.proto.unroll);
    }
    if (l.session > 0) s.name += " · " + ss[size_t(l.session)].label;
    s.color = strategy_color(l.proto.variant);
    s.dashed = l.session > 0;
    for (const PointResult* r : l.points) {
      const Summary* t = time_of(*r, basis);
      if (!t) continue;
      Point pt;
      pt.x = double(r->point.cols);
      if (pct) {
        const ReadFloor* f =
            find_read_floor(ss[size_t(l.session)].session->read_floors, input_bytes(r->point));
        const auto v = f ? pct_of_read_floor(*r, *f, basis) : std::nullopt;
        if (!v) {
          ++missing_floor;
          continue;
        }
        pt.y = *v;
      } else {
        pt.y = t->median_ms * unit;
        // No min-max band: one slow sample (a CPU's, a GPU's first) would set the axis and
        // flatten every line; the tooltip gives the spread.
      }
      pt.wrong = r->status == PointStatus::Wrong;
      pt.noisy = r->noisy;
      pt.tooltip = qtext::point_details(*r, *ss[size_t(l.session)].session, primary->spec.baseline);
      pt.source = r->point;
      s.points.append(pt);
    }
    c.series.append(s);
  }
  if (pct) {
    c.pct_of_limit = true;
    c.title = "Time against the row length N, as % of the read floor";
    c.y = {"% of the read floor (at each shape's bytes)", "% of floor", AxisScale::Linear};
    if (missing_floor > 0)
      c.warnings
          << QString("%1 point(s) not drawn: no read floor at their size").arg(missing_floor);
  }
  c.subtitle =
      QString("%1 · M x N = %2 · %3 · %4")
          .arg(device_part(ss), format_size(*at), type_name(*type), qtext::time_basis_name(basis));
  const std::vector<std::uint64_t> totals = matrix_totals(*primary);
  if (totals.size() > 1)
    c.subtitle += QString(" · 1 of %1 totals (Total above the charts)").arg(totals.size());
  return c;
}

}  // namespace detail

}  // namespace rl::gui
