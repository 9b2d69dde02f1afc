// The animation's lab kernels, phase alignment, levels above the block and animated GIF, offscreen:
// the pickers offer the predicates and unroll labs; aligned side-by-side views reach "last warp"
// together and say so; the levels view steps through the engine's plan with the same transport
// and shows a multi-GPU session's times only where it measured them; the GIF decodes with
// the right frame count and size, and a bad path leaves an error, not a file.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include <gif_lib.h>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/hierarchy_view.h"
#include "engine/views/hierarchy_plan.h"
#include "engine/views/phase_align.h"

namespace rl::gui {
namespace {

TEST(AnimationLabs, PickersOfferThePredicatesAndUnrollLabs) {
  BlockAnimationPanel panel;
  auto* variants = panel.findChild<QComboBox*>("variant_a");
  ASSERT_NE(variants, nullptr);
  for (const char* id :
       {"count_syncthreads_count", "count_shared_tree", "count_ballot", "any_early_exit",
        "any_full_scan", "unroll_pragma", "tree_loop_rolled", "tree_loop_unrolled"})
    EXPECT_GE(variants->findData(QString(id)), 0) << id;
  ASSERT_TRUE(panel.show_variants("count_syncthreads_count", "", 64, 4))
      << panel.status_text().toStdString();
  EXPECT_EQ(panel.frame_count(), 1 + 2 * 4 + 1);  // start, (load, vote) per tile, partial
  panel.set_frame(2);
  EXPECT_EQ(panel.first_view()->trace()->steps[1].kind, "vote");
  ASSERT_TRUE(panel.show_variants("unroll_pragma", "", 128, 8));
  EXPECT_EQ(panel.first_view()->trace()->steps.front().kind, "load");
}

TEST(AnimationLabs, AlignedViewsShowLastWarpTogetherAndSaySo) {
  BlockAnimationPanel panel;
  ASSERT_TRUE(panel.show_variants("unroll_warp_sync", "interleaved", 1024, 8, Workspace::Shared));
  const int lockstep = panel.frame_count();
  panel.set_aligned(true);
  ASSERT_TRUE(panel.aligned());
  const std::vector<AlignedFrame> want =
      align_by_phase(*panel.first_view()->trace(), *panel.second_view()->trace());
  EXPECT_EQ(panel.frame_count(), int(want.size()));
  EXPECT_NE(panel.frame_count(), lockstep);
  int f = 0;
  while (f < int(want.size()) && want[f].phase != TracePhase::LastWarp) ++f;
  ASSERT_LT(f, int(want.size()));
  panel.set_frame(f);
  EXPECT_EQ(panel.first_view()->frame(), want[f].frame_a);
  EXPECT_EQ(panel.second_view()->frame(), want[f].frame_b);
  EXPECT_NE(panel.phase_text().indexOf("Aligned by phase"), -1);
  EXPECT_NE(panel.phase_text().indexOf("last warp"), -1);
  EXPECT_NE(panel.phase_text().indexOf("holds its frame"), -1);
  panel.set_aligned(false);
  EXPECT_EQ(panel.frame_count(), lockstep);
  EXPECT_TRUE(panel.phase_text().isEmpty());
}

MultiSession measured_session() {
  MultiSession s;
  s.spec.variant = "single_pass";
  MultiPoint m;
  m.point = {Exchange::NcclAllReduce, 2, std::uint64_t(1) << 28, DType::Int32};
  m.devices = {0, 1};
  m.times.local.samples = m.times.exchange.samples = m.times.total.samples = 30;
  m.times.local.median_ms = 0.4707;
  m.times.exchange.median_ms = 0.0150;
  m.times.total.median_ms = 0.4857;
  s.points.push_back(m);
  return s;
}

TEST(AnimationLevels, StepsThroughThePlanWithTheSameTransport) {
  BlockAnimationPanel panel;
  panel.resize(1200, 800);
  ASSERT_TRUE(panel.show_variants("single_pass", "", 1024, 4));
  panel.set_levels_shown(true);
  ASSERT_TRUE(panel.set_levels(2, Exchange::NcclAllReduce));
  const HierarchyView* view = panel.hierarchy_view();
  ASSERT_NE(view->plan(), nullptr);
  EXPECT_EQ(panel.frame_count(), int(view->plan()->steps.size()));
  EXPECT_EQ(view->step(), 0);
  panel.show();
  panel.activateWindow();
  panel.setFocus();
  QApplication::processEvents();
  QTest::keyClick(&panel, Qt::Key_PageDown);
  QTest::keyClick(&panel, Qt::Key_PageDown);
  EXPECT_EQ(view->step(), 2);
  EXPECT_NE(view->step_text(1).indexOf("GPU 1 [134217728, 268435456)"), -1);
  EXPECT_NE(view->step_text(3).indexOf("ncclAllReduce"), -1);
  EXPECT_TRUE(view->measured_text(2).isEmpty());  // no session: no times
  EXPECT_NE(view->note_text().indexOf("No multi-GPU session"), -1);
  EXPECT_FALSE(panel.render_frame().isNull());

  panel.set_multi_session(measured_session(), "two-h200.json");
  EXPECT_NE(view->measured_text(2).indexOf("measured: "), -1);  // the local phase
  EXPECT_NE(view->measured_text(3).indexOf("median of 30 samples"), -1);
  EXPECT_TRUE(view->measured_text(0).isEmpty());  // the block is not timed on its own
  EXPECT_NE(view->note_text().indexOf("cuda:0, cuda:1"), -1);
  // Another exchange: the session did not measure it, and no time is shown for it.
  ASSERT_TRUE(panel.set_levels(2, Exchange::GatherShards, "2^28"));
  EXPECT_TRUE(view->measured_text(2).isEmpty());
  EXPECT_NE(view->note_text().indexOf("nothing measured"), -1);
  // A bad N says why.
  EXPECT_FALSE(panel.set_levels(4, Exchange::NcclReduce, "3"));
  EXPECT_NE(panel.status_text().indexOf("at least one element"), -1);
  EXPECT_FALSE(panel.set_levels(2, Exchange::NcclReduce, "lots"));
  panel.set_levels_shown(false);
  EXPECT_EQ(panel.frame_count(), panel.first_view()->frame_count());
}

TEST(AnimationGif, DecodesWithEveryFrameAtTheFramesSize) {
  BlockAnimationPanel panel;
  panel.resize(1000, 700);
  ASSERT_TRUE(panel.show_variants("interleaved", "neighbored", 64));
  QTemporaryDir dir;
  const QString path = dir.filePath("block.gif");
  QString error;
  const int frames = panel.export_gif(path, &error);
  ASSERT_EQ(frames, panel.frame_count()) << error.toStdString();
  const QSize size = panel.render_frame().size();
  int code = 0;
  GifFileType* gif = DGifOpenFileName(path.toLocal8Bit().constData(), &code);
  ASSERT_NE(gif, nullptr) << GifErrorString(code);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK) << GifErrorString(gif->Error);
  EXPECT_EQ(gif->ImageCount, frames);
  EXPECT_EQ(gif->SWidth, size.width());
  EXPECT_EQ(gif->SHeight, size.height());
  GraphicsControlBlock gcb;
  ASSERT_EQ(DGifSavedExtensionToGCB(gif, 0, &gcb), GIF_OK);
  EXPECT_EQ(gcb.DelayTime, 100);  // 1 step a second
  DGifCloseFile(gif, &code);
  // A folder that does not exist: an error, and nothing written.
  const QString bad = dir.filePath("missing/block.gif");
  EXPECT_EQ(panel.export_gif(bad, &error), -1);
  EXPECT_NE(error.indexOf("Could not write"), -1);
  EXPECT_FALSE(QFile::exists(bad));
}

// At the size the tab has in a 1366x768 window: the predicates side by side aligned by phase,
// the early exit, and the levels with a session's measured phases (looked at by hand).
TEST(AnimationLevels, SavesScreenshots) {
  BlockAnimationPanel panel;
  panel.resize(960, 600);
  ASSERT_TRUE(panel.show_variants("count_syncthreads_count", "count_shared_tree", 64, 2));
  panel.set_aligned(true);
  panel.set_frame(2);
  panel.show();
  QApplication::processEvents();
  const QDir tmp(QDir::tempPath());
  EXPECT_TRUE(panel.grab().save(tmp.filePath("animation_predicates_aligned.png")));
  ASSERT_TRUE(panel.show_variants("any_early_exit", "", 64, 8));
  panel.set_frame(panel.frame_count() - 2);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save(tmp.filePath("animation_early_exit.png")));
  ASSERT_TRUE(panel.show_variants("single_pass", "", 1024, 4));
  panel.set_levels_shown(true);
  panel.set_multi_session(measured_session(), "two-h200.json");
  panel.set_frame(3);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save(tmp.filePath("animation_levels.png")));
}

}  // namespace
}  // namespace rl::gui
