// Where stories come from: those that ship inside the app (Qt resources, from
// resources/stories/) and a presenter's own file (File > Open story...). The rules of a story
// file are the engine's (engine/views/story.h); this only reads the bytes.
#pragma once

#include <QList>
#include <QString>

#include <optional>

#include "engine/views/story.h"

namespace rl::gui {

struct ShippedStory {
  QString path;  // ":/stories/seed-ladder.json"
  QString menu;  // "The classic ladder"
};
const QList<ShippedStory>& shipped_stories();

// The story in a file, or nullopt with *error naming the file and the field that is wrong.
std::optional<Story> read_story_file(const QString& path, QString* error);

}  // namespace rl::gui
