// Timelines recorded in the app are kept with the shown session (SessionStore::add_timelines):
// saving the session keeps them, opening the file shows them in the panel, a session keeps at
// most kTimelineMaxPerSession (the oldest go, and the panel says so), the bundled session stays
// as shipped. Presentation mode has a page per stored timeline. Screenshots of that page, taken
// only when asked:
//   RL_GUI_SCREENSHOTS=/tmp/shots ./build/tests/gui_tests --gtest_filter='TimelineKeepScreens.*'
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "animation/block_animation.h"
#include "animation/timeline_panel.h"
#include "animation/timeline_view.h"
#include "app_sample_session.h"
#include "app_test_support.h"
#include "presentation.h"
#include "run_worker.h"
#include "session_store.h"
#include "timeline_test_data.h"

namespace rl::gui {
namespace {

std::shared_ptr<const MeasuredTimeline> labelled(const std::string& label) {
  MeasuredTimeline t = test::two_block_timeline();
  t.label = label;
  return std::make_shared<const MeasuredTimeline>(t);
}

TEST(TimelineKeep, StoreKeepsThemInThePrimaryWithinTheBound) {
  SessionStore store;
  store.set_primary(test::sample_session(), "s.json");
  QSignalSpy changed(&store, &SessionStore::timelines_changed);
  SessionStore::KeptTimelines kept = store.add_timelines({labelled("first"), nullptr});
  EXPECT_EQ(kept.index, 0);
  EXPECT_EQ(kept.dropped, 0);
  EXPECT_FALSE(kept.new_session);
  EXPECT_EQ(changed.count(), 1);
  ASSERT_EQ(store.primary().timelines.size(), 1u);
  EXPECT_EQ(store.primary().timelines[0].label, "first");

  for (unsigned i = 1; i < kTimelineMaxPerSession; ++i)
    store.add_timelines({labelled("t" + std::to_string(i))});
  ASSERT_EQ(store.primary().timelines.size(), kTimelineMaxPerSession);
  kept = store.add_timelines({labelled("newest a"), labelled("newest b")});
  EXPECT_EQ(kept.dropped, 2);
  ASSERT_EQ(store.primary().timelines.size(), kTimelineMaxPerSession);
  EXPECT_EQ(store.primary().timelines.front().label, "t2");  // "first" and "t1" went
  EXPECT_EQ(store.primary().timelines.back().label, "newest b");
  EXPECT_EQ(store.open().size(), 1u);
  EXPECT_EQ(store.add_timelines({nullptr}).index, -1);  // nothing to keep
}

TEST(TimelineKeep, AHeldSessionIsNotChangedUnderItsReader) {
  SessionStore store;
  store.set_primary(test::sample_session(), "s.json");
  QSignalSpy reset(&store, &SessionStore::reset);
  std::shared_ptr<const Session> saving = store.hold(0);  // as a save on another thread does
  store.add_timelines({labelled("while saving")});
  EXPECT_TRUE(saving->timelines.empty());
  ASSERT_EQ(store.primary().timelines.size(), 1u);
  EXPECT_EQ(reset.count(), 1);  // the views take the primary's new copy
  store.release_hold();
}

TEST(TimelineKeep, TheBundledSessionStaysAsShipped) {
  SessionStore store;
  store.set_primary(test::sample_session("NVIDIA H200"), "bundled session");
  const SessionStore::KeptTimelines kept = store.add_timelines({labelled("mine")});
  EXPECT_TRUE(kept.new_session);
  ASSERT_EQ(store.open().size(), 2u);
  EXPECT_EQ(store.primary_source(), "recorded timelines");
  ASSERT_EQ(store.primary().timelines.size(), 1u);
  EXPECT_EQ(store.primary().device.name, "hand-made for a test");
  EXPECT_EQ(store.primary().device.backend, "cuda");  // never taken for the host emulation
  EXPECT_TRUE(store.open()[1].session->timelines.empty());
  EXPECT_EQ(store.open()[1].source, "bundled session");
  // A run started now keeps that session open (it is not an empty, cancelled run).
  store.begin_live(test::sample_session().spec, DeviceInfo{});
  EXPECT_EQ(store.open().size(), 3u);
}

TEST(TimelineKeep, ARunFinishingKeepsWhatWasRecordedMeanwhile) {
  SessionStore store;
  Session run = test::sample_session();
  store.begin_live(run.spec, run.device);
  store.add_timelines({labelled("during the run")});
  store.finish_live(run);
  ASSERT_EQ(store.primary().timelines.size(), 1u);
  EXPECT_EQ(store.primary().timelines[0].label, "during the run");
}

// A window whose GPU queue found a GPU that cannot record: Record on GPU queues, and the test
// answers for the GPU as the controller's signal does.
struct WindowWithQueue {
  WindowWithQueue() : w(test::quiet_options()) {
    panel = w.findChild<TimelinePanel*>();
    Discovery d;
    DeviceInfo g;
    g.backend = "cuda";
    g.index = 99;
    g.name = "no such GPU (test)";
    d.gpus = {g};
    QSignalSpy spy(w.controller(), &RunController::discovered);
    w.controller()->use_discovery(d);
    EXPECT_TRUE(spy.count() > 0 || spy.wait(5000));
    TimelineRequest r;
    r.variant = "interleaved";
    r.block_size = 64;
    r.size = std::uint64_t(1) << 20;
    panel->set_first_request(r);
  }
  // Records, and answers with `t` before the GPU does.
  void record(std::shared_ptr<const MeasuredTimeline> t) {
    ASSERT_TRUE(panel->record()) << panel->message().toStdString();
    TimelineRecording r;
    r.job = panel->recording();
    r.first = std::move(t);
    emit w.controller()->timelines_recorded(r);
  }
  MainWindow w;
  TimelinePanel* panel = nullptr;
};

TEST(TimelineKeep, ARecordingIsSavedWithTheSessionAndShownWhenOpened) {
  WindowWithQueue f;
  ASSERT_NE(f.panel, nullptr);
  f.w.store()->set_primary(test::sample_session(), "s.json");
  f.record(labelled("recorded in the app"));
  EXPECT_TRUE(f.panel->message().contains("Kept in the shown session"))
      << f.panel->message().toStdString();
  ASSERT_EQ(f.w.store()->primary().timelines.size(), 1u);
  EXPECT_EQ(f.panel->findChild<QComboBox*>("stored_first")->count(), 1);

  QTemporaryDir dir;
  const QString path = dir.filePath("kept.json");
  ASSERT_TRUE(f.w.save_session(path));
  f.w.store()->clear();
  ASSERT_TRUE(f.w.open_session(path));
  ASSERT_EQ(f.w.store()->primary().timelines.size(), 1u);
  EXPECT_EQ(f.w.store()->primary().timelines[0].label, "recorded in the app");
  EXPECT_EQ(f.panel->view()->timeline_count(), 1);
  EXPECT_TRUE(f.panel->message().contains("Showing the timelines stored in the session kept.json"))
      << f.panel->message().toStdString();
  QTest::qWait(100);  // the queue's own (failed) answer comes late and is dropped
}

TEST(TimelineKeep, AFullSessionDropsTheOldestAndThePanelSaysSo) {
  WindowWithQueue f;
  Session s = test::sample_session();
  for (unsigned i = 0; i < kTimelineMaxPerSession; ++i) s.timelines.push_back(*labelled("old"));
  s.timelines.front().label = "oldest";
  f.w.store()->set_primary(std::move(s), "s.json");
  f.record(labelled("newest"));
  const Session& kept = f.w.store()->primary();
  ASSERT_EQ(kept.timelines.size(), kTimelineMaxPerSession);
  EXPECT_EQ(kept.timelines.back().label, "newest");
  EXPECT_NE(kept.timelines.front().label, "oldest");
  EXPECT_TRUE(f.panel->message().contains("at most 32 timelines: the oldest 1 was dropped"))
      << f.panel->message().toStdString();
}

TEST(TimelineKeep, RecordedOverTheBundledSessionGoesToASessionOfItsOwn) {
  WindowWithQueue f;
  f.w.store()->set_primary(test::sample_session("NVIDIA H200"), "bundled session");
  f.record(labelled("mine"));
  EXPECT_EQ(f.w.store()->primary_source(), "recorded timelines");
  EXPECT_EQ(f.w.store()->primary().device.name, "no such GPU (test)");  // the queue's GPU
  EXPECT_TRUE(f.panel->message().contains("the bundled one stays as shipped"))
      << f.panel->message().toStdString();
  EXPECT_EQ(f.panel->view()->timeline_count(), 1);
}

Session session_with_timelines() {
  Session s = test::sample_session();
  s.timelines = {test::four_block_timeline("interleaved", "reduceInterleaved", 1.0),
                 test::two_block_timeline()};
  return s;
}

TEST(TimelinePresentation, EachStoredTimelineIsAPageAfterTheCharts) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(session_with_timelines(), "s.json");
  w.present();
  PresentationView* p = w.presentation();
  ASSERT_NE(p, nullptr);
  const int pages = int(p->pages().size());
  ASSERT_GE(pages, 3);
  EXPECT_EQ(p->pages()[pages - 2], "timeline:0");
  EXPECT_EQ(p->pages()[pages - 1], "timeline:1");
  EXPECT_FALSE(p->showing_timeline());
  QTest::keyClick(p, Qt::Key_End);
  QTest::keyClick(p, Qt::Key_PageUp);
  EXPECT_TRUE(p->showing_timeline());
  ASSERT_EQ(p->timeline_view()->timeline_count(), 1);
  EXPECT_EQ(p->timeline_view()->timeline(0)->label, "reduceInterleaved");
  EXPECT_EQ(p->timeline_view()->font().pointSizeF(), QApplication::font().pointSizeF());
  QTest::keyClick(p, Qt::Key_PageDown);
  EXPECT_EQ(p->timeline_view()->timeline(0)->block_size, 64);
  QTest::keyClick(p, Qt::Key_Home);
  EXPECT_FALSE(p->showing_timeline());  // a chart again
  QTest::keyClick(p, Qt::Key_Escape);
  QCoreApplication::processEvents();
  EXPECT_EQ(w.presentation(), nullptr);
}

TEST(TimelinePresentation, NoTimelinesNoTimelinePage) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session(), "s.json");
  w.present();
  ASSERT_NE(w.presentation(), nullptr);
  for (const QString& page : w.presentation()->pages())
    EXPECT_FALSE(page.startsWith("timeline")) << page.toStdString();
  w.present();
}

TEST(TimelineKeepScreens, PresentationTimelinePageAtTwoSizes) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  QDir().mkpath(dir);
  SessionStore store;
  store.set_primary(session_with_timelines(), "s.json");
  for (QSize size : {QSize(1024, 768), QSize(1920, 1080)}) {
    // The room's text for this screen height, as the view sets it on a screen of that size.
    const double zoom =
        presentation_point_size(size.height(), 1.0) /
        presentation_point_size(
            QApplication::primaryScreen() ? QApplication::primaryScreen()->size().height() : 1080,
            1.0);
    auto* p = new PresentationView(&store, zoom);
    p->start();
    p->show_page(int(p->pages().size()) - 2);
    p->resize(size);
    p->show();
    QApplication::processEvents();
    ASSERT_TRUE(p->showing_timeline());
    p->grab().save(QDir(dir).filePath(
        QString("presentation_timeline_%1x%2.png").arg(size.width()).arg(size.height())));
    p->close();
    QApplication::processEvents();
  }
}

TEST(TimelineKeepScreens, WindowAfterARecordingOverTheBundledSession) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  QDir().mkpath(dir);
  WindowWithQueue f;
  f.w.store()->set_primary(test::sample_session("NVIDIA H200"), "bundled session");
  f.record(std::make_shared<const MeasuredTimeline>(
      test::four_block_timeline("interleaved", "reduceInterleaved", 1.0)));
  f.w.findChild<BlockAnimationPanel*>()->set_timeline_shown(true);
  for (QTabWidget* tabs : f.w.findChildren<QTabWidget*>())
    for (int i = 0; i < tabs->count(); ++i)
      if (tabs->tabText(i) == "Inside a block") tabs->setCurrentIndex(i);
  f.w.setWindowState(Qt::WindowNoState);
  f.w.resize(1920, 1080);
  f.w.show();
  QApplication::processEvents();
  f.w.grab().save(QDir(dir).filePath("window_recorded_over_bundled.png"));
  QTest::qWait(100);
}

}  // namespace
}  // namespace rl::gui
