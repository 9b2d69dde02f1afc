// What the open sessions are called: a run adds a session beside the others,
// so two sessions of one GPU must read differently in a list, a legend and a comparison's title.
// One home for the rule; the app decides only which sessions are open.
#pragma once

#include <string>
#include <vector>

#include "engine/session/results.h"

namespace rl {

// "11-29 14:02" from a session's created_utc ("2026-11-29T14:02:11Z"); "" when it has none.
std::string session_time_label(const std::string& created_utc);

// One name per session, all different: the base (the device, "H200", or a name the person
// gave); where two share a base, the time the session was made is added ("H200 11-29 14:02");
// where that still repeats, a number ("H200 11-29 14:02 (2)"). A name the person gave is kept
// as it is when no other session has it.
struct SessionNameParts {
  std::string base;
  std::string created_utc;
  bool given = false;  // the person's own name: never has the time added
};
std::vector<std::string> session_names(const std::vector<SessionNameParts>& sessions);

// A point as a comparison lists it when it is in one session only:
// "Unroll8 shared B=512 N=2^24 int32".
std::string compared_point_label(const PointSpec& p);

}  // namespace rl
