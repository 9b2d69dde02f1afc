#include "export_dialog.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace rl::gui {

std::optional<ChartExportChoice> ask_chart_export(QWidget* parent,
                                                  const QList<QPair<QString, QString>>& charts,
                                                  const QString& current, QSize size) {
  QDialog dialog(parent);
  dialog.setWindowTitle("Export chart");
  auto* form = new QFormLayout(&dialog);
  auto* which = new QComboBox;
  for (const auto& [id, name] : charts) which->addItem(name, id);
  which->setCurrentIndex(std::max(0, which->findData(current)));
  form->addRow("Chart", which);
  auto* width = new QSpinBox;
  auto* height = new QSpinBox;
  width->setRange(kMinExportSize.width(), kMaxExportSize.width());
  height->setRange(kMinExportSize.height(), kMaxExportSize.height());
  width->setValue(size.width());
  height->setValue(size.height());
  width->setSuffix(" px");
  height->setSuffix(" px");
  auto* dims = new QHBoxLayout;
  dims->addWidget(width);
  dims->addWidget(new QLabel("×"));
  dims->addWidget(height);
  form->addRow("Size", dims);
  form->addRow(new QLabel("Next, name the file: .png for an image, .svg for a drawing."));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  return ChartExportChoice{which->currentData().toString(), QSize(width->value(), height->value())};
}

}  // namespace rl::gui
