// `reductionlab-cli code`: the Code view's text for one kernel instantiation: a
// summary (resources, occupancy, SASS counts per architecture), or its source, SASS, PTX, or
// the source diff from another variant. All of it was embedded at build time (engine/code/).
#include <cstdio>

#include "cli.h"
#include "code_samples.h"
#include "engine/code/code_view.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "parse_args.h"

namespace rlcli {

namespace {

struct CodeArgs {
  std::string variant, type = "int32", workspace, arch, diff_from, samples, size;
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
  for (const auto& [arch, text] : e.sass) {
    const rl::code::SassCounts c = rl::code::count_sass(text);
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

int run_code(const CodeArgs& a) {
  const rl::code::CodeEntry e = entry_of(query_of(a, a.variant));
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
      const rl::VariantInfo* prev = rl::code::previous_rung(*e.variant);
      if (prev == nullptr)
        throw UsageError(e.variant->id + " is the first rung: nothing before it");
      from_id = prev->id;
    }
    // The other variant at the same shape where it takes it, else at its own defaults.
    rl::code::CodeQuery q = query_of(a, from_id);
    rl::code::CodeEntry from;
    try {
      from = rl::code::find_code(q);
    } catch (const rl::Error&) {
      q.block_size = q.unroll = 0;
      q.workspace.reset();
      from = entry_of(q);
    }
    std::fputs(
        rl::code::format_diff(rl::code::source_diff(from, e), from.variant->id, e.variant->id)
            .c_str(),
        stdout);
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
  sub->add_option("--variant", a->variant, "Variant id or classic kernel name")
      ->required()
      ->type_name("ID");
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
