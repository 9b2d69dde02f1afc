// The animation's source strip: stepping moves the highlight onto the current step's
// lines and keeps them in view, "Show source" folds the code away and the app remembers it, a
// step without lines says why in the caption, and at 1366x768 the tab needs no sideways scroll.
#include <gtest/gtest.h>

#include <QTest>

#include <QApplication>
#include <QCheckBox>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBlock>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/step_source.h"
#include "app_test_support.h"
#include "code_panel.h"
#include "engine/code/step_source.h"

namespace rl::gui {
namespace {

// The highlighted lines' code, as the strip shows it (after the line-number column).
QStringList highlighted_code(const StepSourceStrip& strip) {
  QStringList out;
  for (const QTextEdit::ExtraSelection& s : strip.code()->extraSelections())
    out << s.cursor.block().text().mid(6).trimmed();
  return out;
}

int frame_of_kind(const Trace& t, const std::string& kind) {
  for (std::size_t i = 0; i < t.steps.size(); ++i)
    if (t.steps[i].kind == kind) return int(i) + 1;
  return -1;
}

TEST(AnimationSource, SteppingMovesTheHighlightToTheStepsLines) {
  BlockAnimationPanel panel;
  panel.resize(1366, 720);
  ASSERT_TRUE(panel.show_variants("reduceUnroll4", "", 256));
  panel.show();
  panel.activateWindow();
  panel.setFocus();
  QApplication::processEvents();
  StepSourceStrip* strip = panel.source_strip();
  ASSERT_NE(strip, nullptr);
  EXPECT_TRUE(strip->code()->isVisible());
  EXPECT_TRUE(strip->highlighted().empty());  // frame 0: the block before any step
  const Trace& t = *panel.first_view()->trace();
  panel.set_frame(frame_of_kind(t, "load"));
  EXPECT_EQ(highlighted_code(*strip),
            QStringList{"T* ws = prepare_workspace<U, W>(input, n, detail::dynamic_smem<T>());"});
  QTest::keyClick(&panel, Qt::Key_PageDown);  // the clicker's key: the first tree step
  ASSERT_EQ(t.steps[panel.frame() - 1].kind, "tree");
  EXPECT_EQ(highlighted_code(*strip),
            (QStringList{"for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {",
                         "if (tid < stride) ws[tid] += ws[tid + stride];", "__syncthreads();"}));
  EXPECT_TRUE(strip->caption().contains("tree")) << strip->caption().toStdString();
  EXPECT_TRUE(strip->caption().contains("seed_ladder.cu")) << strip->caption().toStdString();
  // The lines are in view: the strip scrolls by lines, its value the first one shown.
  const int top = strip->code()->verticalScrollBar()->value();
  EXPECT_LE(top, strip->highlighted().front());
  EXPECT_GT(top + 7, strip->highlighted().back());
  // Scrubbing to the end: thread 0's write.
  panel.set_frame(panel.frame_count() - 1);
  EXPECT_EQ(highlighted_code(*strip), QStringList{"write_partial(ws, partials);"});
  QTest::keyClick(&panel, Qt::Key_PageUp);  // back onto the last tree step
  EXPECT_EQ(highlighted_code(*strip).size(), 3);
}

TEST(AnimationSource, TheCodeTabStillFollowsTheAnimationsFirstVariant) {
  MainWindow w(test::quiet_options());
  auto* panel = w.findChild<BlockAnimationPanel*>();
  ASSERT_NE(panel, nullptr);
  ASSERT_TRUE(panel->show_variants("reduceCompleteUnrollWarp8", "", 256));
  ASSERT_NE(w.code_panel()->entry().variant, nullptr);
  EXPECT_EQ(w.code_panel()->entry().variant->id, "complete_unroll_warp_volatile");
}

TEST(AnimationSource, FollowsTheFirstViewSideBySideAndWhilePlaying) {
  BlockAnimationPanel panel;
  panel.resize(1366, 720);
  ASSERT_TRUE(panel.show_variants("complete_unroll_warp_sync", "interleaved", 256));
  const Trace& t = *panel.first_view()->trace();
  panel.set_frame(frame_of_kind(t, "skipped"));  // B=256: the +512 step tests its if and waits
  EXPECT_EQ(highlighted_code(*panel.source_strip()),
            (QStringList{"if (blockDim.x >= 1024 && tid < 512) ws[tid] += ws[tid + 512];",
                         "__syncthreads();"}));
  panel.set_frame(0);
  panel.set_playing(true);
  ASSERT_TRUE(test::wait_until([&] { return panel.frame() >= 2; }, 5000));
  panel.set_playing(false);
  const code::StepLines want =
      code::step_lines(code::find_code({t.variant, t.block_size, t.unroll, t.type, t.workspace}), t,
                       std::size_t(panel.first_view()->frame() - 1));
  EXPECT_EQ(panel.source_strip()->highlighted(), want.lines);
}

TEST(AnimationSource, ShowSourceHidesTheCodeAndTheAppRemembersIt) {
  BlockAnimationPanel panel;
  ASSERT_TRUE(panel.show_variants("interleaved", "", 64));
  panel.show();
  QApplication::processEvents();
  QSignalSpy spy(&panel, &BlockAnimationPanel::source_shown_changed);
  auto* box = panel.findChild<QCheckBox*>("show_source");
  ASSERT_NE(box, nullptr);
  box->click();
  EXPECT_FALSE(panel.source_shown());
  EXPECT_FALSE(panel.source_strip()->code()->isVisible());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_FALSE(spy.front().front().toBool());
  panel.set_source_shown(true);
  EXPECT_TRUE(panel.source_strip()->code()->isVisible());

  // The window keeps it in QSettings (the tests' own settings: test mode).
  MainWindow::Options o = test::quiet_options();
  o.settings = true;
  {
    MainWindow w(o);
    auto* p = w.findChild<BlockAnimationPanel*>();
    ASSERT_NE(p, nullptr);
    p->set_source_shown(false);
  }
  {
    MainWindow w(o);
    auto* p = w.findChild<BlockAnimationPanel*>();
    EXPECT_FALSE(p->source_shown());
    p->set_source_shown(true);
  }
  MainWindow again(o);
  EXPECT_TRUE(again.findChild<BlockAnimationPanel*>()->source_shown());
}

TEST(AnimationSource, AStepWithoutLinesSaysSoInTheCaption) {
  StepSourceStrip strip;
  Trace t = make_trace({"interleaved", 64, 1, Workspace::Global, 0, DType::Int32, 0});
  t.steps[1].kind = "teleport";  // a kind no rule knows: no line is guessed
  strip.show_step(&t, 2);
  EXPECT_TRUE(strip.highlighted().empty());
  EXPECT_TRUE(strip.code()->extraSelections().isEmpty());
  EXPECT_TRUE(strip.caption().contains("no source line")) << strip.caption().toStdString();
  EXPECT_TRUE(strip.caption().contains("teleport")) << strip.caption().toStdString();
  // A shape the code view has no entry for: the reason, not someone else's code.
  Trace odd = t;
  odd.block_size = 48;
  strip.show_step(&odd, 1);
  EXPECT_TRUE(strip.caption().contains("no source")) << strip.caption().toStdString();
  EXPECT_TRUE(strip.code()->toPlainText().isEmpty());
  strip.show_step(&t, 1);  // back to a real step: lines again
  EXPECT_FALSE(strip.highlighted().empty());
}

// At 1366x768 the "Inside a block" tab's page is about 945 x 600 px (the experiment column takes
// the rest; measured on the app's screenshot). The panel must fit it whole: no sideways scroll,
// and the views give way so the strip and the transport stay on screen.
TEST(AnimationSource, ThePanelFitsTheTabAt1366x768) {
  BlockAnimationPanel panel;
  panel.resize(945, 600);
  panel.show();
  // The widest picks: two labs side by side.
  ASSERT_TRUE(panel.show_variants("count_syncthreads_count", "tree_loop_unrolled", 256));
  panel.set_frame(2);
  QApplication::processEvents();
  EXPECT_LE(panel.minimumSizeHint().width(), 945);
  EXPECT_LE(panel.heightForWidth(945), 600);
  EXPECT_TRUE(panel.source_strip()->code()->isVisible());
  // At least three lines of code show.
  EXPECT_GE(panel.source_strip()->code()->viewport()->height(),
            3 * panel.source_strip()->code()->fontMetrics().lineSpacing());
  EXPECT_FALSE(panel.source_strip()->highlighted().empty());
}

}  // namespace
}  // namespace rl::gui
