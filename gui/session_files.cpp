#include "session_files.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <exception>

#include "error.h"
#include "export.h"

namespace rl::gui {

namespace {
constexpr qint64 kMaxSessionBytes = qint64(1) << 30;  // raw samples of a big sweep stay far below
}

std::optional<Session> read_session_file(const QString& path, QString* error) {
  const QString name = QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName();
  QFile file(path);
  if (!file.exists()) {
    *error = QString("%1: no such file").arg(path);
    return std::nullopt;
  }
  if (!file.open(QIODevice::ReadOnly)) {
    *error = QString("%1: cannot open: %2").arg(path, file.errorString());
    return std::nullopt;
  }
  if (file.size() > kMaxSessionBytes) {
    *error = QString("%1: %2 bytes is too large for a session file").arg(name).arg(file.size());
    return std::nullopt;
  }
  const QByteArray bytes = file.readAll();
  if (bytes.trimmed().isEmpty()) {
    *error = QString("%1: the file is empty, not a ReductionLab session").arg(name);
    return std::nullopt;
  }
  try {
    return session_from_json(std::string_view(bytes.constData(), size_t(bytes.size())));
  } catch (const std::exception& e) {
    *error = QString("%1 is not a session this build can read: %2")
                 .arg(name, QString::fromUtf8(e.what()));
    return std::nullopt;
  }
}

bool write_text_file(const QString& path, const std::string& text, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    *error = QString("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  if (file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit()) {
    *error = QString("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
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
