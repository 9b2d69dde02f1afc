#include "engine/code/line_metrics.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>

#include "engine/code/line_diff.h"
#include "engine/code/point_match.h"

namespace rl::code {

void ReasonSamples::add(const SampledPc& pc) {
  for (const auto& [name, n] : pc.reasons) {
    auto it = std::find_if(reasons.begin(), reasons.end(),
                           [&](const auto& r) { return r.first == name; });
    if (it == reasons.end())
      reasons.emplace_back(name, n);
    else
      it->second += n;
    total += n;
  }
}

void ReasonSamples::add(const ReasonSamples& other) {
  for (const auto& [name, n] : other.reasons) add(SampledPc{0, {{name, n}}});
}

void ReasonSamples::sort() {
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
}

std::uint64_t ReasonSamples::reason(std::string_view name) const {
  for (const auto& [r, n] : reasons)
    if (r == name) return n;
  return 0;
}

std::string ReasonSamples::top_stall() const {
  const std::pair<std::string, std::uint64_t>* best = nullptr;
  for (const auto& r : reasons)
    if (r.first != "selected" && r.second > 0 && (!best || r.second > best->second)) best = &r;
  return best ? best->first : std::string();
}

namespace {

// (function index, offset) of every instruction line of the entry's SASS text; -1 for others.
// Several functions are separated by "// Function : <demangled>" lines (find_code).
std::vector<std::pair<int, std::uint64_t>> sass_positions(const CodeEntry& e,
                                                          const std::string& text) {
  static const std::regex offset(R"(^\s*/\*([0-9a-f]{4,})\*/)");
  std::vector<std::pair<int, std::uint64_t>> out;
  int function = e.mangled.empty() ? -1 : 0;
  for (const std::string& line : split_lines(text)) {
    if (line.rfind("// Function : ", 0) == 0) {
      const std::string name = line.substr(14);
      const auto it = std::find(e.functions.begin(), e.functions.end(), name);
      function = it == e.functions.end() ? -1 : int(it - e.functions.begin());
      out.emplace_back(-1, 0);
      continue;
    }
    std::smatch m;
    if (function >= 0 && std::regex_search(line, m, offset))
      out.emplace_back(function, std::stoull(m[1].str(), nullptr, 16));
    else
      out.emplace_back(-1, 0);
  }
  return out;
}

// The source line (file, line) the instruction at `offset` came from, per the line table.
const LinePosition* line_at(const std::vector<LinePosition>& table, std::uint64_t offset) {
  auto it = std::upper_bound(table.begin(), table.end(), offset,
                             [](std::uint64_t o, const LinePosition& p) { return o < p.offset; });
  if (it == table.begin()) return nullptr;
  --it;
  return it->file.empty() ? nullptr : &*it;
}

// A kernel's name without its anonymous namespace's unique part: nvcc names an anonymous
// namespace after a hash of its file's path ("47_GLOBAL__N__1746deeb_14_seed_ladder_cu_38541c60"),
// so the same kernel built in another checkout (the GPU machine's build that took a session's
// samples, and this one) has another mangled name. The length prefix says where it ends.
std::string without_anonymous_hash(const std::string& mangled) {
  std::string out = mangled;
  for (std::size_t at = out.find("_GLOBAL__N_"); at != std::string::npos;
       at = out.find("_GLOBAL__N_", at + 1)) {
    std::size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(out[digits - 1]))) --digits;
    if (digits == at) continue;
    const std::size_t length = std::stoul(out.substr(digits, at - digits));
    if (at + length > out.size()) continue;
    static const std::string kPlain = "11_GLOBAL__N_";
    out.replace(digits, at - digits + length, kPlain);
    at = digits + kPlain.size() - 1;  // the next search starts past the replacement
  }
  return out;
}

std::string count_text(std::uint64_t n) {
  return std::to_string(n) + (n == 1 ? " sample" : " samples");
}

}  // namespace

LineMetrics line_metrics(const CodeEntry& e, const PointLineSamples& s) {
  LineMetrics m;
  m.arch = s.arch;
  m.source.resize(e.source.size());
  const auto sass = e.sass.find(s.arch);
  if (sass == e.sass.end()) {
    m.notes.push_back("this build has no " + (s.arch.empty() ? "SASS" : s.arch + " SASS") +
                      " for this kernel, so its samples cannot be placed");
    return m;
  }
  const auto positions = sass_positions(e, sass->second);
  m.sass.resize(positions.size());
  std::map<std::pair<int, std::uint64_t>, std::size_t> at;
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (positions[i].first >= 0) at.emplace(positions[i], i);
  std::map<std::pair<std::string, int>, std::size_t> source_index;
  for (std::size_t i = 0; i < e.source.size(); ++i)
    if (!e.source[i].file.empty())
      source_index.emplace(std::make_pair(e.source[i].file, e.source[i].file_line), i);
  const auto tables = e.lines.find(s.arch);

  std::vector<std::string> names;
  for (const std::string& m : e.mangled) names.push_back(without_anonymous_hash(m));
  for (const SampledFunction& f : s.functions) {
    const auto fn = std::find(names.begin(), names.end(), without_anonymous_hash(f.function));
    if (fn == names.end()) {
      m.other_functions += f.samples();
      continue;
    }
    const int index = int(fn - names.begin());
    const std::vector<LinePosition>* table = nullptr;
    if (tables != e.lines.end())
      if (const auto t = tables->second.find(e.mangled[std::size_t(index)]);
          t != tables->second.end())
        table = &t->second;
    for (const SampledPc& pc : f.pcs) {
      m.kernel.add(pc);
      const auto line = at.find({index, pc.offset});
      if (line == at.end()) {
        m.unplaced += pc.samples();
        continue;
      }
      m.sass[line->second].add(pc);
      const LinePosition* pos = table ? line_at(*table, pc.offset) : nullptr;
      const auto src = pos ? source_index.find({pos->file, pos->line}) : source_index.end();
      if (src == source_index.end())
        m.off_source += pc.samples();
      else
        m.source[src->second].add(pc);
    }
  }
  for (ReasonSamples& r : m.sass) r.sort();
  for (ReasonSamples& r : m.source) r.sort();
  m.kernel.sort();
  if (m.kernel.total == 0) m.notes.push_back("the samples have none of this kernel's functions");
  if (m.other_functions > 0)
    m.notes.push_back(count_text(m.other_functions) +
                      " in other kernels of the point (the finishing pass), not shown here");
  if (m.unplaced > 0)
    m.notes.push_back(count_text(m.unplaced) +
                      " at offsets this build's SASS has no instruction for: the samples were "
                      "taken with a different build of the kernel");
  if (m.off_source > 0)
    m.notes.push_back(
        count_text(m.off_source) +
        " on instructions whose source line is not in the shown source (or this "
        "build has no line table: " +
        (lines_unavailable_reason().empty() ? "it has one" : lines_unavailable_reason()) + ")");
  return m;
}

const PointResult* sampled_point(const Session& session, const CodeQuery& q,
                                 std::optional<std::uint64_t> size) {
  return matching_point(
      session, q,
      [](const PointResult& r) { return r.line_samples && !r.line_samples->functions.empty(); },
      size);
}

std::string line_note(const ReasonSamples& line, std::uint64_t kernel_total) {
  if (line.total == 0 || kernel_total == 0) return {};
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * double(line.total) / double(kernel_total));
  const std::string stall = line.top_stall();
  return std::string(share) + (stall.empty() ? " issuing" : " " + stall);
}

}  // namespace rl::code
