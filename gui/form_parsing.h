// The experiment form's text fields read with the engine's grammar (engine/experiment/grammar.h),
// so the form and the CLI take the same "2^24", "16M", "64..1024". Every bad item gets a message.
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/experiment/grammar.h"

namespace rl::gui {

// "256, 1024", "2^8", "64..1024". `what` names the field in messages: "block size 'abc':
// expected a whole number, 2^K or A..B".
bool parse_int_list(const QString& text, const QString& what, std::vector<int>* out,
                    QString* error);

// rl::parse_size_list with the message prefixed by the field ("sizes: ...").
bool parse_sizes(const QString& text, std::vector<std::uint64_t>* out, QString* error);

// The matrix shapes field: rl::parse_shape_list ("4096x4096, 2^12x2^12"), its messages naming
// the field ("matrix shape '0x5': rows must be at least 1").
bool parse_shapes(const QString& text, std::vector<MatrixShape>* out, QString* error);
// A sweep at a fixed total through rl::shapes_at_total: `values` the columns (or, with
// values_are_rows, the rows), `total` the elements of each matrix. notes: a line for each value
// that does not divide the total (its rows rounded down).
bool parse_shape_sweep(const QString& values, bool values_are_rows, const QString& total,
                       std::vector<MatrixShape>* out, QStringList* notes, QString* error);
QString format_shape_list(const std::vector<MatrixShape>& shapes);

// Shapes that one column sweep gives (every shape rows = total / cols of one total, as
// rl::shapes_at_total makes them, at least three widths): its columns and total, so the form
// shows a preset's sweep as the sweep it is. nullopt for any other list.
struct ColumnSweep {
  std::vector<std::uint64_t> cols;
  std::uint64_t total = 0;
};
std::optional<ColumnSweep> as_column_sweep(const std::vector<MatrixShape>& shapes);

QString format_int_list(const std::vector<int>& values);
QString format_size_list(const std::vector<std::uint64_t>& values);

}  // namespace rl::gui
