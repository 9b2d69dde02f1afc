#include "jobs/read_position.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace rl::gui {

qint64 file_read_position(const QString& canonical_path) {
  if (canonical_path.isEmpty()) return -1;
  qint64 furthest = -1;
  const QDir fds("/proc/self/fd");
  for (const QString& fd : fds.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
    if (QFileInfo(fds.filePath(fd)).symLinkTarget() != canonical_path) continue;
    QFile info("/proc/self/fdinfo/" + fd);
    if (!info.open(QIODevice::ReadOnly)) continue;
    const QByteArray first = info.readLine();  // "pos:\t12345"
    if (!first.startsWith("pos:")) continue;
    bool ok = false;
    const qint64 pos = first.mid(4).trimmed().toLongLong(&ok);
    if (ok) furthest = std::max(furthest, pos);
  }
  return furthest;
}

}  // namespace rl::gui
