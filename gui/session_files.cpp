#include "session_files.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>

#include <exception>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/io/output_file.h"
#include "engine/io/output_lock.h"
#include "engine/io/session_file.h"

namespace rl::gui {

namespace {

// What a CLI run or trace is told holds a file the app is writing.
constexpr std::string_view kAppWriter = "the ReductionLab app";

// The file's bytes, bounded; empty with *error set when it cannot be read or is empty.
QByteArray read_bytes(const QString& path, QString* error) {
  const QString name = QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName();
  if (!QFile(path).exists()) {
    *error = QString("%1: no such file").arg(path);
    return {};
  }
  // Bounded, for any kind of file: /dev/zero or a FIFO is refused, not read forever. The
  // bundled session is a Qt resource (":/sessions/..."), which only QFile reads.
  QByteArray bytes;
  if (path.startsWith(":/")) {
    QFile resource(path);
    if (resource.open(QIODevice::ReadOnly)) bytes = resource.readAll();
  } else {
    try {
      bytes = QByteArray::fromStdString(
          read_text_file(QFile::encodeName(path).toStdString(), kMaxSessionFileBytes));
    } catch (const std::exception& e) {
      *error = QString("%1: %2").arg(path, QString::fromUtf8(e.what()));
      return {};
    }
  }
  if (bytes.trimmed().isEmpty()) {
    *error = QString("%1: the file is empty, not a ReductionLab session").arg(name);
    return {};
  }
  return bytes;
}

// Parses with `read`, turning its error into one naming the file.
template <typename T, typename Read>
std::optional<T> parse_session(const QString& path, QString* error, Read read) {
  const QByteArray bytes = read_bytes(path, error);
  if (bytes.isEmpty()) return std::nullopt;
  try {
    return read(std::string_view(bytes.constData(), size_t(bytes.size())));
  } catch (const std::exception& e) {
    const QString name = QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName();
    *error = QString("%1 is not a session this build can read: %2")
                 .arg(name, QString::fromUtf8(e.what()));
    return std::nullopt;
  }
}

// A file on disk is parsed as it is read (from_file), so a large session takes about its own
// size in memory, never its text beside it; a resource, or what is not a plain file, is read
// whole with the same bounds (from_text).
template <typename T, typename FromText, typename FromFile>
std::optional<T> read_file(const QString& path, QString* error, FromText from_text,
                           FromFile from_file) {
  const QFileInfo info(path);
  if (path.startsWith(":/") || !info.isFile() || info.size() == 0)
    return parse_session<T>(path, error, from_text);
  try {
    return from_file(QFile::encodeName(path).toStdString());
  } catch (const std::exception& e) {
    *error = QString("%1 is not a session this build can read: %2")
                 .arg(info.fileName(), QString::fromUtf8(e.what()));
    return std::nullopt;
  }
}

}  // namespace

std::optional<Session> read_session_file(const QString& path, QString* error) {
  return read_file<Session>(
      path, error, [](std::string_view text) { return session_from_json(text); },
      [](const std::string& file) { return session_from_json_file(file); });
}

std::optional<MultiSession> read_multi_session_file(const QString& path, QString* error) {
  return read_file<MultiSession>(
      path, error, [](std::string_view text) { return multi_session_from_json(text); },
      [](const std::string& file) { return multi_session_from_json_file(file); });
}

bool is_multi_session_file(const QString& path) {
  if (!path.startsWith(":/"))
    return rl::is_multi_session_file(QFile::encodeName(path).toStdString());
  QString ignored;
  const QByteArray bytes = read_bytes(path, &ignored);
  return !bytes.isEmpty() &&
         is_multi_session_json(std::string_view(bytes.constData(), size_t(bytes.size())));
}

OpenedSession read_opened_session(const QString& path, bool overlay) {
  OpenedSession out;
  // A one-GPU session, possibly very large, is read as it streams in; only a file that is not
  // one is looked at whole (a multi-GPU session is small), so opening never holds a large
  // session's whole document in memory.
  out.one = read_session_file(path, &out.error);
  // A multi-GPU session has a tab of its own ("Several GPUs"); it cannot overlay a one-GPU one.
  if (!out.one && !overlay && is_multi_session_file(path)) {
    out.error.clear();
    out.multi = read_multi_session_file(path, &out.error);
    out.is_multi = true;
  }
  return out;
}

bool write_text_file(const QString& path, std::string_view text, QString* error) {
  // The engine's writer, as the CLI's: temporary file beside the target, fsync, rename;
  // symlinks followed, devices and FIFOs written directly; the OS's reason on failure. The
  // file is locked while it is written, as a CLI run's are: a run or a trace writing it now
  // refuses the save (naming its pid), and a run started meanwhile is refused.
  const std::string why =
      write_output_file_locked(QFile::encodeName(path).toStdString(), text, kAppWriter);
  if (why.empty()) return true;
  *error = QString::fromUtf8(why);
  return false;
}

bool write_png_file(const QImage& image, const QString& path, QString* error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) {
    *error = QString("cannot encode %1 as PNG").arg(path);
    return false;
  }
  return write_text_file(path, std::string_view(bytes.constData(), std::size_t(bytes.size())),
                         error);
}

bool write_session_file(const Session& session, const QString& path, QString* error) {
  try {
    return write_text_file(path, session_to_json(session), error);
  } catch (const std::exception& e) {
    *error = QString("cannot save the session: %1").arg(QString::fromUtf8(e.what()));
    return false;
  }
}

}  // namespace rl::gui
