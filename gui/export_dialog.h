// Asks which chart to export and at what size; the file name (and so PNG or SVG) comes next
// from a save dialog.
#pragma once

#include <QList>
#include <QPair>
#include <QSize>
#include <QString>

#include <optional>

class QWidget;

namespace rl::gui {

struct ChartExportChoice {
  QString id;
  QSize size;
};

// charts: (id, name) in display order; current: the id preselected.
std::optional<ChartExportChoice> ask_chart_export(QWidget* parent,
                                                  const QList<QPair<QString, QString>>& charts,
                                                  const QString& current, QSize size);

}  // namespace rl::gui
