// File > Export all charts as PNG without stopping the window. Each chart's data is built on the
// job's thread from the sessions as they are (held: SessionStore::hold, never copied, not changed
// until the job ends); Qt Charts draws on the GUI thread only, so the drawing of each chart is one
// turn of the event loop there; the image is encoded and written on the job's thread again.
// Cancel stops before the next chart; a file is whole or absent (the engine's writer writes
// through a temporary file and renames).
#pragma once

#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_builders.h"

namespace rl::gui {

class Job;
class JobTracker;
class SessionStore;

struct ChartExportResult {
  QStringList written;   // paths, in the order written
  QStringList left_out;  // "id: why" of the charts with nothing to draw
  QString error;         // why it stopped; empty when it did not fail
  bool cancelled = false;
};

// Starts the export of every chart the shown sessions have into dir at size; done(result) follows
// on the GUI thread when the job ends (not when the tracker is destroyed first). The job's
// progress counts charts.
Job* start_chart_export(JobTracker* tracker, SessionStore* store, const QString& dir, QSize size,
                        std::function<void(const ChartExportResult&)> done);

}  // namespace rl::gui
