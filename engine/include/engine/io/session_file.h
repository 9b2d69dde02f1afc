// A session read straight from its file (io/export.h's session_from_json reads text): the file is
// parsed a block at a time as it is read, with read_text_file's checks (at most 1 GiB, no NUL
// byte, not a directory), so opening a session takes little more memory than the session itself,
// never the whole text beside it.
#pragma once

#include <string>

#include "engine/session/multi_results.h"
#include "engine/session/results.h"

namespace rl {

// Throws rl::Error as session_from_json does, or as read_text_file does for the file itself
// ("cannot read: No such file or directory"), without the file's name (the caller puts it first).
Session session_from_json_file(const std::string& path);

// A multi-GPU session (run --devices ... --json FILE), read the same way: its points one at a
// time as they stream in. Throws as multi_session_from_json does, or as read_text_file does.
MultiSession multi_session_from_json_file(const std::string& path);
// Whether the file is a multi-GPU session, from its first bytes alone (the "kind" the writer
// puts before its first list); false for a file that cannot be read.
bool is_multi_session_file(const std::string& path);

}  // namespace rl
