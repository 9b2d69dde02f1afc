// The strategy maps: at every shape M x N the primary session measured, the strategy with the
// fastest median (each variant at its best block size, workspace and unroll factor) as a cell
// in its colour, labelled with how much faster it is than the runner-up ("1.34x").
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "charts/chart_builders_internal.h"
#include "engine/catalog/catalog.h"
#include "format.h"

namespace rl::gui {

using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

namespace detail {

namespace {

struct Entry {
  const PointResult* r = nullptr;
  double ms = 0;
};

// Each variant's fastest Ok point at one shape, fastest first.
std::vector<Entry> ranked(const std::map<std::string, Entry>& best) {
  std::vector<Entry> out;
  for (const auto& [id, e] : best) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.ms < b.ms; });
  return out;
}

QString config_text(const PointSpec& p) {
  return QString("%1 B=%2 U=%3")
      .arg(ws_name(p.workspace), block_size_text(p.block_size))
      .arg(p.unroll);
}

Point cell(const std::vector<Entry>& order, DType type) {
  const PointSpec& w = order.front().r->point;
  Point pt;
  pt.x = double(w.cols);
  pt.y = double(w.rows);
  pt.source = w;
  pt.noisy = order.front().r->noisy;
  QStringList lines{QString("%1 %2: fastest %3 (%4), %5")
                        .arg(size_text(w), type_name(type), QString::fromStdString(w.variant),
                             config_text(w), format_time_ms(order.front().ms))};
  if (order.size() == 1) {
    pt.label = "only";
    lines << "the only strategy measured at this shape";
  } else {
    const double margin = order[1].ms / order.front().ms;
    pt.label = QString("%1x").arg(margin, 0, 'f', 2);
    for (size_t i = 1; i < order.size() && i < 6; ++i)
      lines << QString("%1. %2 %3: %4x slower")
                   .arg(i + 1)
                   .arg(QString::fromStdString(order[i].r->point.variant),
                        format_time_ms(order[i].ms))
                   .arg(order[i].ms / order.front().ms, 0, 'f', 2);
    if (order.front().r->noisy || order[1].r->noisy)
      lines << "noisy: a point did not reach its noise target; the margin may not hold";
  }
  pt.tooltip = lines.join('\n');
  return pt;
}

bool on_grid(const MatrixShape& m) {
  return (m.rows & (m.rows - 1)) == 0 && (m.cols & (m.cols - 1)) == 0;
}

// A shape off the powers of two whose cell would cover a measured neighbour on the grid (1000
// columns beside 1024): left off the map, named in a warning; the row length chart has it.
bool covers_neighbour(const MatrixShape& m, const std::vector<MatrixShape>& all) {
  if (on_grid(m)) return false;
  for (const MatrixShape& o : all)
    if (on_grid(o) && std::abs(std::log2(double(o.rows) / double(m.rows))) < 1 &&
        std::abs(std::log2(double(o.cols) / double(m.cols))) < 1)
      return true;
  return false;
}

}  // namespace

Chart strategy_map_chart(const QString& id, const std::vector<ShownSession>& ss, TimeBasis basis,
                         bool columns) {
  Chart c;
  c.id = id;
  const QString what = columns ? "column" : "row";
  c.title = QString("Strategy map: the fastest %1 sum at each shape").arg(what);
  c.x = {"columns N (row length)", "columns N", AxisScale::Log2, charts::TickStyle::PowerOfTwo};
  c.y = {"rows M", "rows M", AxisScale::Log2, charts::TickStyle::PowerOfTwo};
  const Session* primary = ss.empty() ? nullptr : ss.front().session;
  const std::optional<DType> type = primary ? drawn_type(*primary) : std::nullopt;
  if (!type) {
    c.empty_hint = has_results(ss) ? no_matrix_hint() : no_results_hint(ss);
    return c;
  }
  const Reduces reduces = columns ? Reduces::Columns : Reduces::Rows;
  std::map<MatrixShape, std::map<std::string, Entry>> best;
  int wrong = 0;
  for (const PointResult& r : primary->results) {
    const PointSpec& p = r.point;
    const VariantInfo* v = find_variant_by_id(p.variant);
    if (!p.is_matrix() || p.type != *type || !v || v->reduces != reduces) continue;
    if (r.status == PointStatus::Wrong) ++wrong;
    const Summary* t = time_of(r, basis);
    if (r.status != PointStatus::Ok || !t) continue;
    Entry& e = best[{p.rows, p.cols}][p.variant];
    if (!e.r || t->median_ms < e.ms) e = {&r, t->median_ms};
  }
  if (best.empty()) {
    c.empty_hint = QString(
                       "No %1 sums measured in this session: run the %1 variants on matrix "
                       "shapes (Reduce: %2 in the Experiment panel).")
                       .arg(what, columns ? "columns only, or both" : "rows only, or both");
    return c;
  }
  std::vector<MatrixShape> shapes;
  for (const auto& [shape, variants] : best) shapes.push_back(shape);
  QStringList left_off;
  std::map<std::string, Series> by_winner;
  for (const auto& [shape, variants] : best) {
    if (covers_neighbour(shape, shapes)) {
      left_off << QString::fromStdString(format_shape(shape));
      continue;
    }
    const std::vector<Entry> order = ranked(variants);
    Series& s = by_winner[order.front().r->point.variant];
    s.points.append(cell(order, *type));
  }
  for (const VariantInfo& v : catalog()) {  // legend in the catalog's order
    auto it = by_winner.find(v.id);
    if (it == by_winner.end()) continue;
    it->second.name = QString::fromStdString(v.id);
    it->second.kind = SeriesKind::Cells;
    it->second.color = strategy_color(v.id);
    c.series.append(it->second);
  }
  c.subtitle = QString(
                   "%1 · %2 · %3 · each cell: the fastest median, and how much faster than "
                   "the runner-up")
                   .arg(device_part({ss.front()}), type_name(*type), qtext::time_basis_name(basis));
  if (!left_off.isEmpty())
    c.warnings << QString(
                      "not on the map, beside a power of two they would cover: %1 (hover them "
                      "in the row length chart)")
                      .arg(left_off.join(", "));
  if (wrong > 0)
    c.warnings << QString("%1 point(s) with a wrong result are no candidates").arg(wrong);
  return c;
}

}  // namespace detail

}  // namespace rl::gui
