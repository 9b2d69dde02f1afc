// The Code tab's per-line metrics and side-by-side diff: a session's line samples put
// a share-and-stall column before each source and SASS line, its line counts an executed-and-
// threads column, with a summary saying where they came from; a session without them leaves the
// code as it is. The samples and counts here are made up by the test at the offsets of the
// kernel's instructions (tests/gpu/line_samples_gpu_test.cpp and line_counts_gpu_test.cpp take
// real ones).
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QRegularExpression>

#include "code_diff_view.h"
#include "code_panel.h"
#include "engine/code/line_diff.h"
#include "engine/counters/line_count_pass.h"

using namespace rl::gui;

namespace {

rl::Session session_with_barrier_samples(const rl::code::CodeEntry& e) {
  rl::Session s;
  s.device.name = "Test GPU";
  rl::PointResult r;
  r.point =
      rl::PointSpec{"interleaved", rl::Workspace::Global, 1024, 1, 1u << 24, rl::DType::Int32};
  rl::PointLineSamples ls;
  ls.arch = "sm_90";
  ls.period_log2 = 10;
  ls.launches = 3;
  rl::SampledFunction f{"first_kernel", e.mangled.front(), {}};
  const QRegularExpression offset(R"(/\*([0-9a-f]{4,})\*/ BAR)");
  for (const std::string& line : rl::code::split_lines(e.sass.at("sm_90"))) {
    const auto m = offset.match(QString::fromStdString(line));
    if (m.hasMatch())
      f.pcs.push_back(
          {m.captured(1).toULongLong(nullptr, 16), {{"barrier", 80}, {"selected", 20}}});
  }
  ls.functions.push_back(f);
  r.line_samples = ls;
  s.results.push_back(r);
  return s;
}

// Counts at every instruction of the kernel's first function: each ran 1234567 times with half
// of a warp's threads ("1.2M inst, 50% threads").
void add_counts(rl::PointLineSamples& ls, const rl::code::CodeEntry& e) {
  ls.arch = "sm_90";
  ls.counted_launches = 1;
  rl::SampledFunction f{"first_kernel", e.mangled.front(), {}};
  const QRegularExpression offset(R"(/\*([0-9a-f]{4,})\*/)");
  bool first = true;
  for (const std::string& line : rl::code::split_lines(e.sass.at("sm_90"))) {
    if (line.rfind("// Function : ", 0) == 0) first = line.substr(14) == e.functions.front();
    const auto m = offset.match(QString::fromStdString(line));
    if (!first || !m.hasMatch()) continue;
    rl::SampledPc pc{m.captured(1).toULongLong(nullptr, 16), {}};
    pc.inst_executed = 1234567;
    pc.thread_inst_executed = 1234567ull * 16;
    f.pcs.push_back(pc);
  }
  rl::add_line_counts(ls.functions, {f});
}

}  // namespace

TEST(AppCodeSamples, ASessionsCountsAnnotateSourceAndSass) {
  CodePanel panel;
  panel.resize(1366, 768);
  panel.show_variant("neighbored", 1024);
  const rl::code::CodeEntry e = panel.entry();
  if (!e.sass.count("sm_90")) GTEST_SKIP() << "no sm_90 SASS in this build: " << e.missing;
  rl::Session s;
  s.device.name = "Test GPU";
  rl::PointResult r;
  r.point = rl::PointSpec{"neighbored", rl::Workspace::Global, 1024, 1, 1u << 20, rl::DType::Int32};
  r.line_samples.emplace();
  add_counts(*r.line_samples, e);
  s.results.push_back(r);
  panel.set_sampled_session(std::make_shared<const rl::Session>(s));
  const QString summary = panel.samples_text();
  EXPECT_TRUE(summary.contains("CUPTI's SASS metrics on Test GPU")) << summary.toStdString();
  EXPECT_TRUE(summary.contains("50.0% of their threads active")) << summary.toStdString();
  EXPECT_FALSE(summary.contains("PC sampling")) << "no samples were taken";
  ASSERT_TRUE(panel.line_metrics().has_value());
  EXPECT_TRUE(panel.line_metrics()->counted);
  // One column, executed instructions and threads, as wide as its widest note: the code keeps
  // the room.
  const QRegularExpression counted(R"(^1\.2M inst, 50% threads\s*\| /\*[0-9a-f]+\*/)",
                                   QRegularExpression::MultilineOption);
  EXPECT_TRUE(panel.sass_text().contains(counted)) << panel.sass_text().toStdString();
  int separator = -1;
  for (const QString& line : panel.sass_text().split('\n'))
    if (line.contains("/*")) {
      if (separator < 0) separator = int(line.indexOf("| "));
      EXPECT_EQ(line.indexOf("| "), separator) << line.toStdString();
    }
  EXPECT_GE(separator, int(QString("1.2M inst, 50% threads").size()));
  EXPECT_LE(separator, 24);
  EXPECT_FALSE(panel.sass_text().contains("barrier  |"));
  if (rl::code::lines_unavailable_reason().empty())
    EXPECT_TRUE(panel.source_text().contains(
        QRegularExpression(R"(M inst, 50% threads\s*\|.*tid % \(2 \* stride\))")))
        << panel.source_text().toStdString();

  // Samples and counts of one point: both columns, the samples first.
  rl::Session both = session_with_barrier_samples(panel.entry());
  add_counts(*both.results[0].line_samples, panel.entry());
  both.results[0].point.variant = "neighbored";
  panel.set_sampled_session(std::make_shared<const rl::Session>(both));
  EXPECT_TRUE(panel.samples_text().contains("CUPTI PC sampling on Test GPU"));
  EXPECT_TRUE(panel.samples_text().contains("The second column"));
  EXPECT_TRUE(panel.sass_text().contains(
      QRegularExpression(R"(% barrier\s*\| 1\.2M inst, 50% threads\s*\| /\*[0-9a-f]+\*/ BAR)")))
      << panel.sass_text().toStdString();
}

TEST(AppCodeSamples, ASessionsSamplesAnnotateSourceAndSass) {
  CodePanel panel;
  panel.show_variant("interleaved", 1024);
  const rl::code::CodeEntry e = panel.entry();
  if (!e.sass.count("sm_90")) GTEST_SKIP() << "no sm_90 SASS in this build: " << e.missing;
  EXPECT_TRUE(panel.samples_text().isEmpty());
  panel.set_sampled_session(std::make_shared<const rl::Session>(session_with_barrier_samples(e)));
  EXPECT_TRUE(panel.samples_text().contains("CUPTI PC sampling on Test GPU"))
      << panel.samples_text().toStdString();
  EXPECT_TRUE(panel.samples_text().contains("80% barrier"));
  ASSERT_TRUE(panel.line_metrics().has_value());
  EXPECT_TRUE(
      panel.sass_text().contains(QRegularExpression(R"(% barrier\s*\| /\*[0-9a-f]+\*/ BAR)")))
      << panel.sass_text().toStdString();
  if (rl::code::lines_unavailable_reason().empty())
    EXPECT_TRUE(
        panel.source_text().contains(QRegularExpression(R"(% barrier\s*\|.*__syncthreads)")))
        << panel.source_text().toStdString();
  // Another shape of the kernel has no samples: the code is shown as it is.
  panel.show_variant("interleaved", 512);
  EXPECT_FALSE(panel.line_metrics().has_value());
  EXPECT_TRUE(panel.samples_text().isEmpty());
  EXPECT_FALSE(panel.sass_text().contains("| /*"));
  // A session without samples clears them.
  panel.show_variant("interleaved", 1024);
  panel.set_sampled_session(std::make_shared<const rl::Session>());
  EXPECT_FALSE(panel.line_metrics().has_value());
}

TEST(AppCodeSamples, TheDiffSideBySideAlignsBothVariants) {
  CodePanel panel;
  panel.show_variant("interleaved", 1024);
  panel.side_by_side_toggle()->setChecked(true);
  const QStringList left = panel.side_by_side()->left_text().split('\n');
  const QStringList right = panel.side_by_side()->right_text().split('\n');
  EXPECT_EQ(left.size(), right.size());
  EXPECT_TRUE(panel.side_by_side()->right_text().contains("__global__"));
  EXPECT_TRUE(panel.side_by_side()->left_text().contains("__global__"));
  // Some rows differ (the rung changed something), and equal rows are equal text.
  int differ = 0;
  for (int i = 0; i < left.size(); ++i)
    if (left[i] != right[i]) ++differ;
  EXPECT_GT(differ, 0);
}
