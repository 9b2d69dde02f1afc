// A live story run of the classic ladder on a GPU. The shipped story over the bundled
// H200 session; three steps measured now with "Run this step now" (the app's job queue, a worker
// process on the GPU), each bar then drawn from the live run. Skips, saying why, without a GPU.
// RL_STORY_SHOTS=DIR also writes each step as the room sees it.
#include <gtest/gtest.h>

#include <QPushButton>
#include <QSignalSpy>

#include "app_test_support.h"
#include "main_window.h"
#include "run_worker.h"
#include "story/story_bars.h"
#include "story/story_view.h"

using namespace rl::gui;

TEST(AppStoryGpu, LiveRunOfTheSeedsLadder) {
  MainWindow::Options o = test::quiet_options();
  o.open_bundled = true;
  MainWindow w(o);
  w.wait_for_bundled_session();
  QSignalSpy discovered(w.controller(), &RunController::discovered);
  w.controller()->discover();
  ASSERT_TRUE(discovered.wait(60000));
  const rl::Discovery& d = *w.controller()->discovery();
  if (d.gpus.empty()) GTEST_SKIP() << "no GPU: " << d.no_gpu_reason;
  ASSERT_TRUE(w.present_story(":/stories/seed-ladder.json")) << w.last_error().toStdString();
  StoryView* v = w.story_view();
  ASSERT_NE(v, nullptr);
  v->resize(1920, 1080);
  ASSERT_TRUE(test::wait_until([&] { return v->run_button()->isEnabled(); }, 10000))
      << v->run_button()->toolTip().toStdString();
  const QString shots = qEnvironmentVariable("RL_STORY_SHOTS");
  // reduceNeighboredLess, reduceInterleaved and reduceUnroll8: the classic ladder's three big
  // steps.
  for (int step : {1, 2, 5}) {
    v->show_step(step);
    ASSERT_TRUE(v->run_step()) << v->run_status().toStdString();
    ASSERT_TRUE(test::wait_until([&] { return !v->measuring(); }, 120000));
    EXPECT_TRUE(v->run_status().contains("measured live")) << v->run_status().toStdString();
    EXPECT_TRUE(v->bars()->live(step));
    EXPECT_TRUE(v->numbers_text().contains("live on")) << v->numbers_text().toStdString();
    // The live run took no counters: the session's own, named as the session's.
    EXPECT_TRUE(v->counter_text().contains("the session's run on NVIDIA H200"))
        << v->counter_text().toStdString();
    std::printf("step %d: %s\n  %s\n  %s\n", step + 1, v->heading_text().toStdString().c_str(),
                v->numbers_text().toStdString().c_str(), v->counter_text().toStdString().c_str());
    v->bars()->finish_arrival();  // the bar as it lands, not mid-flight
    test::wait_until([] { return false; }, 300);
    if (!shots.isEmpty())
      EXPECT_TRUE(v->grab().save(QString("%1/story-live-step%2.png").arg(shots).arg(step + 1)));
  }
  v->close();
}
