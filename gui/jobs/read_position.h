// How far this process has read a file: the offset of the descriptor that has it open, as the
// kernel reports it (/proc/self/fdinfo). Lets the window show bytes read while the engine's reader
// parses a session on another thread, without the reader saying anything. -1 where nothing has
// the file open or the system does not say (not Linux).
#pragma once

#include <QString>

namespace rl::gui {

qint64 file_read_position(const QString& canonical_path);

}  // namespace rl::gui
