#include "form_parsing.h"

#include <algorithm>

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

bool parse_shapes(const QString& text, std::vector<MatrixShape>* out, QString* error) {
  std::string message;
  if (rl::parse_shape_list(text.toStdString(), out, &message)) return true;
  // The engine says "shape '0x5': ..." or "shapes: none given": named as the form's field.
  *error = "matrix " + QString::fromStdString(message);
  return false;
}

bool parse_shape_sweep(const QString& values, bool values_are_rows, const QString& total,
                       std::vector<MatrixShape>* out, QStringList* notes, QString* error) {
  const QString side = values_are_rows ? "rows" : "columns";
  std::vector<std::uint64_t> counts;
  std::uint64_t elements = 0;
  std::string message;
  if (values.trimmed().isEmpty()) {
    *error = side + ": enter at least one, e.g. 32..2^24";
    return false;
  }
  if (!rl::parse_size_list(values.toStdString(), &counts, &message)) {
    *error = side + ": " + QString::fromStdString(message);
    return false;
  }
  if (total.trimmed().isEmpty()) {
    *error = "total: enter the elements of each matrix, e.g. 2^24";
    return false;
  }
  if (!rl::parse_size(total.toStdString(), &elements, &message)) {
    *error = "total: " + QString::fromStdString(message);
    return false;
  }
  std::vector<std::string> lines;
  if (!rl::shapes_at_total(counts, values_are_rows, elements, out, &lines, &message)) {
    *error = side + ": " + QString::fromStdString(message);
    return false;
  }
  if (notes)
    for (const std::string& l : lines) *notes << QString::fromStdString(l);
  return true;
}

QString format_shape_list(const std::vector<MatrixShape>& shapes) {
  QStringList parts;
  for (const MatrixShape& m : shapes) parts << QString::fromStdString(rl::format_shape(m));
  return parts.join(", ");
}

std::optional<ColumnSweep> as_column_sweep(const std::vector<MatrixShape>& shapes) {
  if (shapes.size() < 3) return std::nullopt;
  ColumnSweep sweep;
  for (const MatrixShape& m : shapes) sweep.total = std::max(sweep.total, m.rows * m.cols);
  for (const MatrixShape& m : shapes) {
    if (m.rows != sweep.total / m.cols) return std::nullopt;
    sweep.cols.push_back(m.cols);
  }
  std::vector<MatrixShape> again;
  if (!rl::shapes_at_total(sweep.cols, false, sweep.total, &again, nullptr, nullptr) ||
      again != shapes)
    return std::nullopt;  // not in the sweep's order: shown as the list it is
  return sweep;
}

QString format_int_list(const std::vector<int>& values) {
  return QString::fromStdString(rl::format_int_list(values));
}

QString format_size_list(const std::vector<std::uint64_t>& values) {
  return QString::fromStdString(rl::format_size_list(values));
}

}  // namespace rl::gui
