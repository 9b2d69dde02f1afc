#include "charts/chart_rung_bars.h"

#include <QLocale>

#include "charts/palette.h"

namespace rl::gui::detail {

charts::Chart rung_chart(const QString& id, const std::vector<ShownSession>& ss,
                         const QString& title, const QString& y_title,
                         const QString& y_short_title) {
  charts::Chart c;
  c.id = id;
  c.title = title;
  c.x.scale = charts::AxisScale::Category;
  c.y.scale = charts::AxisScale::Linear;
  c.y.title = y_title;
  c.y.short_title = y_short_title;
  if (!has_results(ss))
    c.empty_hint = no_results_hint(ss);
  else if (ss.front().session && matrices_only(*ss.front().session))
    c.empty_hint =
        "No whole-array kernels in this session: it sums the rows and columns of a matrix.\nThe " +
        kMatrixPage + " tab draws them.";
  return c;
}

std::optional<LadderSetting> rung_setting(charts::Chart& c, const std::vector<ShownSession>& ss,
                                          const std::optional<LadderSetting>& setting) {
  std::optional<LadderSetting> chosen =
      drawn_ladder_setting(*ladder_settings_of(ss.front()), setting);
  if (!chosen) c.empty_hint = "No measured points in this session (all failed or were skipped).";
  return chosen;
}

void add_rung_category(charts::Chart& c, const std::string& variant, int unroll) {
  QString label = short_label(variant, unroll);
  if (c.x.categories.contains(label)) label += QString(" U=%1").arg(unroll);
  c.x.categories << label;
}

charts::Series bar_set(const QString& name, int color) {
  charts::Series s;
  s.kind = charts::SeriesKind::Bars;
  s.name = name;
  s.color = charts::palette_color(color);
  return s;
}

QString count_text(std::uint64_t n) {
  return QLocale(QLocale::English).toString(qulonglong(n));
}

QString short_count(std::uint64_t n) {
  if (n >= 1'000'000) return QString("%1M").arg(double(n) / 1e6, 0, 'f', 2);
  if (n >= 10'000) return QString("%1k").arg(double(n) / 1e3, 0, 'f', 1);
  return QString::number(n);
}

}  // namespace rl::gui::detail
