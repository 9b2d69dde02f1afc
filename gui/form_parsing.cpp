#include "form_parsing.h"

#include "engine/experiment/grammar.h"

namespace rl::gui {

bool parse_int_list(const QString& text, const QString& what, std::vector<int>* out,
                    QString* error) {
  std::string message;
  if (text.trimmed().isEmpty()) {  // the form allows an empty field: the variants' own
    out->clear();
    return true;
  }
  if (rl::parse_int_list(text.toStdString(), what.toStdString(), out, &message)) return true;
  *error = QString::fromStdString(message);
  return false;
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

QString format_int_list(const std::vector<int>& values) {
  return QString::fromStdString(rl::format_int_list(values));
}

QString format_size_list(const std::vector<std::uint64_t>& values) {
  return QString::fromStdString(rl::format_size_list(values));
}

}  // namespace rl::gui
