// The block animation renders offscreen with the expected cells, warps and lane colours, steps
// forward and back to identical frames, keeps two variants in lock-step, refuses bad picks with
// the reason, exports PNG frames, and paints 1024 threads fast enough to play smoothly.
#include <gtest/gtest.h>

#include <QTest>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>

#include <iostream>

#include "animation/block_animation.h"
#include "animation/block_view.h"

namespace rl::gui {
namespace {

std::shared_ptr<const Trace> trace_of(const char* variant, int block, int unroll = 1,
                                      Workspace w = Workspace::Global) {
  return std::make_shared<const Trace>(make_trace({variant, block, unroll, w, 0, DType::Int32, 0}));
}

QColor pixel_at(const QImage& img, const QRect& r) {
  return img.pixelColor(r.center());
}

TEST(AnimationView, RendersCellsWarpsAndLaneStates) {
  BlockView view;
  view.set_cell_size(20);
  view.set_trace(trace_of("interleaved", 64));
  view.resize(1400, view.heightForWidth(1400));
  EXPECT_EQ(view.frame_count(), 8);  // start + 6 tree steps + the partial
  EXPECT_EQ(view.columns(), 64);     // 2 warps fit side by side at 20 px
  view.set_frame(1);                 // stride 32: lanes 0..31 act, warp 1 is idle
  const QImage img = view.grab().toImage();
  EXPECT_TRUE(view.rect().contains(view.cell_rect(63)));
  EXPECT_EQ(pixel_at(img, view.lane_rect(0)), BlockView::acting_color());
  EXPECT_EQ(pixel_at(img, view.lane_rect(31)), BlockView::acting_color());
  EXPECT_EQ(pixel_at(img, view.lane_rect(32)), BlockView::masked_color());
  // The final step: thread 0 writes the partial; warp 1 has exited, lanes 1.. of warp 0 masked.
  view.set_frame(view.frame_count() - 1);
  const QImage last = view.grab().toImage();
  EXPECT_EQ(pixel_at(last, view.lane_rect(0)), BlockView::acting_color());
  EXPECT_EQ(pixel_at(last, view.lane_rect(5)), BlockView::masked_color());
  EXPECT_EQ(pixel_at(last, view.lane_rect(40)), BlockView::exited_color());
}

TEST(AnimationView, WrapsLargeBlocksIntoRowsOfWarps) {
  BlockView view;
  view.set_cell_size(4);
  view.set_trace(trace_of("neighbored", 1024));
  view.resize(400, view.heightForWidth(400));
  EXPECT_EQ(view.columns() % 32, 0);
  EXPECT_GE(view.columns(), 32);
  const int rows = 1024 / view.columns();
  EXPECT_EQ(view.cell_rect(1023).top(),
            view.cell_rect(0).top() +
                (rows - 1) * (view.cell_rect(view.columns()).top() - view.cell_rect(0).top()));
  EXPECT_TRUE(view.rect().contains(view.lane_rect(1023)));
  // neighbored, stride 1: even lanes act, odd lanes are masked off, in every warp.
  view.set_frame(1);
  const QImage img = view.grab().toImage();
  for (int tid : {0, 2, 512, 1022})
    EXPECT_EQ(pixel_at(img, view.lane_rect(tid)), BlockView::acting_color()) << tid;
  for (int tid : {1, 3, 513, 1023})
    EXPECT_EQ(pixel_at(img, view.lane_rect(tid)), BlockView::masked_color()) << tid;
}

TEST(AnimationPanel, SteppingForwardThenBackGivesTheSameFrames) {
  BlockAnimationPanel panel;
  panel.resize(1400, 900);
  ASSERT_TRUE(panel.show_variants("neighbored", "interleaved", 64));
  panel.show();
  QApplication::processEvents();
  std::vector<QImage> forward;
  for (int f = 0; f < panel.frame_count(); ++f) {
    panel.set_frame(f);
    forward.push_back(panel.render_frame());
  }
  for (int f = panel.frame_count() - 1; f >= 0; --f) {
    panel.set_frame(f);
    EXPECT_EQ(panel.render_frame(), forward[f]) << "frame " << f;
  }
  panel.set_frame(2);
  panel.step(+1);
  panel.step(-1);
  EXPECT_EQ(panel.render_frame(), forward[2]);
  EXPECT_NE(forward[1], forward[2]);
}

// A presenter's clicker sends PageDown and PageUp: they step the animation as Right and Left do.
TEST(AnimationPanel, AClickersPageKeysStepTheAnimation) {
  BlockAnimationPanel panel;
  panel.resize(1400, 900);
  ASSERT_TRUE(panel.show_variants("neighbored", "interleaved", 64));
  panel.show();
  panel.activateWindow();
  panel.setFocus();
  QApplication::processEvents();
  panel.set_frame(1);
  QTest::keyClick(&panel, Qt::Key_PageDown);
  EXPECT_EQ(panel.frame(), 2);
  QTest::keyClick(&panel, Qt::Key_PageUp);
  QTest::keyClick(&panel, Qt::Key_PageUp);
  EXPECT_EQ(panel.frame(), 0);
}

TEST(AnimationPanel, TwoVariantsStepInLockStep) {
  BlockAnimationPanel panel;
  panel.resize(1400, 900);
  ASSERT_TRUE(panel.show_variants("neighbored_less", "unroll_warp_volatile", 256, 8));
  ASSERT_TRUE(panel.side_by_side());
  const int a = panel.first_view()->frame_count(), b = panel.second_view()->frame_count();
  EXPECT_EQ(panel.frame_count(), std::max(a, b));
  panel.set_frame(3);
  EXPECT_EQ(panel.first_view()->frame(), 3);
  EXPECT_EQ(panel.second_view()->frame(), 3);
  panel.set_frame(panel.frame_count() - 1);  // the shorter trace holds its last frame
  EXPECT_EQ(panel.first_view()->frame(), a - 1);
  EXPECT_EQ(panel.second_view()->frame(), b - 1);
}

TEST(AnimationPanel, RefusesBadPicksWithTheReason) {
  BlockAnimationPanel panel;
  EXPECT_FALSE(panel.show_variants("unroll_warp_sync", "", 32));
  EXPECT_TRUE(panel.status_text().contains("block size 32")) << panel.status_text().toStdString();
  EXPECT_EQ(panel.frame_count(), 0);
  QString err;
  QTemporaryDir dir;
  EXPECT_FALSE(panel.export_frame(dir.filePath("x.png"), &err));
  EXPECT_FALSE(err.isEmpty());
}

TEST(AnimationPanel, ExportsTheFrameAndTheWholeSequence) {
  BlockAnimationPanel panel;
  panel.resize(1400, 900);
  ASSERT_TRUE(panel.show_variants("reduceInterleaved", "", 128));
  QTemporaryDir dir;
  ASSERT_TRUE(panel.export_frame(dir.filePath("frame.png")));
  EXPECT_FALSE(QImage(dir.filePath("frame.png")).isNull());
  const int n = panel.export_sequence(dir.filePath("seq"));
  EXPECT_EQ(n, panel.frame_count());
  const QStringList files = QDir(dir.filePath("seq")).entryList({"frame_*.png"}, QDir::Files);
  EXPECT_EQ(files.size(), n);
  EXPECT_TRUE(files.contains("frame_0000.png"));
}

// A frame that cannot be written says where and why, as every file the app writes.
TEST(AnimationPanel, AFrameThatCannotBeWrittenSaysWhy) {
  BlockAnimationPanel panel;
  panel.resize(1400, 900);
  ASSERT_TRUE(panel.show_variants("reduceInterleaved", "", 128));
  QTemporaryDir dir;
  const QString path = dir.filePath("no-such-folder/frame.png");
  QString err;
  EXPECT_FALSE(panel.export_frame(path, &err));
  EXPECT_TRUE(err.contains("no-such-folder")) << err.toStdString();
  EXPECT_TRUE(err.contains("does not exist")) << err.toStdString();
  EXPECT_FALSE(QFileInfo::exists(path));
}

TEST(AnimationPanel, PaintsAThousandThreadsFastEnoughToPlay) {
  BlockAnimationPanel panel;
  panel.resize(1600, 1000);
  ASSERT_TRUE(panel.show_variants("neighbored", "interleaved", 1024));
  panel.first_view()->set_cell_size(6);
  panel.second_view()->set_cell_size(6);
  panel.show();
  QApplication::processEvents();
  QElapsedTimer clock;
  clock.start();
  int frames = 0;
  for (int f = 0; f < panel.frame_count(); ++f)
    for (double p : {0.25, 0.5, 1.0}) {
      panel.first_view()->set_frame(f, p);
      panel.second_view()->set_frame(f, p);
      (void)panel.render_frame();
      ++frames;
    }
  const double ms = double(clock.elapsed()) / frames;
  std::cout << "1024 threads x 2 views: " << ms << " ms per frame (offscreen raster)\n";
  EXPECT_LT(ms, 100.0);
}

TEST(AnimationPanel, SavesAScreenshot) {
  BlockAnimationPanel panel;
  panel.resize(1500, 800);
  ASSERT_TRUE(panel.show_variants("neighbored", "interleaved", 64));
  panel.set_frame(3);
  panel.show();
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation.png"));
  // 1024 threads zoomed out, mid-way through neighbored against interleaved.
  ASSERT_TRUE(panel.show_variants("neighbored", "interleaved", 1024));
  panel.first_view()->set_cell_size(6);
  panel.second_view()->set_cell_size(6);
  panel.set_frame(6);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation_1024.png"));
  // The warp-shuffle kernel beside the classic ladder's best: registers instead of a shared-memory
  // tree.
  ASSERT_TRUE(panel.show_variants("warp_shuffle", "complete_unroll_volatile", 128, 1));
  panel.set_frame(7);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation_shuffle.png"));
  // The single pass beside warp_shuffle: vector loads, the same block sum, one atomic.
  ASSERT_TRUE(panel.show_variants("single_pass", "warp_shuffle", 128, 1));
  panel.set_frame(14);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation_single_pass.png"));
}

TEST(AnimationPanel, EpochPassPlaysFromReadyingTheNextLaunchToItsRed) {
  BlockAnimationPanel panel;
  panel.resize(1200, 700);
  ASSERT_TRUE(panel.show_variants("epoch_pass", "single_pass", 256, 2));
  panel.show();
  // Before the first step, block 0 readying the next launch, load, one REDUX per warp, and each
  // warp's RED.
  EXPECT_EQ(panel.frame_count(), 1 + 1 + 1 + 1 + 1);
  panel.set_frame(1);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation_epoch_ready.png"));
  panel.set_frame(panel.frame_count() - 1);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation_epoch_red.png"));
}

TEST(AnimationPanel, SinglePassPlaysToItsAtomic) {
  BlockAnimationPanel panel;
  panel.resize(1200, 700);
  ASSERT_TRUE(panel.show_variants("single_pass", QString(), 256, 2));
  panel.show();
  // One tile, one block of 8 warps: before the first step, load, one REDUX per warp, and each
  // warp's atomic (grids this small finish per warp).
  EXPECT_EQ(panel.frame_count(), 1 + 1 + 1 + 1);
  panel.set_frame(panel.frame_count() - 1);
  QApplication::processEvents();
  EXPECT_FALSE(panel.grab().toImage().isNull());
  // A block size the kernel does not take is refused with the kernel's reason, not drawn.
  panel.show_variants("single_pass", QString(), 64, 1);
  QApplication::processEvents();
  EXPECT_TRUE(panel.status_text().contains("single_pass takes 128, 256, 512 or 1024"))
      << panel.status_text().toStdString();
}

}  // namespace
}  // namespace rl::gui

namespace rl::gui {
namespace {

TEST(AnimationPanel, PlayAdvancesAndPauseHolds) {
  BlockAnimationPanel panel;
  ASSERT_TRUE(panel.show_variants("interleaved", "", 64));
  auto* speed = panel.findChild<QComboBox*>("speed");
  ASSERT_NE(speed, nullptr);
  speed->setCurrentIndex(speed->count() - 1);  // the fastest
  panel.set_playing(true);
  ASSERT_TRUE(panel.playing());
  QElapsedTimer clock;
  clock.start();
  while (panel.frame() < 2 && clock.elapsed() < 5000)
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  EXPECT_GE(panel.frame(), 2);
  panel.set_playing(false);
  const int held = panel.frame();
  clock.restart();
  while (clock.elapsed() < 300) QApplication::processEvents(QEventLoop::AllEvents, 20);
  EXPECT_EQ(panel.frame(), held);
}

}  // namespace
}  // namespace rl::gui
