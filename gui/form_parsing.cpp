#include "form_parsing.h"

#include <QRegularExpression>
#include <QStringList>

#include <bit>

#include "spec.h"

namespace rl::gui {

namespace {

bool parse_one(const QString& item, long long* out) {
  static const QRegularExpression pow2(R"(^2\^(\d{1,2})$)");
  bool ok = false;
  const long long v = item.toLongLong(&ok);
  if (ok) {
    *out = v;
    return true;
  }
  const auto m = pow2.match(item);
  if (m.hasMatch() && m.captured(1).toInt() < 31) {
    *out = 1LL << m.captured(1).toInt();
    return true;
  }
  return false;
}

bool is_pow2(unsigned long long v) {
  return v && std::has_single_bit(v);
}

}  // namespace

bool parse_int_list(const QString& text, const QString& what, std::vector<int>* out,
                    QString* error) {
  out->clear();
  const QStringList items = text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
  for (const QString& item : items) {
    const int dots = item.indexOf("..");
    if (dots >= 0) {
      long long a = 0, b = 0;
      if (!parse_one(item.left(dots), &a) || !parse_one(item.mid(dots + 2), &b) || a <= 0 ||
          b < a || !is_pow2(a) || !is_pow2(b)) {
        *error = QString("%1 '%2': a range goes from a power of two to a larger one, e.g. 64..1024")
                     .arg(what, item);
        return false;
      }
      for (long long v = a; v <= b; v *= 2) out->push_back(int(v));
      continue;
    }
    long long v = 0;
    if (!parse_one(item, &v)) {
      *error = QString("%1 '%2': expected a whole number, 2^K or A..B").arg(what, item);
      return false;
    }
    if (v <= 0 || v > (1LL << 30)) {
      *error = QString("%1 %2: must be a positive number").arg(what, item);
      return false;
    }
    out->push_back(int(v));
  }
  return true;
}

bool parse_sizes(const QString& text, std::vector<std::uint64_t>* out, QString* error) {
  std::string message;
  if (text.trimmed().isEmpty()) {
    *error = "sizes: enter at least one N, e.g. 2^24 or 2^10..2^28";
    return false;
  }
  if (!rl::parse_size_list(text.toStdString(), out, &message)) {
    *error = "sizes: " + QString::fromStdString(message);
    return false;
  }
  return true;
}

namespace {

template <typename T, typename Fmt>
QString compress(const std::vector<T>& values, Fmt fmt) {
  QStringList parts;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && is_pow2(values[j]) && values[j + 1] == values[j] * 2) ++j;
    if (j >= i + 4 && is_pow2(values[i])) {  // five or more: 1, 2, 4, 8 reads better listed
      parts << fmt(values[i]) + ".." + fmt(values[j]);
      i = j + 1;
    } else {
      parts << fmt(values[i]);
      ++i;
    }
  }
  return parts.join(", ");
}

}  // namespace

QString format_int_list(const std::vector<int>& values) {
  return compress(values, [](int v) { return QString::number(v); });
}

QString format_size_list(const std::vector<std::uint64_t>& values) {
  return compress(values,
                  [](std::uint64_t v) { return QString::fromStdString(rl::format_size(v)); });
}

}  // namespace rl::gui
