// The measured timeline view draws a hand-made two-block timeline as one row per warp, says the
// exact stamps of the span under the pointer, emits the step of a clicked span, puts two
// timelines on one axis, and writes PNG and SVG; its summary line carries the counter pass's
// barrier stall for the same point.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "animation/timeline_palette.h"
#include "animation/timeline_text.h"
#include "animation/timeline_view.h"
#include "timeline_test_data.h"

namespace rl::gui {
namespace {

std::shared_ptr<const MeasuredTimeline> shared(MeasuredTimeline t) {
  return std::make_shared<const MeasuredTimeline>(std::move(t));
}

class TimelineViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view.resize(1000, 600);
    view.set_timelines({shared(test::two_block_timeline())});
  }
  QPoint at(int timeline, unsigned slot, unsigned warp, double ns) const {
    const std::optional<QPoint> p = view.point_at(timeline, slot, warp, ns);
    EXPECT_TRUE(p.has_value());
    return p.value_or(QPoint(-1, -1));
  }
  TimelineView view;
};

TEST_F(TimelineViewTest, OneRowPerWarpOfEveryBlock) {
  ASSERT_EQ(view.timeline_count(), 1);
  EXPECT_TRUE(view.problem(0).isEmpty()) << view.problem(0).toStdString();
  EXPECT_EQ(view.row_count(), 4);          // 2 blocks x 2 warps
  EXPECT_DOUBLE_EQ(view.axis_end(), 610);  // block 18's warp 0 ends at 150 + 460 ns
  // Rows of one block, then the next: block 18's first warp below block 17's last.
  EXPECT_LT(at(0, 0, 0, 10).y(), at(0, 0, 1, 10).y());
  EXPECT_LT(at(0, 0, 1, 10).y(), at(0, 1, 0, 10).y());
  EXPECT_FALSE(view.point_at(0, 2, 0, 10).has_value());
}

TEST_F(TimelineViewTest, HoverSaysTheExactStampsOfAWorkSpan) {
  const QString text = view.text_at(at(0, 0, 1, 300));  // warp 1 of block 17, tree stride 32
  EXPECT_TRUE(text.contains("block 17 · SM 3 · warp 1")) << text.toStdString();
  EXPECT_TRUE(text.contains("phase tree, stride 32")) << text.toStdString();
  EXPECT_TRUE(text.contains("270.0 ns → 360.0 ns (90.0 ns)")) << text.toStdString();
  EXPECT_TRUE(text.contains("clock 5000540 → 5000720 (180 cycles)")) << text.toStdString();
}

TEST_F(TimelineViewTest, HoverOnAWaitNamesTheBarrierAndItsSlowestWarp) {
  const QString text = view.text_at(at(0, 0, 0, 235));  // warp 0 waits from 200 to 270 ns
  EXPECT_TRUE(text.contains("waiting at __syncthreads() #0")) << text.toStdString();
  EXPECT_TRUE(text.contains("200.0 ns → 270.0 ns")) << text.toStdString();
  EXPECT_TRUE(text.contains("the slowest warp here: warp 1, arrived at 260.0 ns"))
      << text.toStdString();
  EXPECT_TRUE(view.text_at(QPoint(2, 2)).isEmpty());
}

TEST_F(TimelineViewTest, ClickOnAStepSpanAsksForThatStep) {
  QSignalSpy spy(&view, &TimelineView::step_requested);
  QTest::mouseClick(&view, Qt::LeftButton, {}, at(0, 1, 0, 150 + 300));  // block 18, tree 32
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy[0][0].toInt(), 0);
  EXPECT_EQ(spy[0][1].toString(), "tree");
  EXPECT_EQ(spy[0][2].toUInt(), 32u);
  QTest::mouseClick(&view, Qt::LeftButton, {}, at(0, 0, 1, 100));  // load
  ASSERT_EQ(spy.count(), 2);
  EXPECT_EQ(spy[1][1].toString(), "load");
  QTest::mouseClick(&view, Qt::LeftButton, {}, at(0, 0, 0, 440));  // write
  ASSERT_EQ(spy.count(), 3);
  EXPECT_EQ(spy[2][1].toString(), "write");
  QTest::mouseClick(&view, Qt::LeftButton, {}, at(0, 0, 0, 235));  // a wait: no step
  EXPECT_EQ(spy.count(), 3);
}

TEST_F(TimelineViewTest, ZoomShowsAWindowOfTheAxisAndTheSameStamps) {
  view.set_visible_range(250, 350);
  EXPECT_DOUBLE_EQ(view.visible_start(), 250);
  EXPECT_DOUBLE_EQ(view.visible_end(), 350);
  const QPoint left = at(0, 0, 1, 250), right = at(0, 0, 1, 350);
  EXPECT_GT(right.x() - left.x(), 800);  // 100 ns over the plot's width
  EXPECT_TRUE(view.text_at(at(0, 0, 1, 300)).contains("phase tree, stride 32"));
  view.reset_zoom();
  EXPECT_DOUBLE_EQ(view.visible_end(), 610);
}

TEST(TimelineView, TwoTimelinesShareOneTimeAxis) {
  TimelineView view;
  view.resize(1000, 700);
  MeasuredTimeline other = test::two_block_timeline("neighbored", "reduceNeighbored");
  other.blocks.pop_back();  // one block
  view.set_timelines({shared(test::two_block_timeline()), shared(other)});
  ASSERT_EQ(view.timeline_count(), 2);
  EXPECT_EQ(view.row_count(), 4 + 2);
  const QPoint a = *view.point_at(0, 0, 0, 300), b = *view.point_at(1, 0, 0, 300);
  EXPECT_EQ(a.x(), b.x());  // the same ns, the same x
  EXPECT_GT(b.y(), a.y());  // the second below the first
  EXPECT_TRUE(view.text_at(b).contains("reduceNeighbored")) << view.text_at(b).toStdString();
}

TEST(TimelineView, WithoutTimelinesSaysItsMessage) {
  TimelineView view;
  view.set_empty_message("No timeline: recording one needs a CUDA GPU.");
  view.resize(600, 300);
  EXPECT_EQ(view.row_count(), 0);
  EXPECT_EQ(view.empty_message(), "No timeline: recording one needs a CUDA GPU.");
  EXPECT_FALSE(view.grab().isNull());
}

TEST(TimelineView, ExportsPngAndSvgNeverShorterThanItsRows) {
  QTemporaryDir dir;
  TimelineView view;
  view.set_timelines({shared(test::two_block_timeline())});
  view.set_export_footer({"a summary line"});
  QString error;
  const QString png = dir.filePath("timeline.png"), svg = dir.filePath("timeline.svg");
  ASSERT_TRUE(view.export_png(png, QSize(1200, 100), &error)) << error.toStdString();
  const QImage img(png);
  EXPECT_EQ(img.width(), 1200);
  EXPECT_GT(img.height(), 100);  // grown to hold the rows, legend and footer
  ASSERT_TRUE(view.export_svg(svg, QSize(1200, 600), &error)) << error.toStdString();
  QFile f(svg);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_TRUE(f.readAll().contains("<svg"));
  EXPECT_FALSE(view.export_png(dir.filePath("no/such/folder/t.png"), QSize(800, 400), &error));
  EXPECT_TRUE(error.contains("no/such/folder")) << error.toStdString();
}

TEST(TimelineText, SummaryLineWithTheCounterPassBarrierStall) {
  MeasuredTimeline t = test::two_block_timeline();
  t.sm_count = 132;  // as if on an H200 holding 8 blocks per SM: the twin's share of a block
  t.resident_blocks_per_sm = 8;
  Session s;
  PointResult r;
  r.point = {t.variant, t.workspace, t.block_size, t.unroll, t.size, t.type};
  KernelCounters k;
  k.role = "first_kernel";
  k.values = {{"smsp__warp_issue_stalled_barrier_per_warp_active.pct", 38.0}};
  r.counters = PointCounters{{k}, "", 1, 1};
  s.results.push_back(r);
  const std::optional<double> stall = timeline_text::counter_barrier_stall(s, t);
  ASSERT_TRUE(stall.has_value());
  EXPECT_DOUBLE_EQ(*stall, 38.0);
  const QString line = timeline_text::summary_line(t, summarize_timeline(t), stall);
  EXPECT_TRUE(line.startsWith("reduceInterleaved B=64 U=1: SM clock")) << line.toStdString();
  EXPECT_TRUE(line.contains("GHz")) << line.toStdString();
  EXPECT_TRUE(line.contains("barrier stall 38.0%")) << line.toStdString();
  EXPECT_TRUE(line.contains("by the twin's kernel time")) << line.toStdString();
  EXPECT_TRUE(line.contains("twin 1.07x the real kernel (medians of 20 runs)"))
      << line.toStdString();
  // Another point (N differs): no counter beside the measured share.
  s.results[0].point.size *= 2;
  EXPECT_FALSE(timeline_text::counter_barrier_stall(s, t).has_value());
}

TEST(TimelinePalette, AUsersPhaseKeepsAColourOfItsOwn) {
  using timeline_palette::phase_color;
  const QColor mine = phase_color("my phase");
  EXPECT_EQ(mine, phase_color("my phase"));
  for (const char* builtin : {"load", "tree", "last warp", "write", ""})
    EXPECT_NE(mine, phase_color(builtin)) << builtin;
}

TEST(TimelineText, RulerLabelsReadInOneUnit) {
  EXPECT_EQ(timeline_text::nice_step(130), 200);
  EXPECT_EQ(timeline_text::nice_step(0.3), 0.5);
  EXPECT_EQ(timeline_text::tick(0, 200), "0");
  EXPECT_EQ(timeline_text::tick(400, 200), "400 ns");
  EXPECT_EQ(timeline_text::tick(3000, 1000), "3 µs");
  EXPECT_EQ(timeline_text::tick(12000, 2000), "12 µs");
  EXPECT_EQ(timeline_text::tick(1500, 500), "1500 ns");
}

}  // namespace
}  // namespace rl::gui
