// The block animation's measured timeline: without a GPU it says recording needs one and shows
// the timelines the shown session stores (or says there are none); a click on a step's span
// steps the animation there; it exports a file. Screenshots of it, taken only when asked:
//   RL_GUI_SCREENSHOTS=/tmp/shots ./build/tests/gui_tests --gtest_filter='TimelineScreens.*'
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/timeline_panel.h"
#include "animation/timeline_view.h"
#include "app_test_support.h"
#include "jobs/job_tracker.h"
#include "run_worker.h"
#include "slide_mode.h"
#include "timeline_test_data.h"

namespace rl::gui {
namespace {

std::shared_ptr<Session> session_with(std::vector<MeasuredTimeline> timelines) {
  auto s = std::make_shared<Session>();
  s->device.name = "hand-made for a test";
  s->timelines = std::move(timelines);
  return s;
}

// A panel whose GPU queue found no GPU (as on a machine without a driver).
struct NoGpu {
  NoGpu() {
    Discovery d;
    d.no_gpu_reason = "cudaGetDeviceCount: no CUDA driver (test)";
    controller.use_discovery(d);
    QSignalSpy spy(&controller, &RunController::discovered);
    panel.set_gpu_jobs(&controller);
    EXPECT_TRUE(spy.count() > 0 || spy.wait(5000));
    panel.set_timeline_shown(true);
    panel.resize(1400, 1000);
  }
  RunController controller;
  BlockAnimationPanel panel;
  TimelinePanel& timeline() { return *panel.timeline_panel(); }
};

TEST(TimelinePanel, WithoutAGpuSaysSoAndShowsTheStoredTimelines) {
  NoGpu f;
  EXPECT_TRUE(f.panel.timeline_shown());
  EXPECT_FALSE(f.timeline().gpu_available());
  auto* record = f.timeline().findChild<QPushButton*>("record_timeline");
  ASSERT_NE(record, nullptr);
  EXPECT_FALSE(record->isEnabled());
  EXPECT_TRUE(record->toolTip().contains("no CUDA driver (test)"))
      << record->toolTip().toStdString();
  EXPECT_FALSE(f.timeline().record());

  f.panel.set_session(session_with({}), "bundled session");
  EXPECT_TRUE(f.timeline().message().contains("needs a CUDA GPU"))
      << f.timeline().message().toStdString();
  EXPECT_TRUE(f.timeline().message().contains("bundled session holds no recorded timelines yet"))
      << f.timeline().message().toStdString();
  EXPECT_EQ(f.timeline().view()->timeline_count(), 0);

  f.panel.set_session(session_with({test::two_block_timeline()}), "bundled session");
  EXPECT_EQ(f.timeline().view()->timeline_count(), 1);
  EXPECT_TRUE(
      f.timeline().message().contains("Showing the timelines stored in the bundled session"))
      << f.timeline().message().toStdString();
  ASSERT_EQ(f.timeline().summary_lines().size(), 1);
  EXPECT_TRUE(f.timeline().summary_lines()[0].contains("barrier wait"));
}

TEST(TimelinePanel, ClickOnASpanStepsTheAnimation) {
  NoGpu f;
  ASSERT_TRUE(f.panel.show_variants("interleaved", "", 64));
  f.panel.set_session(session_with({test::two_block_timeline()}), "bundled session");
  f.panel.show();
  QApplication::processEvents();
  const Trace& trace = *f.panel.first_view()->trace();
  int tree16 = -1;
  for (int i = 0; i < int(trace.steps.size()); ++i)
    if (trace.steps[i].kind == "tree" && trace.steps[i].stride == 16) tree16 = i;
  ASSERT_GE(tree16, 0);
  TimelineView* view = f.timeline().view();
  const std::optional<QPoint> p = view->point_at(0, 0, 0, 390);  // warp 0, tree stride 16
  ASSERT_TRUE(p.has_value());
  QTest::mouseClick(view, Qt::LeftButton, {}, *p);
  EXPECT_EQ(f.panel.frame(), tree16 + 1);  // the block after that step
  // A timeline of another variant: the animation stays, the status says why.
  EXPECT_FALSE(f.panel.step_to("neighbored", 1, 64, "tree", 1));
  EXPECT_EQ(f.panel.frame(), tree16 + 1);
  EXPECT_TRUE(f.panel.status_text().contains("pick it above"))
      << f.panel.status_text().toStdString();
}

// A GPU queue that found a GPU which cannot record (ordinal 99: none on any machine).
struct UnusableGpu {
  UnusableGpu() {
    Discovery d;
    DeviceInfo g;
    g.backend = "cuda";
    g.index = 99;
    g.name = "no such GPU (test)";
    d.gpus = {g};
    controller.use_discovery(d);
    QSignalSpy spy(&controller, &RunController::discovered);
    panel.set_gpu_jobs(&controller);
    panel.set_job_tracker(&tracker);
    EXPECT_TRUE(spy.count() > 0 || spy.wait(5000));
    TimelineRequest r;
    r.variant = "interleaved";
    r.block_size = 256;
    r.size = std::uint64_t(1) << 20;
    panel.set_first_request(r);
  }
  RunController controller;
  JobTracker tracker;
  TimelinePanel panel;
};

TEST(TimelinePanel, RecordingIsAJobThatSaysWhyItFailed) {
  UnusableGpu f;
  EXPECT_TRUE(f.panel.gpu_available());
  QSignalSpy done(&f.controller, &RunController::timelines_recorded);
  ASSERT_TRUE(f.panel.record()) << f.panel.message().toStdString();
  ASSERT_EQ(f.tracker.running().size(), 1);
  EXPECT_EQ(f.tracker.running()[0]->kind(), JobKind::Recording);
  ASSERT_TRUE(done.wait(60000));
  EXPECT_TRUE(f.panel.message().contains("Recording failed")) << f.panel.message().toStdString();
  EXPECT_FALSE(f.tracker.busy());
  EXPECT_EQ(f.panel.view()->timeline_count(), 0);
}

TEST(TimelinePanel, CancellingTheJobDropsTheRecording) {
  UnusableGpu f;
  ASSERT_TRUE(f.panel.record());
  ASSERT_EQ(f.tracker.running().size(), 1);
  f.tracker.running()[0]->cancel();
  EXPECT_FALSE(f.tracker.busy());
  EXPECT_TRUE(f.panel.message().contains("cancelled")) << f.panel.message().toStdString();
  // The worker's late answer is dropped: the message stays.
  QTest::qWait(200);
  EXPECT_TRUE(f.panel.message().contains("cancelled")) << f.panel.message().toStdString();
}

TEST(TimelinePanel, AVariantWithoutATimelineIsSaidBeforeRecording) {
  UnusableGpu f;
  TimelineRequest r;
  r.variant = "cg_reduce";
  r.block_size = 256;
  f.panel.set_first_request(r);
  EXPECT_FALSE(f.panel.findChild<QPushButton*>("record_timeline")->isEnabled());
  EXPECT_TRUE(f.panel.message().contains("no measured timeline for cg_reduce"))
      << f.panel.message().toStdString();
  EXPECT_FALSE(f.panel.record());
  EXPECT_FALSE(f.tracker.busy());
}

TEST(TimelinePanel, ExportsTheShownTimelineWithItsSummary) {
  NoGpu f;
  QTemporaryDir dir;
  QString error;
  EXPECT_FALSE(f.timeline().export_to(dir.filePath("none.png"), &error));
  EXPECT_TRUE(error.contains("Nothing to export"));
  f.panel.set_session(session_with({test::two_block_timeline()}), "bundled session");
  ASSERT_TRUE(f.timeline().export_to(dir.filePath("t.png"), &error)) << error.toStdString();
  EXPECT_GE(QImage(dir.filePath("t.png")).width(), 1200);
  ASSERT_TRUE(f.timeline().export_to(dir.filePath("t.svg"), &error)) << error.toStdString();
  EXPECT_TRUE(QFile::exists(dir.filePath("t.svg")));
}

TEST(TimelineApp, TheWindowShowsTheBundledSessionsTimelinesOrSaysItHasNone) {
  MainWindow::Options options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  if (!w.wait_for_bundled_session()) GTEST_SKIP() << "this build has no bundled session";
  auto* panel = w.findChild<BlockAnimationPanel*>();
  ASSERT_NE(panel, nullptr);
  const TimelinePanel& t = *panel->timeline_panel();
  const QString m = t.message();
  if (t.view()->timeline_count() > 0)
    EXPECT_TRUE(m.contains("Showing the timelines stored in the bundled session"))
        << m.toStdString();
  else
    EXPECT_TRUE(m.contains("The bundled session holds no recorded timelines yet"))
        << m.toStdString();
}

// On a GPU only: Record on GPU measures the animation's variant and a second rung on one axis.
TEST(TimelineGpu, RecordsTheAnimationsVariantAndASecondRung) {
  RunController controller;
  QSignalSpy discovered(&controller, &RunController::discovered);
  controller.discover();
  ASSERT_TRUE(discovered.wait(60000));
  if (controller.discovery()->gpus.empty()) GTEST_SKIP() << "no CUDA GPU here";
  JobTracker tracker;
  BlockAnimationPanel panel;
  panel.set_gpu_jobs(&controller);
  panel.set_job_tracker(&tracker);
  ASSERT_TRUE(panel.show_variants("interleaved", "", 256));
  panel.set_timeline_shown(true);
  TimelinePanel& t = *panel.timeline_panel();
  auto* second = t.findChild<QComboBox*>("timeline_second");
  second->setCurrentIndex(second->findData("neighbored"));
  QSignalSpy done(&controller, &RunController::timelines_recorded);
  ASSERT_TRUE(t.record()) << t.message().toStdString();
  ASSERT_TRUE(done.wait(120000));
  ASSERT_EQ(t.view()->timeline_count(), 2) << t.message().toStdString();
  EXPECT_TRUE(t.view()->problem(0).isEmpty()) << t.view()->problem(0).toStdString();
  EXPECT_EQ(t.view()->timeline(0)->variant, "interleaved");
  EXPECT_EQ(t.view()->timeline(1)->variant, "neighbored");
  EXPECT_EQ(t.view()->row_count(), 2 * 4 * 8);  // 4 blocks of SM 0, 8 warps each, twice
  ASSERT_EQ(t.summary_lines().size(), 2);
  EXPECT_TRUE(t.summary_lines()[0].contains("SM clock")) << t.summary_lines()[0].toStdString();
  EXPECT_FALSE(tracker.busy());
}

QString shots_dir() {
  return qEnvironmentVariable("RL_GUI_SCREENSHOTS");
}

TEST(TimelineScreens, TimelinePanelAtTwoSizesAndForARoom) {
  if (shots_dir().isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  QDir().mkpath(shots_dir());
  const QString dir = shots_dir();
  auto s = session_with({test::four_block_timeline("interleaved", "reduceInterleaved", 1.0),
                         test::four_block_timeline("neighbored", "reduceNeighbored", 1.6)});
  const auto show_both = [&s](TimelinePanel& t) {
    t.set_session(s, "bundled session");
    auto* second = t.findChild<QComboBox*>("stored_second");
    second->setCurrentIndex(2);
    emit second->activated(2);
    ASSERT_EQ(t.view()->timeline_count(), 2);
  };
  for (QSize size : {QSize(1024, 768), QSize(1920, 1080)}) {
    const QString wxh = QString("%1x%2").arg(size.width()).arg(size.height());
    TimelinePanel alone;
    show_both(alone);
    alone.resize(size);
    alone.show();
    QApplication::processEvents();
    alone.grab().save(QDir(dir).filePath("timeline_" + wxh + ".png"));
    NoGpu f;
    ASSERT_TRUE(f.panel.show_variants("interleaved", "", 256));
    show_both(f.timeline());
    f.panel.resize(size);
    f.panel.show();
    QApplication::processEvents();
    f.panel.grab().save(QDir(dir).filePath("timeline_panel_" + wxh + ".png"));
  }
  {  // Few warps: rows as tall as text, the strides inside the tree spans.
    TimelineView view;
    view.set_timelines({std::make_shared<const MeasuredTimeline>(test::two_block_timeline())});
    view.resize(1024, 400);
    view.show();
    QApplication::processEvents();
    view.grab().save(QDir(dir).filePath("timeline_two_blocks_1024.png"));
  }
  // A room's text size, as presentation mode sets the application font.
  const QFont saved = QApplication::font();
  QFont room = saved;
  room.setPointSizeF(presentation_point_size(1080, 1.0));
  QApplication::setFont(room);
  {
    TimelinePanel alone;
    show_both(alone);
    alone.resize(1920, 1080);
    alone.show();
    QApplication::processEvents();
    alone.grab().save(QDir(dir).filePath("timeline_room_1920x1080.png"));
    QString error;
    EXPECT_TRUE(alone.export_to(QDir(dir).filePath("timeline_export_room.png"), &error));
  }
  QApplication::setFont(saved);
  TimelinePanel alone;
  show_both(alone);
  alone.resize(1400, 900);
  QString error;
  EXPECT_TRUE(alone.export_to(QDir(dir).filePath("timeline_export.png"), &error));
  EXPECT_TRUE(alone.export_to(QDir(dir).filePath("timeline_export.svg"), &error));
}

}  // namespace
}  // namespace rl::gui
