#include "code_samples.h"

#include <algorithm>
#include <cstdio>

#include "cli.h"
#include "engine/code/line_diff.h"
#include "engine/code/line_metrics.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/io/session_file.h"
#include "engine/report/format.h"
#include "output_files.h"
#include "parse_args.h"

namespace rlcli {

namespace {

rl::Session read_samples_session(const std::string& path) {
  try {
    // Parsed as it is read: never the whole text beside the session (io/session_file.h).
    return rl::session_from_json_file(path);
  } catch (const std::exception& e) {
    throw UsageError("--samples " + path + ": " + e.what());
  }
}

// A line's executed warp instructions and thread efficiency, each right-aligned in its column
// (blank where the line executed none).
std::string count_cells(const rl::code::ReasonSamples& line) {
  char buf[64];
  if (line.inst_executed == 0) {
    std::snprintf(buf, sizeof buf, "%12s %12s", "", "");
  } else {
    char eff[16];
    std::snprintf(eff, sizeof eff, "%.1f", 100.0 * line.thread_efficiency());
    std::snprintf(buf, sizeof buf, "%12llu %12s",
                  static_cast<unsigned long long>(line.inst_executed), eff);
  }
  return buf;
}

// Each line with fixed-width columns in front ("" where none): its share of the samples and its
// stall where the point was sampled, its executed instructions and thread efficiency where it
// was counted (under a header naming them).
void print_annotated(const std::vector<std::string>& lines,
                     const std::vector<rl::code::ReasonSamples>& per_line,
                     const rl::code::LineMetrics& m) {
  const bool samples = m.sampled || !m.counted;
  if (m.counted)
    std::printf("%s%12s %12s| \n", samples ? "samples                  " : "", "executed",
                "thread eff %");  // "samples" padded to the sample column and its space
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const rl::code::ReasonSamples none;
    const rl::code::ReasonSamples& l = i < per_line.size() ? per_line[i] : none;
    std::string front;
    if (samples) {
      char note[64];
      std::snprintf(note, sizeof note, "%-24s", rl::code::line_note(l, m.kernel.total).c_str());
      front = note;
      if (m.counted) front += ' ';
    }
    if (m.counted) front += count_cells(l);
    std::printf("%s| %s\n", front.c_str(), lines[i].c_str());
  }
}

// The executed instructions in a summary: the kernel's, and the source lines that ran most.
void print_count_summary(const rl::code::CodeEntry& e, const rl::code::LineMetrics& m) {
  const rl::code::ReasonSamples& k = m.kernel;
  std::printf(
      "%llu warp instructions executed in %s (%llu thread instructions): %.1f%% of the "
      "threads active\n",
      static_cast<unsigned long long>(k.inst_executed), e.variant->id.c_str(),
      static_cast<unsigned long long>(k.thread_inst_executed), 100.0 * k.thread_efficiency());
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < m.source.size(); ++i)
    if (m.source[i].inst_executed > 0) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return m.source[a].inst_executed > m.source[b].inst_executed;
  });
  std::printf("source lines that executed the most (executed, thread eff %%):\n");
  for (std::size_t r = 0; r < order.size() && r < 8; ++r) {
    const rl::code::SourceLine& l = e.source[order[r]];
    std::printf("  %s  %s:%d  %s\n", count_cells(m.source[order[r]]).c_str(), l.file.c_str(),
                l.file_line, l.text.c_str());
  }
}

void print_sample_summary(const rl::code::CodeEntry& e, const rl::code::LineMetrics& m) {
  const rl::code::ReasonSamples& k = m.kernel;
  std::printf("%llu warp samples in %s; by reason:\n", static_cast<unsigned long long>(k.total),
              e.variant->id.c_str());
  for (const auto& [reason, n] : k.reasons)
    if (n * 200 >= k.total)  // the reasons of at least 0.5%
      std::printf("  %-22s %5.1f%%\n", reason.c_str(), 100.0 * double(n) / double(k.total));
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < m.source.size(); ++i)
    if (m.source[i].total > 0) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return m.source[a].total > m.source[b].total; });
  std::printf("source lines with the most samples:\n");
  for (std::size_t r = 0; r < order.size() && r < 8; ++r) {
    const rl::code::SourceLine& l = e.source[order[r]];
    std::printf("  %-22s %s:%d  %s\n", rl::code::line_note(m.source[order[r]], k.total).c_str(),
                l.file.c_str(), l.file_line, l.text.c_str());
  }
}

// What the CUDA runtime said of the point's kernels on the GPU that ran it (the Code tab's
// resources page shows the same), one line per kernel.
void print_runtime_occupancy(const rl::Session& session, const rl::PointResult& point) {
  if (point.occupancy.empty()) return;
  std::printf("on %s (the CUDA occupancy API, as the session recorded it):\n",
              session.device.name.c_str());
  for (const rl::KernelOccupancy& k : point.occupancy)
    std::printf(
        "  %-12s %u x %d  registers %d  local %zu B  shared %zu + %zu B: %d blocks, %d of %d "
        "warps per SM (%.0f%%)\n",
        k.role.c_str(), k.grid, k.block, k.registers, k.local_bytes, k.static_shared,
        k.dynamic_shared, k.blocks_per_sm, k.warps_per_sm(), k.max_warps_per_sm,
        k.fraction() * 100);
}

}  // namespace

void print_line_samples(const rl::code::CodeEntry& e, const std::string& session_path,
                        const std::string& size, SampledText what) {
  const rl::Session session = read_samples_session(session_path);
  std::optional<std::uint64_t> n;
  if (!size.empty()) n = parse_size_arg("--size", size);
  const rl::PointResult* point = rl::code::sampled_point(session, e.query, n);
  if (!point)
    throw UsageError(
        "--samples " + session_path + ": no point of " + e.variant->id +
        " at B=" + std::to_string(e.query.block_size) + " U=" + std::to_string(e.query.unroll) +
        " " + std::string(rl::to_string(e.query.type)) + " " +
        std::string(rl::to_string(*e.query.workspace)) + (n ? " N=" + rl::format_size(*n) : "") +
        " with line samples or counts (take them with `run --line-samples` or "
        "`run --line-counts`)");
  const rl::PointLineSamples& s = *point->line_samples;
  const rl::code::LineMetrics m = rl::code::line_metrics(e, s);
  if (m.sampled || !m.counted)
    std::printf("# %s, %s: warp samples every 2^%d cycles over %d launches of each step\n",
                point->point.label().c_str(), s.arch.c_str(), s.period_log2, s.launches);
  if (m.counted)
    std::printf(
        "# %s, %s: executed instructions counted (CUPTI's SASS metrics) in %d launch%s "
        "of each step\n",
        point->point.label().c_str(), s.arch.c_str(), s.counted_launches,
        s.counted_launches == 1 ? "" : "es");
  for (const std::string& note : m.notes) std::printf("# %s\n", note.c_str());
  if (m.empty()) return;
  switch (what) {
    case SampledText::Sass:
      print_annotated(rl::code::split_lines(e.sass.at(s.arch)), m.sass, m);
      break;
    case SampledText::Source: {
      std::vector<std::string> lines;
      for (const rl::code::SourceLine& l : e.source) lines.push_back(l.text);
      print_annotated(lines, m.source, m);
      break;
    }
    case SampledText::Summary:
      if (m.kernel.total > 0) print_sample_summary(e, m);
      if (m.counted) print_count_summary(e, m);
      print_runtime_occupancy(session, *point);
      break;
  }
}

}  // namespace rlcli
