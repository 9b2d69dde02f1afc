// The spec checked on the device a run goes to (settle_for_device): every validation message
// named by the flag it is about, `all` resolved and the baseline settled. Apart from building the
// spec (run_spec.cpp), which happens before the device is known.
#include "run_spec.h"

#include <algorithm>
#include <cstdio>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "flag_given.h"

namespace rlcli {

namespace {

std::string variant_id(const std::string& name) {
  const auto ref = rl::resolve_variant(name);
  return ref ? ref->variant->id : name;
}

// Why the baseline does not run: `all` left it out on this device, or it was not named.
std::string not_run_reason(const std::string& id, const std::vector<rl::Exclusion>& excluded) {
  for (const rl::Exclusion& e : excluded)
    if (e.variant == id) return "--variants all left it out on this device (" + e.reason + ")";
  return "not among the variants run (add " + id + " to --variants)";
}

// Speed-ups need the baseline in the run. An explicit --baseline outside the run is an error;
// otherwise the default (neighbored, the classic ladder's first kernel) falls back to the first
// variant run. The baseline's entries move to the front, so at each size it runs first and every
// later row already shows its speed-up.
void settle_baseline(const RunArgs& a, rl::ExperimentSpec& spec,
                     const std::vector<rl::Exclusion>& excluded) {
  auto in_run = [&](const std::string& id) {
    return std::any_of(spec.variants.begin(), spec.variants.end(),
                       [&](const std::string& n) { return variant_id(n) == id; });
  };
  if (given(a.o_baseline) && !in_run(spec.baseline))
    throw UsageError("--baseline " + a.baseline + ": " + not_run_reason(spec.baseline, excluded));
  if (!spec.baseline.empty() && !in_run(variant_id(spec.baseline))) {
    const std::string fallback = rl::default_baseline(spec);  // cub_segmented_rows for matrices
    spec.baseline = in_run(fallback) ? fallback : variant_id(spec.variants.front());
  }
  if (spec.baseline.empty()) return;
  spec.baseline = variant_id(spec.baseline);
  std::stable_partition(spec.variants.begin(), spec.variants.end(),
                        [&](const std::string& n) { return variant_id(n) == spec.baseline; });
}

// The flags a validation message (engine/spec.h) is about, most specific first: a message
// starts with its field ("block size 100: ..."); "variant X: takes block sizes ..." is about
// the block sizes typed as much as the variant. The first flag typed is named; a value from
// --spec FILE names the file; a default names nothing.
std::string flag_of(const RunArgs& a, const std::string& message) {
  struct Field {
    const char* text;
    bool prefix;  // else anywhere in the message
    std::vector<const CLI::Option*> flags;
  };
  const Field fields[] = {{"variants all", true, {a.o_variants}},
                          {": takes unroll factors", false, {a.o_unroll, a.o_variants}},
                          {": takes block sizes", false, {a.o_block_sizes, a.o_variants}},
                          {": takes workspaces", false, {a.o_workspace, a.o_variants}},
                          {": takes int32", false, {a.o_type, a.o_variants}},
                          {": takes float32", false, {a.o_type, a.o_variants}},
                          {"variant", true, {a.o_variants}},
                          {"unroll", true, {a.o_unroll}},
                          {"block size", true, {a.o_block_sizes}},
                          {"size", true, {a.o_sizes}},
                          {"shape", true, {a.o_shapes, a.o_cols, a.o_rows, a.o_total}},
                          {"workspace", true, {a.o_workspace}},
                          {"type", true, {a.o_type}},
                          {"noise", true, {a.o_noise}},
                          {"budget", true, {a.o_budget}},
                          {"samples", true, {a.o_min_samples, a.o_max_samples}},
                          {"time limit", true, {a.o_kernel_time_limit}},
                          {"max samples", true, {a.o_max_samples, a.o_min_samples}},
                          {"baseline", true, {a.o_baseline}},
                          {"points", true, {a.o_max_points}}};
  for (const Field& f : fields) {
    const std::size_t at = message.find(f.text);
    if (f.prefix ? at != 0 : at == std::string::npos) continue;
    for (const CLI::Option* o : f.flags)
      if (given(o)) return o->get_name();
    break;
  }
  return given(a.o_spec) ? "--spec " + a.spec_file : "";
}

[[noreturn]] void invalid(const RunArgs& a, const std::vector<std::string>& messages) {
  std::vector<std::string> lines;
  for (const std::string& m : messages) {
    const std::string flag = flag_of(a, m);
    // "noise 2: ..." becomes "--noise 2: ...", "block size 100: ..." "--block-sizes: block ...".
    const std::string bare = flag.substr(std::min<std::size_t>(2, flag.size()));
    if (flag.empty())
      lines.push_back(m);
    else if (m.rfind(bare + " ", 0) == 0 || m.rfind(bare + ":", 0) == 0)
      lines.push_back("--" + m);
    else
      lines.push_back(flag + ": " + m);
  }
  throw UsageError(lines.front(), {lines.begin() + 1, lines.end()});
}

}  // namespace

rl::ExperimentSpec settle_for_device(const rl::ExperimentSpec& asked, const RunArgs& a,
                                     const rl::DeviceInfo& device) {
  if (auto errors = rl::validate(asked, &device); !errors.empty()) invalid(a, errors);
  std::vector<rl::Exclusion> excluded;
  rl::ExperimentSpec spec = rl::resolve_all(asked, &device, &excluded);
  settle_baseline(a, spec, excluded);
  // Once, after the spec is known to be good: what `all` did not take, and why.
  for (const std::string& line : rl::describe_exclusions(excluded))
    std::fprintf(stderr, "reductionlab-cli: --variants all left out %s\n", line.c_str());
  return spec;
}

}  // namespace rlcli
