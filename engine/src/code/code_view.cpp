#include "engine/code/code_view.h"
#include "engine/catalog/catalog.h"
#include "engine/user/user_kernel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <tuple>

#include "code/code_data.h"
#include "engine/core/error.h"

namespace rl::code {

namespace {

struct Function {
  std::string demangled;
  std::map<std::string, std::string> sass, ptx;
  std::map<std::string, Resources> resources;
  std::map<std::string, std::vector<LinePosition>> lines;
};

struct VariantSource {
  std::vector<SourceLine> lines;
};

// The embedded JSON, read once into plain strings (the JSON tree itself is dropped: in a build
// for every architecture it is several times the size of the text).
struct CodeData {
  std::map<std::string, VariantSource> variants;
  std::map<std::string, std::vector<std::string>> instances;  // key -> mangled names
  std::map<std::string, Function> functions;
  std::vector<std::string> archs, ptx_archs;
  std::string sass_unavailable, lines_unavailable;
};

VariantSource read_source(const std::string& id, const nlohmann::json& j) {
  VariantSource vs;
  const VariantInfo* v = find_variant_by_id(id);
  std::map<int, std::string> marks;
  for (const auto& m : j.at("marks")) marks[m.at(0).get<int>()] = m.at(1).get<std::string>();
  bool first = true;
  for (const auto& span : j.at("spans")) {
    const std::string file = span.at("file");
    const int first_line = span.at("first_line");
    const bool kernel = span.at("role") == "kernel";
    if (!first) vs.lines.push_back({"", "", 0, false, ""});
    first = false;
    vs.lines.push_back({"// " + file + ":" + std::to_string(first_line) +
                            (kernel ? "" : " (" + span.value("name", std::string()) + ")"),
                        "", 0, false, ""});
    const std::vector<std::string> lines = split_lines(span.at("text").get<std::string>());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto mark = marks.find(static_cast<int>(i));
      vs.lines.push_back({lines[i], file, first_line + static_cast<int>(i), kernel,
                          kernel && mark != marks.end() ? mark_phase(v, mark->second) : ""});
    }
  }
  return vs;
}

// "0000:kernels/seed_ladder.cu:16;0010:kernels/common.cuh:47;..." (gen_code_view.py).
std::vector<LinePosition> read_line_table(const std::string& table) {
  std::vector<LinePosition> out;
  std::size_t start = 0;
  while (start < table.size()) {
    std::size_t end = table.find(';', start);
    if (end == std::string::npos) end = table.size();
    const std::string entry = table.substr(start, end - start);
    start = end + 1;
    const std::size_t a = entry.find(':'), b = entry.rfind(':');
    if (a == std::string::npos || b == a) continue;
    out.push_back({std::stoull(entry.substr(0, a), nullptr, 16), entry.substr(a + 1, b - a - 1),
                   std::stoi(entry.substr(b + 1))});
  }
  return out;
}

CodeData parse(std::string_view text) {
  CodeData d;
  const nlohmann::json j = nlohmann::json::parse(text);
  for (const auto& [id, v] : j.at("variants").items()) d.variants[id] = read_source(id, v);
  for (const auto& [key, names] : j.at("instances").items())
    d.instances[key] = names.get<std::vector<std::string>>();
  for (const auto& [name, f] : j.at("functions").items()) {
    Function fn;
    fn.demangled = f.at("demangled");
    fn.sass = f.at("sass").get<std::map<std::string, std::string>>();
    fn.ptx = f.at("ptx").get<std::map<std::string, std::string>>();
    for (const auto& [arch, r] : f.at("resources").items())
      fn.resources[arch] = {r.at("registers"), r.at("shared"), r.at("local"), r.at("stack")};
    if (const auto l = f.find("lines"); l != f.end())
      for (const auto& [arch, table] : l->items())
        fn.lines[arch] = read_line_table(table.get<std::string>());
    d.functions[name] = std::move(fn);
  }
  d.archs = j.at("archs").get<std::vector<std::string>>();
  d.ptx_archs = j.at("ptx_archs").get<std::vector<std::string>>();
  d.sass_unavailable = j.value("sass_unavailable", std::string());
  d.lines_unavailable = j.value("lines_unavailable", std::string());
  return d;
}

const CodeData& data() {
  static std::once_flag once;
  static CodeData d;
  std::call_once(once, [] { d = parse(embedded_code_data()); });
  return d;
}

std::string key_of(const CodeQuery& q, int block) {
  return q.variant + "|" + std::string(rl::to_string(q.type)) + "|" +
         std::string(rl::to_string(*q.workspace)) + "|" + std::to_string(q.unroll) + "|" +
         std::to_string(block);
}

[[noreturn]] void reject(const VariantInfo& v, const std::string& what) {
  throw Error(v.id + " " + what + " (see `reductionlab-cli variants`)");
}

}  // namespace

// The catalog phase a script-side phase kind stands for: the first phase whose text starts
// with one of the kind's words ("load" -> "load: ..." or "pre-reduce: ...").
std::string mark_phase(const VariantInfo* v, const std::string& kind) {
  static const std::map<std::string, std::vector<std::string>> kPrefixes{
      {"load", {"load", "pre-reduce", "stream", "tiles", "CUB's reduction"}},
      {"map", {"map"}},
      {"count", {"count", "search"}},
      {"partition", {"partition"}},
      {"tree", {"tree"}},
      {"last warp", {"last warp"}},
      {"block sum", {"block sum", "warp sum"}},  // a warp per row (column): its sum is a warp's
      {"write", {"thread 0", "int32:", "last block", "RED", "write"}},
      {"epoch", {"epoch"}},
      {"cluster", {"cluster:"}},
      {"finish", {"CUB's"}}};
  if (v == nullptr) return kind;
  const auto it = kPrefixes.find(kind);
  if (it == kPrefixes.end()) return kind;
  for (const std::string& phase : v->phases)
    for (const std::string& prefix : it->second)
      if (phase.rfind(prefix, 0) == 0) return phase;
  return kind;
}

CodeQuery resolve_query(const CodeQuery& in) {
  const auto ref = resolve_variant(in.variant);
  if (!ref) throw Error("unknown variant '" + in.variant + "' (see `reductionlab-cli variants`)");
  const VariantInfo& v = *ref->variant;
  CodeQuery q = in;
  q.variant = v.id;
  if (q.unroll == 0) q.unroll = ref->unroll.value_or(v.default_unroll);
  if (q.block_size == 0 && !v.block_sizes.empty())
    q.block_size = v.takes_block_size(256) ? 256 : v.block_sizes.front();
  if (!q.workspace) q.workspace = v.workspaces.front();
  if (!v.takes_unroll(q.unroll)) reject(v, "takes no unroll " + std::to_string(q.unroll));
  if (!v.takes_block_size(q.block_size))
    reject(v, "takes no block size " + std::to_string(q.block_size));
  if (!v.takes_workspace(*q.workspace))
    reject(v, "takes no workspace " + std::string(rl::to_string(*q.workspace)));
  if (std::find(v.types.begin(), v.types.end(), q.type) == v.types.end())
    reject(v, "takes no type " + std::string(rl::to_string(q.type)));
  return q;
}

std::string CodeEntry::source_text() const {
  std::string out;
  for (const SourceLine& l : source) out += l.text + "\n";
  return out;
}

int CodeEntry::static_shared(const std::string& arch) const {
  const auto r = resources.find(arch);
  if (r == resources.end()) return 0;
  const auto limits = sm_limits(arch);
  const int reserved = limits ? limits->shared_reserved : 0;
  const int shared = r->second.static_shared;
  return reserved > 0 && shared >= reserved ? shared - reserved : shared;
}

std::optional<Occupancy> CodeEntry::occupancy(const std::string& arch) const {
  const auto r = resources.find(arch);
  const auto limits = sm_limits(arch);
  if (r == resources.end() || !limits || query.block_size <= 0) return std::nullopt;
  // The formula adds the system's reservation itself.
  return theoretical_occupancy(*limits, r->second.registers, static_shared(arch) + dynamic_shared,
                               query.block_size);
}

CodeEntry find_code(const CodeQuery& in) {
  const CodeData& d = data();
  CodeEntry e;
  e.query = resolve_query(in);
  e.variant = find_variant_by_id(e.query.variant);
  if (const auto s = d.variants.find(e.query.variant); s != d.variants.end())
    e.source = s->second.lines;
  if (*e.query.workspace == Workspace::Shared) e.dynamic_shared = 4 * e.query.block_size;
  auto inst = d.instances.find(key_of(e.query, e.query.block_size));
  if (inst == d.instances.end()) inst = d.instances.find(key_of(e.query, 0));
  if (inst == d.instances.end()) {
    e.missing = !d.sass_unavailable.empty()
                    ? d.sass_unavailable
                    : "this build has no kernel for " + key_of(e.query, e.query.block_size);
    return e;
  }
  const bool several = inst->second.size() > 1;
  for (const std::string& name : inst->second) {
    const Function& f = d.functions.at(name);
    e.functions.push_back(f.demangled);
    e.mangled.push_back(name);
    const std::string head = several ? "// Function : " + f.demangled + "\n" : "";
    for (const auto& [arch, text] : f.sass) e.sass[arch] += head + text;
    for (const auto& [arch, text] : f.ptx) e.ptx[arch] += text;
    for (const auto& [arch, table] : f.lines) e.lines[arch][name] = table;
    for (const auto& [arch, r] : f.resources) {
      Resources& mine = e.resources[arch];
      mine.registers = std::max(mine.registers, r.registers);
      mine.static_shared = std::max(mine.static_shared, r.static_shared);
      mine.local = std::max(mine.local, r.local);
      mine.stack = std::max(mine.stack, r.stack);
    }
  }
  return e;
}

const VariantInfo* previous_rung(const VariantInfo& v) {
  if (v.family == VariantFamily::User) {  // the rung it started from, if it says
    const auto k = user_variant_source(v.id);
    return k && !k->started_from.empty() ? find_variant_by_id(k->started_from) : nullptr;
  }
  const auto& all = catalog();
  const VariantInfo* prev = nullptr;
  for (const VariantInfo& c : all) {
    if (&c == &v) return prev;
    // The classic ladder's chain runs through its volatile kernels; its race-free twins hang off
    // it.
    const bool twin = c.family == VariantFamily::SeedLadder && c.id.ends_with("_sync");
    if (!(v.volatile_last_warp && twin)) prev = &c;
  }
  return nullptr;
}

std::vector<DiffLine> source_diff(const CodeEntry& from, const CodeEntry& to) {
  // Compare the code, not the file positions: the header lines name files and line numbers.
  auto code = [](const CodeEntry& e) {
    std::vector<std::string> lines;
    for (const SourceLine& l : e.source) lines.push_back(l.text);
    return lines;
  };
  return diff_lines(code(from), code(to));
}

std::optional<std::vector<DiffLine>> point_source_diff(const PointSpec& from, const PointSpec& to,
                                                       std::string* why) {
  auto entry = [](const PointSpec& p) {
    CodeQuery q;
    q.variant = p.variant;
    q.block_size = p.block_size;
    q.unroll = p.unroll;
    q.type = p.type;
    q.workspace = p.workspace;
    return find_code(q);
  };
  try {
    const CodeEntry a = entry(from), b = entry(to);
    if (a.source.empty() || b.source.empty()) {
      *why = "no source of " + (a.source.empty() ? from.variant : to.variant) + " in this build";
      return std::nullopt;
    }
    return source_diff(a, b);
  } catch (const Error& e) {
    *why = e.what();
    return std::nullopt;
  }
}

bool arch_before(const std::string& a, const std::string& b) {
  // "sm_90a" -> ("sm_", 90, "a"): the prefix, then the number, then what follows.
  auto parts = [](const std::string& s) {
    const std::size_t digits = s.find_first_of("0123456789");
    const std::string prefix = s.substr(0, digits);
    std::size_t end = digits;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    const long number =
        digits == std::string::npos ? -1 : std::stol(s.substr(digits, end - digits));
    return std::tuple(prefix, number, digits == std::string::npos ? "" : s.substr(end));
  };
  return parts(a) < parts(b);
}

std::vector<std::string> sass_archs() {
  std::vector<std::string> out = data().archs;
  std::sort(out.begin(), out.end(), arch_before);
  return out;
}
std::vector<std::string> ptx_archs() {
  std::vector<std::string> out = data().ptx_archs;
  std::sort(out.begin(), out.end(), arch_before);
  return out;
}
std::string sass_unavailable_reason() {
  return data().sass_unavailable;
}
std::string lines_unavailable_reason() {
  return data().lines_unavailable;
}
std::vector<std::string> variants_with_source() {
  std::vector<std::string> ids;
  for (const auto& [id, v] : data().variants) ids.push_back(id);
  return ids;
}
std::size_t instance_count() {
  return data().instances.size();
}

}  // namespace rl::code
