// The roofs a chart measures against: the theoretical DRAM bandwidth and the read floor (the
// fastest kernel that only reads the input, measured per size on the session's GPU).
#include "charts/chart_builders_internal.h"
#include "charts/palette.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

namespace {

const QColor kFloorColor("#006d77");

Series roof(const QString& name, double gbps, const QColor& color) {
  Series s;
  s.name = name;
  s.kind = SeriesKind::Roof;
  Point p;
  p.y = gbps;
  s.points.append(p);
  s.color = color;
  s.dashed = true;
  return s;
}

// The floor's bandwidth on the chosen time (its GPU time for the GPU basis); 0 if unknown.
double floor_gbps(const ReadFloor& f, TimeBasis basis) {
  const Summary* t = floor_time(f, basis);
  return t ? gbps_of(f.bytes, t->median_ms) : 0;
}

}  // namespace

void add_roofs(Chart& c, const std::vector<ShownSession>& ss, std::uint64_t bytes,
               TimeBasis basis) {
  for (const auto& s : ss) {
    const DeviceInfo& d = s.session->device;
    const QString who = ss.size() > 1 ? s.label + " " : QString();
    if (d.theoretical_gbps > 0)
      c.series.append(roof(who + "theoretical DRAM " + format_gbps(d.theoretical_gbps),
                           d.theoretical_gbps, charts::palette_roof()));
    const ReadFloor* at_size = bytes ? find_read_floor(s.session->read_floors, bytes) : nullptr;
    if (const double gbps = at_size ? floor_gbps(*at_size, basis) : 0; gbps > 0)
      c.series.append(roof(who + "read floor at this N " + format_gbps(gbps), gbps, kFloorColor));
    else if (d.measured_read_gbps > 0 && (bytes != 0 || s.session->read_floors.empty()))
      // (a size chart draws the floor per N instead: add_read_floor_curve)
      c.series.append(roof(who + "read floor at " +
                               QString::fromStdString(format_bytes(d.read_floor_bytes)) + " " +
                               format_gbps(d.measured_read_gbps),
                           d.measured_read_gbps, kFloorColor));
  }
}

void add_read_floor_curve(Chart& c, const std::vector<ShownSession>& ss, bool time, TimeBasis basis,
                          double unit) {
  for (const auto& s : ss) {
    Series line;
    line.name = (ss.size() > 1 ? s.label + " " : QString()) +
                "read floor (a kernel that only reads N elements)";
    line.color = kFloorColor;
    line.dashed = true;
    for (const ReadFloor& f : s.session->read_floors) {
      const Summary* t = floor_time(f, basis);
      if (!t || t->median_ms <= 0) continue;
      Point p;
      p.x = double(f.bytes / 4);  // both element types are 4 bytes
      p.y = time ? t->median_ms * unit : gbps_of(f.bytes, t->median_ms);
      p.tooltip =
          QString("read floor at N = %1 (%2): %3, %4\nbest shape %5%6")
              .arg(format_size(f.bytes / 4), QString::fromStdString(format_bytes(f.bytes)),
                   format_time_ms(t->median_ms), format_gbps(gbps_of(f.bytes, t->median_ms)),
                   QString::fromStdString(f.shape), f.noisy ? " (noisy)" : "");
      line.points.append(p);
    }
    if (line.points.size() >= 2) c.series.append(line);
  }
}

QString noisy_warning(int count, NoisyMark mark) {
  return QString(
             "%1 point(s) did not reach the noise target: %2\"noisy\" in %3 tooltips and the "
             "Results table")
      .arg(count)
      .arg(mark == NoisyMark::HatchedBars ? "hatched bars, " : "")
      .arg(mark == NoisyMark::HatchedBars ? "the" : "their");
}

}  // namespace rl::gui::detail
