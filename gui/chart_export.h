// Writing charts to files: every chart of a set of sessions into a folder (the window's
// "Export all charts" and `reductionlab --open SESSION --export-charts DIR`), and the command
// line of the app.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

#include "charts/chart_builders.h"
#include "export_dialog.h"

namespace rl::gui {

// DIR/<chart id>.png for every chart in chart_kinds() that has something to draw in the chosen
// time; creates DIR. A chart with nothing to draw (no sweep of its kind, no point with that
// time) is not written: it goes to *left_out as "id: why". False, with *error saying why each
// was left out, when no chart could be drawn; stops at the first failure to write.
bool write_all_charts(const std::vector<ShownSession>& sessions, const std::string& baseline,
                      TimeBasis basis, const QString& dir, QSize size, QStringList* written,
                      QString* error, QStringList* left_out = nullptr,
                      const std::optional<LadderSetting>& ladder = std::nullopt);

// Opens a session file and writes its charts as write_all_charts does (speed-ups against the
// session's own baseline; the ladder at `ladder` when given, which the session must hold). The
// message names the file, folder or setting at fault.
bool export_session_charts(const QString& session_path, const QString& dir, QSize size,
                           QStringList* written, QString* error, TimeBasis basis = TimeBasis::Whole,
                           QStringList* left_out = nullptr,
                           const std::optional<LadderChoice>& ladder = std::nullopt);

struct CommandLine {
  QString open;                     // --open SESSION
  QString kernel;                   // --kernel FILE.cu: opened in the Your kernel editor
  QString export_dir;               // --export-charts DIR (needs --open)
  QSize size = kDefaultExportSize;  // --size WxH for exported charts
  // --time whole|gpu|first: the time the charts draw (exported, or in the window over the one
  // remembered from last time)
  std::optional<TimeBasis> time_basis;
  // --setting N=2^24,B=1024,type=int32: the ladder charts' setting in an export
  std::optional<LadderChoice> ladder;
  bool help = false;
  QString help_text;
  QString error;  // set when the arguments make no sense; exit code 2
};
CommandLine parse_command_line(const QStringList& arguments);

}  // namespace rl::gui
