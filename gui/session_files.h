// Reading and writing the app's files. Writes go through the engine's writer
// (engine/output_file.h, as the CLI's: a crash or a full disk leaves the old file, and the
// message says why with the OS's reason) under the CLI's lock (engine/output_lock.h: one
// writer per file); reads are bounded (engine/input_file.h), and reads of a
// bad, foreign or truncated session give a message naming the file and the problem, and no session.
#pragma once

#include <QString>

#include <optional>
#include <string>
#include <string_view>

#include "engine/session/multi_results.h"
#include "engine/session/results.h"

class QImage;

namespace rl::gui {

std::optional<Session> read_session_file(const QString& path, QString* error);
// A multi-GPU session (run --devices ... --json FILE), read with the same bounds, as it streams.
std::optional<MultiSession> read_multi_session_file(const QString& path, QString* error);
// Its "kind" says so, read from the file's first bytes (never the whole file).
bool is_multi_session_file(const QString& path);
// A file read for File > Open: a one-GPU session, else (when it is not to overlay one) a
// multi-GPU one, else why it is neither. Needs nothing of the window: any thread may read it.
struct OpenedSession {
  std::optional<Session> one;
  bool is_multi = false;  // the file says it is a multi-GPU session
  std::optional<MultiSession> multi;
  QString error;
};
OpenedSession read_opened_session(const QString& path, bool overlay);
bool write_session_file(const Session& session, const QString& path, QString* error);
// Any bytes (CSV, JSON, PNG, SVG) through rl::write_output_file_locked: refused, with *error
// naming the other writer and its pid, while a CLI run or trace writes the same file.
bool write_text_file(const QString& path, std::string_view text, QString* error);
// image encoded as PNG and written as write_text_file writes; on failure false and *error says
// why ("cannot encode PATH as PNG", or the writer's reason).
bool write_png_file(const QImage& image, const QString& path, QString* error);

}  // namespace rl::gui
