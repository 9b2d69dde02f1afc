// Reading and writing the app's files. Writes are atomic (QSaveFile: a crash or a full disk
// leaves the old file); reads of a bad, foreign or truncated session give a message naming the
// file and the problem, and no session.
#pragma once

#include <QString>

#include <optional>
#include <string>

#include "results.h"

namespace rl::gui {

std::optional<Session> read_session_file(const QString& path, QString* error);
bool write_session_file(const Session& session, const QString& path, QString* error);
// Any text (CSV, JSON) through QSaveFile.
bool write_text_file(const QString& path, const std::string& text, QString* error);

}  // namespace rl::gui
