#include "charts/chart_multi.h"

#include <QStringList>

#include <algorithm>

#include "engine/report/link_text.h"
#include "format.h"

namespace rl::gui {

using charts::Axis;
using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

namespace {

Series series(const QString& name, SeriesKind kind) {
  Series out;
  out.name = name;
  out.kind = kind;
  return out;
}

Point point(double x, double y) {
  Point out;
  out.x = x;
  out.y = y;
  return out;
}

Axis axis(const QString& title, const QString& short_title, AxisScale scale) {
  Axis out;
  out.title = title;
  out.short_title = short_title;
  out.scale = scale;
  return out;
}

QString exchange_name(Exchange e) {
  return qstr(std::string(to_string(e)));
}

// The points drawn: the chosen size and type, in the session's order (GPU count, exchange).
std::vector<const MultiPoint*> points_at(const MultiSession& s, std::uint64_t size, DType type) {
  std::vector<const MultiPoint*> out;
  for (const MultiPoint& p : s.points)
    if (p.point.size == size && p.point.type == type) out.push_back(&p);
  return out;
}

// "nccl_allreduce over 2 GPUs: total 1.23 ms (local 1.10 ms, exchange 0.13 ms); per GPU ..."
QString tooltip(const MultiPoint& p) {
  QString t = QString("%1 over %2 GPU(s), N = %3\ntotal %4 (local %5, exchange %6), %7")
                  .arg(exchange_name(p.point.exchange))
                  .arg(p.point.gpu_count)
                  .arg(format_size(p.point.size), format_time_ms(p.times.total.median_ms),
                       format_time_ms(p.times.local.median_ms),
                       format_time_ms(p.times.exchange.median_ms), format_gbps(p.total_gbps()));
  for (const GpuShare& g : p.gpus)
    if (!g.times.total.empty())
      t += QString("\ncuda:%1 (%2 elements): local %3, exchange %4")
               .arg(g.device)
               .arg(g.elements)
               .arg(format_time_ms(g.times.local.median_ms),
                    format_time_ms(g.times.exchange.median_ms));
  if (p.noisy) t += "\nnoisy: the noise target was not met";
  return t;
}

// What cannot be drawn (wrong, failed, skipped points), said over the plot.
QStringList warnings_for(const std::vector<const MultiPoint*>& points) {
  QStringList out;
  for (const MultiPoint* p : points)
    if (p->status != PointStatus::Ok)
      out << QString("%1 G=%2 %3: %4")
                 .arg(exchange_name(p->point.exchange))
                 .arg(p->point.gpu_count)
                 .arg(qstr(std::string(to_string(p->status))).toUpper(), qstr(p->message));
  return out;
}

// Microseconds unless a total takes a millisecond or more (as the one-GPU charts); sets the
// time axis' titles and returns the factor from ms.
double time_unit(Chart& c, const std::vector<const MultiPoint*>& points, const QString& what) {
  double max_ms = 0;
  for (const MultiPoint* p : points)
    if (p->status == PointStatus::Ok) max_ms = std::max(max_ms, p->times.total.median_ms);
  const bool micro = max_ms < 1;
  c.y.title = QString("%1 (%2)").arg(what, micro ? "µs" : "ms");
  c.y.short_title = QString("time (%1)").arg(micro ? "µs" : "ms");
  return micro ? 1000 : 1;
}

QString subtitle(const MultiSession& s, std::uint64_t size, DType type) {
  QStringList gpus;
  for (const DeviceInfo& d : s.devices)
    gpus << QString("cuda:%1 %2").arg(d.index).arg(qstr(d.name));
  return QString("N = %1 %2 over %3; local reduction %4 B=%5 U=%6; %7")
      .arg(format_size(size), qstr(std::string(to_string(type))), gpus.join(", "),
           qstr(s.spec.variant))
      .arg(s.spec.block_size)
      .arg(s.spec.unroll)
      .arg(qstr(s.nccl));
}

// Stacked bars, one per (GPU count, exchange): local reduction below, exchange above.
Chart phases_chart(const MultiSession& s, const std::vector<const MultiPoint*>& points) {
  Chart c;
  c.title = "Where the time goes: local reduction and exchange";
  c.x = axis("exchange, GPUs", "", AxisScale::Category);
  c.y.scale = AxisScale::Linear;
  const double unit = time_unit(c, points, "time, median");
  c.stacked = true;
  Series local = series("local reduction (slowest GPU)", SeriesKind::Bars);
  Series exchange = series("exchange (after the last partial)", SeriesKind::Bars);
  for (const MultiPoint* p : points) {
    if (p->status != PointStatus::Ok) continue;
    const double x = c.x.categories.size();
    c.x.categories
        << QString("%1 G=%2").arg(exchange_name(p->point.exchange)).arg(p->point.gpu_count);
    Point l = point(x, p->times.local.median_ms * unit);
    l.tooltip = tooltip(*p);
    l.noisy = p->noisy;
    Point e = point(x, p->times.exchange.median_ms * unit);
    e.tooltip = l.tooltip;
    e.noisy = p->noisy;
    local.points << l;
    exchange.points << e;
  }
  c.series << local << exchange;
  (void)s;
  return c;
}

// One line per exchange against the GPU count: the total time, or the bandwidth.
Chart against_gpus_chart(const std::vector<const MultiPoint*>& points, bool bandwidth) {
  Chart c;
  c.x = axis("GPUs", "GPUs", AxisScale::Log2);  // 1, 2, 4, 8: whole GPUs on the ticks
  c.title = bandwidth ? "Bandwidth against the number of GPUs, with the roofs"
                      : "Time against the number of GPUs";
  const double unit = bandwidth ? 1 : time_unit(c, points, "time, whole reduction across the GPUs");
  if (bandwidth) c.y = axis("input bytes / total time (GB/s)", "GB/s", AxisScale::Linear);
  for (Exchange e : all_exchanges()) {
    Series line = series(exchange_name(e), SeriesKind::Line);
    for (const MultiPoint* p : points) {
      if (p->point.exchange != e || p->status != PointStatus::Ok) continue;
      const Summary& t = p->times.total;
      Point pt =
          point(double(p->point.gpu_count), bandwidth ? p->total_gbps() : t.median_ms * unit);
      if (!bandwidth) {
        pt.lo = t.min_ms * unit;
        pt.hi = t.max_ms * unit;
      }
      pt.tooltip = tooltip(*p);
      pt.noisy = p->noisy;
      line.points << pt;
    }
    if (!line.points.isEmpty()) c.series << line;
  }
  return c;
}

// The NVLink roof per direction (links x per-link rate, as the driver's NVML named the links when
// the session ran), from the pair with the least; where the session has none, a note says why.
void add_nvlink_roof(Chart& c, const MultiSession& s) {
  std::string why;
  const double roof = nvlink_roof(s.links, &why);
  if (roof <= 0) {
    c.warnings << "no NVLink roof: " + qstr(why);
    return;
  }
  const PeerLink* least = nullptr;
  for (const PeerLink& l : s.links)
    if (l.nvlink_gbps == roof) least = &l;
  Series r = series("NVLink roof: " + qstr(link_kind_text(*least)), SeriesKind::Roof);
  Point pt = point(0, roof);
  pt.tooltip =
      "the NVLink roof per direction between two GPUs: active links x the version's per-link "
      "rate, as the driver's NVML names them; it bounds moving shards (gather_shards), beside "
      "the measured peer copy";
  r.points << pt;
  c.series << r;
}

// The roofs beside the bandwidth: the summed read floors per GPU count, the slowest link, and
// the NVLink roof.
void add_roofs(Chart& c, const MultiSession& s, const std::vector<const MultiPoint*>& points) {
  Series roof = series("sum of the GPUs' read floors", SeriesKind::Line);
  roof.dashed = true;
  std::vector<int> counts;
  for (const MultiPoint* p : points)
    if (p->read_roof_gbps > 0 &&
        std::find(counts.begin(), counts.end(), p->point.gpu_count) == counts.end()) {
      counts.push_back(p->point.gpu_count);
      Point pt = point(double(p->point.gpu_count), p->read_roof_gbps);
      pt.tooltip = QString("%1 GPU(s): each GPU's read floor at its shard's size, summed: %2")
                       .arg(p->point.gpu_count)
                       .arg(format_gbps(p->read_roof_gbps));
      roof.points << pt;
    }
  std::sort(roof.points.begin(), roof.points.end(),
            [](const Point& a, const Point& b) { return a.x < b.x; });
  if (!roof.points.isEmpty()) c.series << roof;
  double link = 0;
  for (const PeerLink& l : s.links)
    if (l.measured_gbps > 0) link = link == 0 ? l.measured_gbps : std::min(link, l.measured_gbps);
  if (link > 0) {
    Series r;
    r.name = QString("slowest link, peer copy %1").arg(format_gbps(link));
    r.kind = SeriesKind::Roof;
    Point pt = point(0, link);
    pt.tooltip =
        "the measured peer copy between two GPUs (NVLink where the pair has it): "
        "the roof of moving shards (gather_shards)";
    r.points << pt;
    c.series << r;
  }
  add_nvlink_roof(c, s);
}

}  // namespace

const std::vector<ChartKind>& multi_chart_kinds() {
  static const std::vector<ChartKind> kinds{
      {"multi_phases", "Multi-GPU", "Time per phase, stacked"},
      {"multi_scaling", "Multi-GPU", "Time against the number of GPUs"},
      {"multi_bandwidth", "Multi-GPU", "Bandwidth against the number of GPUs, with the roofs"},
  };
  return kinds;
}

charts::Chart build_multi_chart(const QString& id, const MultiSession& s, std::uint64_t size,
                                DType type) {
  if (size == 0 && !s.points.empty()) {
    type = s.points.front().point.type;
    for (const MultiPoint& p : s.points) size = std::max(size, p.point.size);
  }
  const std::vector<const MultiPoint*> points = points_at(s, size, type);
  Chart c;
  if (id == "multi_phases")
    c = phases_chart(s, points);
  else if (id == "multi_scaling")
    c = against_gpus_chart(points, false);
  else if (id == "multi_bandwidth") {
    c = against_gpus_chart(points, true);
    add_roofs(c, s, points);
  }
  c.id = id;
  c.subtitle = subtitle(s, size, type);
  c.warnings = warnings_for(points) + c.warnings;  // the points' first, then a missing roof
  c.empty_hint =
      "No multi-GPU points at this size: run reductionlab-cli run --devices cuda:0,cuda:1 "
      "--json FILE and open FILE.";
  return c;
}

}  // namespace rl::gui
