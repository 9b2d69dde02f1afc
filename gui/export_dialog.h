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

// The sizes a chart may be exported at (the dialog's spin boxes, the app's --size) and the one
// it is exported at unless the user says otherwise: large enough for a slide at full width.
inline constexpr QSize kMinExportSize{200, 150};
inline constexpr QSize kMaxExportSize{10000, 10000};
inline constexpr QSize kDefaultExportSize{1600, 1000};

struct ChartExportChoice {
  QString id;
  QSize size;
};

// charts: (id, name) in display order; current: the id preselected.
std::optional<ChartExportChoice> ask_chart_export(QWidget* parent,
                                                  const QList<QPair<QString, QString>>& charts,
                                                  const QString& current, QSize size);

}  // namespace rl::gui
