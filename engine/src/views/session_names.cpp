#include "engine/views/session_names.h"

#include <map>

#include "engine/experiment/grammar.h"
#include "engine/report/format.h"

namespace rl {

std::string session_time_label(const std::string& created_utc) {
  // ISO 8601: YYYY-MM-DDTHH:MM...; anything shorter is not a time we can read.
  if (created_utc.size() < 16 || created_utc[4] != '-' || created_utc[10] != 'T') return {};
  return created_utc.substr(5, 5) + " " + created_utc.substr(11, 5);
}

std::vector<std::string> session_names(const std::vector<SessionNameParts>& sessions) {
  std::map<std::string, int> bases;
  for (const SessionNameParts& s : sessions) ++bases[s.base];
  std::vector<std::string> names;
  std::map<std::string, int> used;
  for (const SessionNameParts& s : sessions) {
    std::string name = s.base;
    const std::string time = session_time_label(s.created_utc);
    if (!s.given && bases[s.base] > 1 && !time.empty()) name += " " + time;
    std::string unique = name;
    for (int n = 2; used.count(unique); ++n) unique = name + " (" + std::to_string(n) + ")";
    used[unique] = 1;
    names.push_back(unique);
  }
  return names;
}

std::string compared_point_label(const PointSpec& p) {
  return variant_label(p.variant, p.unroll) + " " + std::string(to_string(p.workspace)) +
         " B=" + block_size_text(p.block_size) + " N=" + format_size(p.size) + " " +
         std::string(to_string(p.type));
}

}  // namespace rl
