// `reductionlab-cli code`: the Code view's text for one kernel instantiation: a
// summary (resources, occupancy, SASS counts per architecture), or its source, SASS, PTX, or
// the source diff from another variant. All of it was embedded at build time (engine/code/).
#include <cstdio>

#include <regex>
#include "cli.h"
#include "code_samples.h"

#include "engine/code/code_view.h"
#include "engine/code/user_code.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/report/format.h"
#include "engine/user/user_kernel.h"
#include "parse_args.h"

namespace rlcli {

namespace {

struct CodeArgs {
  std::string variant, type = "int32", workspace, arch, diff_from, samples, size, kernel,
                       kernel_name;
  int block_size = 0, unroll = 0;
  bool source = false, sass = false, ptx = false, diff_previous = false;
};

rl::code::CodeQuery query_of(const CodeArgs& a, const std::string& variant) {
  rl::code::CodeQuery q;
  q.variant = parse_variant_id("--variant", variant);
  q.block_size = a.block_size;
  q.unroll = a.unroll;
  q.type = parse_types("--type", a.type).front();
  if (!a.workspace.empty()) q.workspace = parse_workspaces("--workspace", a.workspace).front();
  return q;
}

// The entry for a query; a shape the variant does not take is a usage error, not a failure.
rl::code::CodeEntry entry_of(const rl::code::CodeQuery& q) {
  try {
    return rl::code::find_code(q);
  } catch (const rl::Error& e) {
    throw UsageError(e.what());
  }
}

std::string counts_line(const rl::code::SassCounts& c) {
  return std::to_string(c.instructions) + " instructions: BAR " + std::to_string(c.barrier) +
         "  SHFL " + std::to_string(c.shuffle) + "  BRA/BSSY/BSYNC " + std::to_string(c.branch) +
         "  loads " + std::to_string(c.load) + "  stores " + std::to_string(c.store);
}

void print_summary(const rl::code::CodeEntry& e) {
  const rl::code::CodeQuery& q = e.query;
  std::printf("variant  %s (%s)  B=%d U=%d %s %s\n", e.variant->id.c_str(),
              e.variant->display_name.c_str(), q.block_size, q.unroll,
              std::string(rl::to_string(q.type)).c_str(),
              std::string(rl::to_string(*q.workspace)).c_str());
  for (const std::string& f : e.functions) std::printf("kernel   %s\n", f.c_str());
  if (!e.missing.empty()) std::printf("no SASS: %s\n", e.missing.c_str());
  for (const std::string& arch : rl::code::archs_in_order(e.sass)) {
    const rl::code::SassCounts c = rl::code::count_sass(e.sass.at(arch));
    std::printf("%-8s SASS %s\n", arch.c_str(), counts_line(c).c_str());
    const auto r = e.resources.find(arch);
    if (r == e.resources.end()) continue;
    std::printf(
        "         registers %d  local %d B (spill instructions: %d STL, %d LDL)  "
        "shared %d B static + %d B dynamic\n",
        r->second.registers, r->second.local, c.local_store, c.local_load, e.static_shared(arch),
        e.dynamic_shared);
    if (const auto o = e.occupancy(arch))
      std::printf(
          "         theoretical occupancy %.0f%% at B=%d (%d warps per SM, %d blocks; "
          "limited by %s)\n",
          o->fraction * 100, q.block_size, o->warps_per_sm, o->blocks_per_sm, o->limiter.c_str());
  }
}

// "reduceUnroll4 (unroll U=4)": a side of a diff as people name it.
std::string diff_side(const rl::code::CodeEntry& c) {
  const std::string label = rl::variant_label(c.variant->id, c.query.unroll);
  return label == c.variant->id ? label : label + " (" + c.variant->id + ")";
}

// The source diff; where no line changes, says so first and why (one kernel at two unroll
// factors, or two variants that share their source) instead of listing every line unchanged.
void print_diff(const rl::code::CodeEntry& from, const rl::code::CodeEntry& to) {
  const auto diff = rl::code::source_diff(from, to);
  const rl::code::DiffStats stats = rl::code::diff_stats(diff);
  if (stats.added > 0 || stats.removed > 0) {
    std::fputs(rl::code::format_diff(diff, diff_side(from), diff_side(to)).c_str(), stdout);
    return;
  }
  const rl::code::CodeQuery &f = from.query, &t = to.query;
  std::vector<std::string> differs;
  auto compare = [&](const char* name, const std::string& a, const std::string& b) {
    if (a != b) differs.push_back(std::string(name) + " (" + a + " -> " + b + ")");
  };
  compare("U", std::to_string(f.unroll), std::to_string(t.unroll));
  compare("B", std::to_string(f.block_size), std::to_string(t.block_size));
  compare("the type", std::string(rl::to_string(f.type)), std::string(rl::to_string(t.type)));
  compare("the workspace", std::string(rl::to_string(*f.workspace)),
          std::string(rl::to_string(*t.workspace)));
  std::string list;
  for (std::size_t i = 0; i < differs.size(); ++i)
    list += (i == 0 ? "" : i + 1 == differs.size() ? " and " : ", ") + differs[i];
  std::printf("%s and %s: no source line differs (%d lines, the same in both): %s; %s\n",
              diff_side(from).c_str(), diff_side(to).c_str(), stats.same,
              from.variant == to.variant ? "one kernel" : "the two variants share one source",
              list.empty() ? "nothing else differs" : ("only " + list + " differs").c_str());
  std::printf("--source prints it; --sass shows what that changes in the machine code.\n");
}

// The architecture to print: --arch, else sm_90 (the lent GPU), else the first there is.
const std::string& pick(const std::map<std::string, std::string>& texts, const std::string& arch,
                        const std::string& preferred, const char* what) {
  if (texts.empty()) throw rl::Error(std::string("no ") + what + " in this build for this kernel");
  const auto it = texts.find(arch.empty() ? preferred : arch);
  if (it != texts.end()) return it->second;
  if (!arch.empty()) {
    std::string have;
    for (const auto& [a, t] : texts) have += (have.empty() ? "" : ", ") + a;
    throw UsageError("--arch " + rl::echo(arch) + ": no " + what +
                     " for it in this build (built: " + have + ")");
  }
  return texts.begin()->second;
}

// A kernel the user wrote, compiled now: the compiler's messages on stderr as FILE:LINE:COL, and
// the entry the built-in rungs have.
rl::code::CodeEntry user_entry(const CodeArgs& a) {
  if (!a.variant.empty()) throw UsageError("--kernel " + a.kernel + ": give --kernel or --variant");
  const rl::UserKernelSource k = read_kernel_arg(a.kernel, a.kernel_name);
  rl::UserCompileShape shape;
  shape.block_size = a.block_size ? a.block_size : 256;
  shape.unroll = a.unroll ? a.unroll : 1;
  shape.type = parse_types("--type", a.type).front();
  shape.arch = a.arch.empty() ? "sm_90" : a.arch;
  if (!std::regex_match(shape.arch, std::regex(R"(sm_\d{2,3}a?)")))
    throw UsageError("--arch " + rl::echo(a.arch) + ": an architecture such as sm_90");
  const rl::VariantInfo* v = rl::find_variant_by_id(k.name);
  if (!v->takes_block_size(shape.block_size) || !v->takes_unroll(shape.unroll))
    throw UsageError(
        "--block-size/--unroll: a kernel you wrote takes block sizes 32 to 1024 and "
        "unroll factors 1 to 16, powers of two");
  rl::code::UserCode u = rl::code::user_code(k, shape);
  if (!u.compiled.unavailable.empty()) throw rl::Error(u.compiled.unavailable);
  for (const rl::CompileDiagnostic& d : u.compiled.diagnostics)
    std::fprintf(stderr, "%s:%d:%d: %s: %s\n", a.kernel.c_str(), d.line, d.column,
                 d.severity.c_str(), d.message.c_str());
  if (!u.compiled.ok) throw rl::Error(k.name + " does not compile for " + shape.arch);
  std::fprintf(stderr, "compiled %s for %s in %.0f ms (NVRTC %s)\n", k.name.c_str(),
               shape.arch.c_str(), u.compiled.compile_ms, rl::nvrtc_version().c_str());
  return u.entry;
}

int run_code(const CodeArgs& a) {
  if (a.variant.empty() && a.kernel.empty())
    throw UsageError("give --variant ID or --kernel FILE.cu");
  const rl::code::CodeEntry e = a.kernel.empty() ? entry_of(query_of(a, a.variant)) : user_entry(a);
  if (!a.samples.empty()) {
    if (a.ptx || a.diff_previous || !a.diff_from.empty() || !a.arch.empty())
      throw UsageError(
          "--samples: shows the SASS of the samples' GPU (--sass), the source "
          "(--source) or a summary; not --ptx, --diff, --diff-from or --arch");
    print_line_samples(e, a.samples, a.size,
                       a.sass     ? SampledText::Sass
                       : a.source ? SampledText::Source
                                  : SampledText::Summary);
    return kExitOk;
  }
  if (!a.size.empty()) throw UsageError("--size: picks the point of --samples; give --samples");
  if (a.source) {
    std::fputs(e.source_text().c_str(), stdout);
  } else if (a.sass) {
    std::fputs(pick(e.sass, a.arch, "sm_90", "SASS").c_str(), stdout);
  } else if (a.ptx) {
    std::fputs(pick(e.ptx, a.arch, "compute_90", "PTX").c_str(), stdout);
  } else if (a.diff_previous || !a.diff_from.empty()) {
    std::string from_id = a.diff_from;
    if (a.diff_previous) {
      if (!a.kernel.empty())
        throw UsageError("--diff: give --diff-from VARIANT for a kernel you wrote");
      const rl::VariantInfo* prev = rl::code::previous_rung(*e.variant);
      if (prev == nullptr)
        throw UsageError(e.variant->id + " is the first rung: nothing before it");
      from_id = prev->id;
    }
    // The other variant at the same shape where it takes it, else at its own defaults; a
    // classic name with a factor ("reduceUnroll4") keeps its factor.
    rl::code::CodeQuery q = query_of(a, from_id);
    if (const auto ref = rl::resolve_variant(from_id); ref && ref->unroll) q.unroll = *ref->unroll;
    rl::code::CodeEntry from;
    try {
      from = rl::code::find_code(q);
    } catch (const rl::Error&) {
      q.block_size = q.unroll = 0;
      q.workspace.reset();
      from = entry_of(q);
    }
    print_diff(from, e);
  } else {
    print_summary(e);
  }
  return kExitOk;
}

}  // namespace

Command add_code_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "code",
      "The code behind a variant, as built: a summary (registers, local memory, shared memory, "
      "theoretical occupancy, SASS counts per architecture), or its CUDA source, SASS, PTX, or "
      "the source diff from another variant.");
  auto a = std::make_shared<CodeArgs>();
  sub->add_option("--variant", a->variant, "Variant id or classic kernel name")->type_name("ID");
  sub->add_option("--kernel", a->kernel,
                  "A .cu file with a kernel you wrote (docs/user-kernels.md), compiled now with "
                  "NVRTC for --arch (default sm_90)")
      ->type_name("FILE.cu");
  sub->add_option("--kernel-name", a->kernel_name,
                  "Which kernel of the --kernel file (default: its only one)")
      ->type_name("NAME");
  sub->add_option("--block-size", a->block_size, "Block size (default 256, or the variant's own)")
      ->type_name("B");
  sub->add_option("--unroll", a->unroll, "Unroll factor (default: the variant's)")->type_name("U");
  sub->add_option("--type", a->type, "Data type")->type_name("int32|float32");
  sub->add_option("--workspace", a->workspace, "Workspace (default: the variant's first)")
      ->type_name("global|shared|registers");
  sub->add_option("--arch", a->arch, "Architecture for --sass (sm_90) or --ptx (compute_90)")
      ->type_name("ARCH");
  auto* source = sub->add_flag("--source", a->source, "Print the kernel's source span");
  auto* sass = sub->add_flag("--sass", a->sass, "Print the SASS (default sm_90)");
  auto* ptx = sub->add_flag("--ptx", a->ptx, "Print the PTX (default compute_90)");
  auto* diff = sub->add_option("--diff-from", a->diff_from,
                               "Print the source diff from this variant to --variant")
                   ->type_name("ID");
  auto* prev = sub->add_flag("--diff", a->diff_previous,
                             "Print the source diff from the previous rung of the ladder");
  sub->add_option("--samples", a->samples,
                  "A session a run with --line-samples or --line-counts wrote: annotate the SASS "
                  "or source with each line's share of the warp samples and its largest stall, "
                  "or its executed instructions and thread efficiency (alone: a summary)")
      ->type_name("SESSION");
  sub->add_option("--size", a->size, "The point of --samples at this N (default: the largest)")
      ->type_name("N");
  const std::vector<CLI::Option*> modes{source, sass, ptx, diff, prev};
  for (CLI::Option* m : modes)
    for (CLI::Option* other : modes)
      if (m != other) m->excludes(other);
  return Command{sub, [a] { return run_code(*a); }};
}

}  // namespace rlcli
