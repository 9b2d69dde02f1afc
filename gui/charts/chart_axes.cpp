#include "charts/chart_axes.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rl::gui::charts::detail {

Scale resolve_x(const Chart& c) {
  switch (c.x.scale) {
    case AxisScale::Log2:
      return Scale::Log2;
    case AxisScale::Category:
      return Scale::Category;
    default:
      return Scale::Linear;
  }
}

Scale resolve_y(const Chart& c) {
  if (c.y.scale == AxisScale::Log2) return Scale::Log2;
  if (c.y.scale != AxisScale::Auto && c.y.scale != AxisScale::Log10) return Scale::Linear;
  double lo = INFINITY, hi = 0;
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      if (s.kind == SeriesKind::Bars || p.y <= 0 || !std::isfinite(p.y)) continue;
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
  if (c.y.scale == AxisScale::Log10) return hi > 0 ? Scale::Log10 : Scale::Linear;
  return hi > 0 && hi / lo >= 30 ? Scale::Log10 : Scale::Linear;
}

bool usable(double v, Scale s) {
  return std::isfinite(v) && (s == Scale::Linear || s == Scale::Category || v > 0);
}

static const char* kSuperscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};

QString tick_label(int k, TickStyle style) {
  if (style == TickStyle::Plain && k >= 0 && k < 53)
    return QString::number(std::ldexp(1.0, k), 'f', 0);
  QString exp;
  for (QChar ch : QString::number(k))
    exp += ch == '-' ? QString("⁻") : QString(kSuperscripts[ch.digitValue()]);
  return "2" + exp;
}

QFont scaled_font(double delta_pt, bool bold) {
  QFont f = QApplication::font();
  f.setPointSizeF(std::max(6.0, f.pointSizeF() + delta_pt));
  f.setBold(bold);
  return f;
}

QSizeF label_size(const QString& html, const QFont& font) {
  QTextDocument doc;
  doc.setDefaultFont(font);
  doc.setDocumentMargin(0.5);
  doc.setHtml(html);
  return doc.size();
}

QString wrapped_label(const QString& label, const QFont& font, double width) {
  auto px = [&font](const QString& text) {
    return label_size(text.trimmed().toHtmlEscaped(), font).width();
  };
  QStringList words;  // "complete_", "Unroll", "Warp8 ", "U=4"
  int start = 0;
  for (int i = 1; i < label.size(); ++i)
    if (label[i - 1] == ' ' || label[i - 1] == '_' ||
        (label[i].isUpper() && label[i - 1].isLower())) {
      words << label.mid(start, i - start);
      start = i;
    }
  words << label.mid(start);
  QStringList lines;
  for (const QString& w : words) {
    if (px(w) > width) return {};
    if (!lines.isEmpty() && px(lines.last() + w) <= width)
      lines.last() += w;
    else
      lines << w;
  }
  if (lines.size() > 3) return {};
  for (QString& l : lines) l = l.toHtmlEscaped();
  return lines.join("<br>");
}

QString subtitle_html(const QString& subtitle) {
  const QString sep = " · ";
  if (subtitle.size() <= 70) return subtitle.toHtmlEscaped();
  int best = -1;
  for (int i = subtitle.indexOf(sep); i >= 0; i = subtitle.indexOf(sep, i + 1))
    if (best < 0 || std::abs(i - subtitle.size() / 2) < std::abs(best - subtitle.size() / 2))
      best = i;
  if (best < 0) return subtitle.toHtmlEscaped();
  return subtitle.left(best).toHtmlEscaped() + "<br>" +
         subtitle.mid(best + sep.size()).toHtmlEscaped();
}

QString wrapped_html(const QString& text, const QFont& font, double width, const QString& sep) {
  const QFontMetricsF fm(font);
  QStringList lines;
  QString line;
  auto add = [&](const QString& part, const QString& joiner) {
    const QString longer = line.isEmpty() ? part : line + joiner + part;
    if (line.isEmpty() || fm.horizontalAdvance(longer) <= width) {
      line = longer;
    } else {
      lines << line;
      line = part;
    }
  };
  for (const QString& part : text.split(sep)) {
    if (sep != " " && fm.horizontalAdvance(part) > width) {
      for (const QString& word : part.split(' ')) add(word, " ");
      continue;
    }
    add(part, sep);
  }
  if (!line.isEmpty()) lines << line;
  for (QString& l : lines) l = l.toHtmlEscaped();
  return lines.join("<br>");
}

void set_nice_range(QValueAxis* axis, double lo, double hi) {
  // Qt Charts passes a NaN range between the axis and its domain without end.
  if (!std::isfinite(lo) || !std::isfinite(hi)) return;
  if (!(hi > lo)) hi = lo + 1;
  const double span = hi - lo, magnitude = std::pow(10.0, std::floor(std::log10(span / 5)));
  double step = 10 * magnitude;
  int decimals = 0;
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (span / (m * magnitude) <= 5 + 1e-9) {
      step = m * magnitude;
      // 2.5 x 10^k needs one decimal more than 10^k does.
      decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)) + (m == 2.5 ? 1 : 0));
      break;
    }
  const double from = std::floor(lo / step + 1e-9) * step, to = std::ceil(hi / step - 1e-9) * step;
  axis->setRange(from, to);
  axis->setTickCount(int(std::lround((to - from) / step)) + 1);
  axis->setLabelFormat(QString("%.%1f").arg(decimals));
}

}  // namespace rl::gui::charts::detail
