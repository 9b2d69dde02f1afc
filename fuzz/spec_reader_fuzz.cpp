// libFuzzer target: the spec reader (engine/export.h spec_from_json, `reductionlab-cli run
// --spec FILE`) and what the CLI does next with a spec it read: validate() on the host backend
// (the memory check's arithmetic, every message), resolve_all(), count_points() and expand().
// Every input is refused with rl::Error, read and refused by validate() with messages, or read,
// valid and expanded to exactly the points counted; a spec read writes out (spec_to_json) and
// reads back to the same text.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/core/error.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rl::ExperimentSpec spec;
  try {
    spec = rl::spec_from_json(text);
  } catch (const rl::Error& e) {
    rl::fuzz::check_message(e.what());
    return 0;
  }
  // No "variants" leaves the list empty (the CLI then runs the seed's ladder); written out that
  // is "variants": [], which a spec file may not say. Round trips start from a list.
  if (!spec.variants.empty()) {
    const std::string once = rl::spec_to_json(spec);
    try {
      if (rl::spec_to_json(rl::spec_from_json(once)) != once)
        rl::fuzz::broken("a spec changes when written and read again", once);
    } catch (const rl::Error& e) {
      rl::fuzz::broken("a spec the reader took does not read back once written", e.what());
    }
  }
  const std::vector<std::string> errors = rl::validate(spec, nullptr);
  for (const std::string& e : errors) rl::fuzz::check_message(e);
  if (!errors.empty() || spec.variants.empty()) return 0;
  std::vector<rl::Exclusion> excluded;
  const rl::ExperimentSpec resolved = rl::resolve_all(spec, nullptr, &excluded);
  rl::describe_exclusions(excluded);
  // count_points() is what bounds expand() before it builds anything: it must be exact. A
  // valid spec may raise its max_points on purpose; the points of one that large are not built.
  const std::uint64_t counted = rl::count_points(resolved);
  if (counted > resolved.max_points)
    rl::fuzz::broken("validate() took a spec past its max_points", rl::spec_to_json(spec));
  if (counted > 100000) return 0;
  const std::vector<rl::PointSpec> points = rl::expand(resolved);
  if (points.empty()) rl::fuzz::broken("a valid spec expands to no points", rl::spec_to_json(spec));
  if (points.size() != counted)
    rl::fuzz::broken("count_points() is not the number of points expand() makes",
                     rl::spec_to_json(spec));
  return 0;
}
