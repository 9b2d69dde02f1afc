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
  inst_executed += pc.inst_executed;
  thread_inst_executed += pc.thread_inst_executed;
}

void ReasonSamples::add(const ReasonSamples& other) {
  for (const auto& [name, n] : other.reasons) add(SampledPc{0, {{name, n}}});
  inst_executed += other.inst_executed;
  thread_inst_executed += other.thread_inst_executed;
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

std::string inst_text(std::uint64_t n) {
  return std::to_string(n) +
         (n == 1 ? " warp instruction executed" : " warp instructions executed");
}

// "5 samples" and/or "40 warp instructions executed": what a note is about, for whichever the point
// has ("" where both are 0).
std::string what_text(std::uint64_t samples, std::uint64_t inst) {
  if (samples > 0 && inst > 0) return count_text(samples) + " and " + inst_text(inst);
  return samples > 0 ? count_text(samples) : inst > 0 ? inst_text(inst) : std::string();
}

}  // namespace

LineMetrics line_metrics(const CodeEntry& e, const PointLineSamples& s) {
  LineMetrics m;
  m.arch = s.arch;
  m.sampled = s.samples() > 0;
  m.counted = s.counted_launches > 0 || s.inst_executed() > 0;
  m.source.resize(e.source.size());
  const char* what = m.sampled && m.counted ? "samples and counts"
                     : m.counted            ? "counts"
                                            : "samples";
  const auto sass = e.sass.find(s.arch);
  if (sass == e.sass.end()) {
    m.notes.push_back("this build has no " + (s.arch.empty() ? "SASS" : s.arch + " SASS") +
                      " for this kernel, so its " + what + " cannot be placed");
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
      m.other_functions_inst += f.inst_executed();
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
        m.unplaced_inst += pc.inst_executed;
        continue;
      }
      m.sass[line->second].add(pc);
      const LinePosition* pos = table ? line_at(*table, pc.offset) : nullptr;
      const auto src = pos ? source_index.find({pos->file, pos->line}) : source_index.end();
      if (src == source_index.end()) {
        m.off_source += pc.samples();
        m.off_source_inst += pc.inst_executed;
      } else {
        m.source[src->second].add(pc);
      }
    }
  }
  for (ReasonSamples& r : m.sass) r.sort();
  for (ReasonSamples& r : m.source) r.sort();
  m.kernel.sort();
  if (m.empty())
    m.notes.push_back(std::string("the ") + what + " have none of this kernel's functions");
  if (m.other_functions > 0 || m.other_functions_inst > 0)
    m.notes.push_back(what_text(m.other_functions, m.other_functions_inst) +
                      " in other kernels of the point (the finishing pass), not shown here");
  if (m.unplaced > 0 || m.unplaced_inst > 0)
    m.notes.push_back(what_text(m.unplaced, m.unplaced_inst) +
                      " at offsets this build's SASS has no instruction for: the " + what +
                      " were taken with a different build of the kernel");
  if (m.off_source > 0 || m.off_source_inst > 0)
    m.notes.push_back(
        what_text(m.off_source, m.off_source_inst) +
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

std::string short_count(std::uint64_t n) {
  if (n == 0) return {};
  if (n < 1000) return std::to_string(n);
  static const char* kUnits[] = {"K", "M", "G", "T", "P", "E"};
  double v = double(n);
  int unit = -1;
  while (v >= 999.5 && unit < 5) {  // 999.5 and up would print as "1000"
    v /= 1000.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 99.95 ? "%.1f%s" : "%.0f%s", v, kUnits[unit]);
  return buf;
}

std::string count_note(const ReasonSamples& line) {
  if (line.inst_executed == 0) return {};
  char eff[16];
  std::snprintf(eff, sizeof eff, "%.0f%%", 100.0 * line.thread_efficiency());
  return short_count(line.inst_executed) + " inst, " + eff + " threads";
}

}  // namespace rl::code
