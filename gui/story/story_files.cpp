#include "story/story_files.h"

#include <QFile>
#include <QFileInfo>

#include <exception>

namespace rl::gui {

const QList<ShippedStory>& shipped_stories() {
  static const QList<ShippedStory> stories = {
      {":/stories/seed-ladder.json", "The classic ladder"},
      {":/stories/modern.json", "Past the classic ladder (the modern kernels)"},
      // Its steps are points of the rows and columns sweep (sessions/h100-rows.json).
      {":/stories/rows.json", "Short rows, long rows (open the rows and columns session)"},
  };
  return stories;
}

std::optional<Story> read_story_file(const QString& path, QString* error) {
  const QString name = QFileInfo(path).fileName();
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = name + ": " + f.errorString();
    return std::nullopt;
  }
  // One byte past the limit is enough for the engine to refuse the size (a FIFO or /dev/zero
  // is never read to its end).
  const QByteArray bytes = f.read(qint64(kMaxStoryBytes) + 1);
  try {
    return parse_story(std::string_view(bytes.constData(), std::size_t(bytes.size())),
                       name.toStdString(), QFileInfo(path).absolutePath().toStdString());
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

}  // namespace rl::gui
