// The user's own rung in the app, without a GPU: the Code tab's "New rung from this kernel" fills
// the editor with the starter; Compile runs NVRTC on the job queue and the Code tab shows the
// kernel's source, SASS and changes; Run adds the rung to a host run, where its points say why
// they cannot be timed here; a lab sheet starts from its kernel, shows hints one at a time and
// judges its goals on the session.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTextBlock>
#include <QTextDocument>

#include "app_test_support.h"
#include "code/kernel_editor.h"
#include "code/kernel_editor_panel.h"
#include "code_panel.h"
#include "engine/user/user_kernel.h"
#include "lab_sheet_box.h"
#include "session_store.h"

namespace rl::gui {
namespace {

TEST(AppUserKernel, NewRungCompileAndRunOnTheHost) {
  MainWindow w(test::quiet_options());
  w.show();
  w.code_panel()->show_variant("interleaved", 256);
  w.code_panel()->new_rung_button()->click();
  ASSERT_TRUE(w.kernel_dock()->isVisible());
  const UserKernelSource k = w.kernel_panel()->source();
  EXPECT_EQ(k.name, "myInterleaved");
  EXPECT_EQ(k.started_from, "interleaved");
  EXPECT_NE(k.source.find("extern \"C\" __global__ void myInterleaved("), std::string::npos);
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;

  // An edit, then Compile: the result comes back through the job queue.
  QPlainTextEdit* editor = w.kernel_panel()->editor();
  editor->setPlainText(editor->toPlainText().replace("stride >>= 1", "stride /= 2"));
  w.kernel_panel()->compile_button()->click();
  ASSERT_TRUE(test::wait_until(
      [&] { return w.code_panel()->entry().query.variant == "myInterleaved"; }, 30000));
  EXPECT_TRUE(w.kernel_panel()->status_text().contains("compiled myInterleaved for sm_90"))
      << w.kernel_panel()->status_text().toStdString();
  EXPECT_TRUE(w.code_panel()->source_text().contains("stride /= 2"));
  if (w.code_panel()->entry().missing.empty()) {
    EXPECT_TRUE(w.code_panel()->sass_text().contains("myInterleaved"));
    EXPECT_TRUE(w.code_panel()->diff_text().contains("stride /= 2"))
        << w.code_panel()->diff_text().toStdString();
  }

  // Run: the experiment on the host with the rung added; its points say why they are not timed.
  w.experiment()->set_device(kHostDevice);
  w.experiment()->set_spec(test::tiny_spec());
  w.kernel_panel()->run_button()->click();
  // Compiled again (queued), then run: done when the session holds the rung's points.
  ASSERT_TRUE(test::wait_until(
      [&] { return !w.controller()->running() && w.store()->primary().results.size() == 6; },
      60000))
      << w.statusBar()->currentMessage().toStdString();
  const Session& s = w.store()->primary();
  ASSERT_EQ(s.spec.user_kernels.size(), 1u);
  int mine = 0;
  for (const PointResult& r : s.results) {
    if (r.point.variant != "myInterleaved") continue;
    ++mine;
    EXPECT_EQ(r.status, PointStatus::Skipped);
    EXPECT_NE(r.message.find("a remote GPU can time it"), std::string::npos) << r.message;
  }
  EXPECT_EQ(mine, 2);  // the two sizes of the tiny experiment
}

// The Code tab shows a kernel the user wrote at any shape its pickers offer: it is compiled again
// for the shape shown (a session's line samples at B=1024 then land on its lines).
TEST(AppUserKernel, TheCodeTabCompilesTheKernelForTheShapeShown) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  MainWindow w(test::quiet_options());
  w.show();
  w.code_panel()->show_variant("interleaved", 256);
  w.code_panel()->new_rung_button()->click();
  w.kernel_panel()->compile_button()->click();
  ASSERT_TRUE(test::wait_until(
      [&] { return w.code_panel()->entry().query.variant == "myInterleaved"; }, 30000));
  const int first = w.code_panel()->entry().query.block_size;
  const int other = first == 1024 ? 512 : 1024;
  w.code_panel()->show_variant("myInterleaved", other);
  EXPECT_NE(w.code_panel()->entry().missing.find("compiling myInterleaved for B=" +
                                                 std::to_string(other)),
            std::string::npos)
      << w.code_panel()->entry().missing;
  ASSERT_TRUE(
      test::wait_until([&] { return w.code_panel()->entry().query.block_size == other; }, 30000));
  EXPECT_EQ(w.code_panel()->entry().query.variant, "myInterleaved");
  if (w.code_panel()->entry().missing.empty())
    EXPECT_TRUE(w.code_panel()->sass_text().contains("myInterleaved"));
}

TEST(AppUserKernel, CompileErrorsMarkTheirLines) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  MainWindow w(test::quiet_options());
  w.code_panel()->show_variant("neighbored", 256);
  w.code_panel()->new_rung_button()->click();
  QPlainTextEdit* editor = w.kernel_panel()->editor();
  editor->setPlainText(editor->toPlainText().replace("ws[tid] += ws[tid + stride];",
                                                     "ws[tid] += wz[tid + stride];"));
  w.kernel_panel()->compile_button()->click();
  ASSERT_TRUE(
      test::wait_until([&] { return !w.kernel_panel()->editor()->diagnostics().empty(); }, 30000));
  const auto& d = w.kernel_panel()->editor()->diagnostics();
  EXPECT_EQ(d.front().severity, "error");
  EXPECT_NE(d.front().message.find("wz"), std::string::npos);
  const int line = d.front().line;
  EXPECT_TRUE(editor->document()->findBlockByNumber(line - 1).text().contains("wz["));
  EXPECT_EQ(w.kernel_panel()->editor()->mark_at_line(line), KernelEditor::LineMark::Error);
}

TEST(AppUserKernel, LabSheetStartsShowsHintsAndJudges) {
  MainWindow w(test::quiet_options());
  LabSheetBox* box = w.lab_sheet_box();
  const int i = box->picker()->findText("remove-divergence");
  ASSERT_GE(i, 0);
  box->picker()->setCurrentIndex(i);
  ASSERT_TRUE(box->sheet().has_value());
  for (QPushButton* b : box->findChildren<QPushButton*>())
    if (b->text() == "Start from its kernel") b->click();
  const UserKernelSource k = w.kernel_panel()->source();
  EXPECT_EQ(k.name, box->sheet()->rung);
  EXPECT_EQ(k.started_from, "neighbored");
  EXPECT_TRUE(box->hints_text().isEmpty());
  box->hint_button()->click();
  EXPECT_TRUE(box->hints_text().contains("Hint 1"));
  EXPECT_FALSE(box->hints_text().contains("Hint 2"));
  // Judged on a session without the rung: not measured yet, never met.
  box->judge(w.store()->primary(), QString::fromStdString(k.name));
  EXPECT_TRUE(box->goals_text().contains("not yet")) << box->goals_text().toStdString();
}

}  // namespace
}  // namespace rl::gui
