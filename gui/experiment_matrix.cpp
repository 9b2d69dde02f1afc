// The experiment form's matrices, for the variants that sum every row or column: a typed list
// of shapes or a sweep of widths at a fixed total, both read by the engine's grammar, and which
// of those variants `all` takes. Shown only where such a variant is ticked or the spec (a
// preset) has shapes: the form of a whole-array experiment stays as it was.
#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QVBoxLayout>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "experiment_panel.h"
#include "form_parsing.h"
#include "variant_tree.h"

namespace rl::gui {

namespace {

enum ShapeMode { List = 0, ColumnsAtTotal = 1, RowsAtTotal = 2 };

const ReduceFilter kReduceChoices[] = {ReduceFilter::Both, ReduceFilter::Rows,
                                       ReduceFilter::Columns};

}  // namespace

void ExperimentPanel::build_matrix(QVBoxLayout* layout) {
  auto* box = new QGroupBox("Matrices: rows and columns variants");
  box->setObjectName("matrix_box");
  auto* form = new QFormLayout(box);
  shape_mode_ = new QComboBox;
  shape_mode_->addItems(
      {"a list of shapes", "widths (columns) at a total", "heights (rows) at a total"});
  shape_mode_->setToolTip(
      "Type the shapes, or sweep the row length N (or the row count M) with M x N fixed");
  form->addRow("Matrix shapes", shape_mode_);
  shapes_ = new QLineEdit;
  shapes_->setObjectName("matrix_shapes");
  shapes_->setPlaceholderText("e.g. 4096x4096, 2^12x2^12");
  shapes_->setToolTip(
      "Rows x columns of each row-major matrix, comma-separated; each side as a size: digits, "
      "2^K, 16K (K, M, G are 2^10, 2^20, 2^30)");
  form->addRow("Shapes M x N", shapes_);
  sweep_row_ = new QWidget;
  auto* row = new QHBoxLayout(sweep_row_);
  row->setContentsMargins(0, 0, 0, 0);
  sweep_values_ = new QLineEdit;
  sweep_values_->setObjectName("matrix_sweep");
  sweep_values_->setPlaceholderText("e.g. 32..2^24, 1000");
  sweep_values_->setToolTip(
      "Values of the swept side: sizes, A..B for every power of two between; the other side is "
      "total / value, rounded down (the form says where it does not divide)");
  sweep_total_ = new QLineEdit;
  sweep_total_->setObjectName("matrix_total");
  sweep_total_->setPlaceholderText("e.g. 2^24");
  sweep_total_->setToolTip("Elements of every matrix of the sweep, M x N");
  row->addWidget(sweep_values_, 3);
  row->addWidget(new QLabel("at total"));
  row->addWidget(sweep_total_, 1);
  sweep_label_ = new QLabel("Columns N");
  form->addRow(sweep_label_, sweep_row_);
  reduce_ = new QComboBox;
  reduce_->addItems({"rows and columns", "rows only", "columns only"});
  reduce_->setToolTip(
      "Which of the rows and columns variants ticking every variant runs on the shapes; a "
      "variant ticked by name always runs");
  form->addRow("Reduce", reduce_);
  matrix_message_ = new QLabel;
  matrix_message_->setObjectName("matrix_message");
  matrix_message_->setWordWrap(true);
  matrix_message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  matrix_message_->hide();
  form->addRow(matrix_message_);
  matrix_box_ = box;
  layout->addWidget(box);
  for (auto* e : {shapes_, sweep_values_, sweep_total_})
    connect(e, &QLineEdit::textChanged, this, &ExperimentPanel::schedule_validation);
  connect(reduce_, &QComboBox::currentIndexChanged, this, &ExperimentPanel::schedule_validation);
  connect(shape_mode_, &QComboBox::currentIndexChanged, this, [this] {
    update_matrix_box();
    schedule_validation();
  });
  update_matrix_box();
}

bool ExperimentPanel::wants_matrix() const {
  for (const QString& name : variants_->checked()) {
    const auto ref = resolve_variant(name.toStdString());
    if (ref && ref->variant->is_segmented()) return true;
  }
  return false;
}

void ExperimentPanel::update_matrix_box() {
  const bool list = shape_mode_->currentIndex() == List;
  shapes_->setVisible(list);
  static_cast<QFormLayout*>(matrix_box_->layout())->setRowVisible(shapes_, list);
  static_cast<QFormLayout*>(matrix_box_->layout())->setRowVisible(sweep_row_, !list);
  sweep_label_->setText(shape_mode_->currentIndex() == RowsAtTotal ? "Rows M" : "Columns N");
  matrix_box_->setVisible(wants_matrix());
}

void ExperimentPanel::show_shapes(const ExperimentSpec& spec) {
  if (const auto sweep = as_column_sweep(spec.shapes)) {
    shape_mode_->setCurrentIndex(ColumnsAtTotal);
    sweep_values_->setText(format_size_list(sweep->cols));
    sweep_total_->setText(QString::fromStdString(format_size(sweep->total)));
    shapes_->setText(format_shape_list(spec.shapes));
  } else {
    shape_mode_->setCurrentIndex(List);
    shapes_->setText(format_shape_list(spec.shapes));
  }
  for (int i = 0; i < 3; ++i)
    if (kReduceChoices[i] == spec.reduce) reduce_->setCurrentIndex(i);
  update_matrix_box();
}

bool ExperimentPanel::read_shapes(std::vector<MatrixShape>* out, QString* error,
                                  QStringList* notes) const {
  out->clear();
  if (!wants_matrix()) return true;
  const int mode = shape_mode_->currentIndex();
  if (mode == List) {
    // Empty: no matrices; a matrix variant ticked by name then gets the engine's message.
    if (shapes_->text().trimmed().isEmpty()) return true;
    return parse_shapes(shapes_->text(), out, error);
  }
  if (sweep_values_->text().trimmed().isEmpty() && sweep_total_->text().trimmed().isEmpty())
    return true;
  return parse_shape_sweep(sweep_values_->text(), mode == RowsAtTotal, sweep_total_->text(), out,
                           notes, error);
}

ReduceFilter ExperimentPanel::reduce_filter() const {
  return kReduceChoices[std::clamp(reduce_->currentIndex(), 0, 2)];
}

QString ExperimentPanel::matrix_message() const {
  return matrix_message_->isHidden() ? QString() : matrix_message_->text();
}

}  // namespace rl::gui
