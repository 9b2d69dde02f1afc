// Story mode offscreen: the shipped stories open over the bundled H200 session and the clicker's
// keys step through them (bars arriving, speed-ups, code change, counter, animation), a bad
// story file is refused naming its field, "Run this step now" measures the step on the app's
// job queue (the host backend standing in for a GPU) and updates its bar, an older request's
// result is dropped, and without a GPU the button says why it is disabled.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "animation/block_view.h"
#include "app_test_support.h"
#include "engine/views/story.h"
#include "session_files.h"
#include "session_store.h"
#include "story/story_bars.h"
#include "story/story_files.h"
#include "story/story_view.h"

using namespace rl::gui;

namespace {

const char* kBundled = ":/sessions/h200-ladder.json";

QString write_story(QTemporaryDir& dir, const QByteArray& json) {
  const QString path = dir.filePath("story.json");
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(json);
  return path;
}

}  // namespace

TEST(AppStory, ShippedStoriesAreValid) {
  ASSERT_EQ(shipped_stories().size(), 3);
  for (const ShippedStory& s : shipped_stories()) {
    QString error;
    const std::optional<rl::Story> story = read_story_file(s.path, &error);
    ASSERT_TRUE(story) << error.toStdString();
    EXPECT_GE(story->steps.size(), 4u);
  }
}

TEST(AppStory, ClickerKeysStepThroughTheSeedsLadder) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  auto options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  w.wait_for_bundled_session();
  const double app_pt = QApplication::font().pointSizeF();
  ASSERT_TRUE(w.present_story(":/stories/seed-ladder.json")) << w.last_error().toStdString();
  StoryView* v = w.story_view();
  ASSERT_NE(v, nullptr);
  EXPECT_GT(QApplication::font().pointSizeF(), app_pt);  // text for a room
  EXPECT_EQ(v->step_count(), 9);
  EXPECT_EQ(v->step(), 0);
  EXPECT_TRUE(v->heading_text().contains("1 / 9 · reduceNeighbored"));
  EXPECT_EQ(v->bars()->shown_bars(), 1);
  EXPECT_TRUE(v->counter_text().startsWith("branch uniformity 71.6%"))
      << v->counter_text().toStdString();

  QTest::keyClick(v, Qt::Key_PageDown);
  EXPECT_EQ(v->step(), 1);
  EXPECT_EQ(v->bars()->shown_bars(), 2);
  EXPECT_LT(v->bars()->arrival(), 1.0);  // the new bar grows in
  // The session's own numbers: reduceNeighboredLess at 2^24 in global memory, 1.96x.
  EXPECT_TRUE(v->numbers_text().contains("×1.96 over the previous step"))
      << v->numbers_text().toStdString();
  EXPECT_TRUE(v->counter_text().contains("(previous step 71.6%)"));
  EXPECT_NEAR(*v->bars()->value(1), 268.45 / 137.12, 0.01);
  // What changed: the Code view's diff (or, without sources in this build, the explanation).
  EXPECT_TRUE(v->code_text().contains("2 * stride * tid") ||
              v->code_text().contains("2*stride*tid") || v->code_text().contains("index"))
      << v->code_text().toStdString();

  QTest::keyClick(v, Qt::Key_Space);
  EXPECT_EQ(v->step(), 2);
  QTest::keyClick(v, Qt::Key_PageUp);
  EXPECT_EQ(v->step(), 1);
  QTest::keyClick(v, Qt::Key_End);
  EXPECT_EQ(v->step(), 8);
  EXPECT_EQ(v->bars()->shown_bars(), 9);
  QTest::keyClick(v, Qt::Key_PageDown);  // stays on the last step
  EXPECT_EQ(v->step(), 8);
  v->bars()->finish_arrival();
  EXPECT_GT(v->bars()->bar_rect(8).height(), v->bars()->bar_rect(0).height());
  // The block animation of that rung, from the block model.
  ASSERT_NE(v->block_view()->trace(), nullptr);
  EXPECT_EQ(v->block_view()->trace()->variant, "complete_unroll_volatile");
  QTest::keyClick(v, Qt::Key_Home);
  EXPECT_EQ(v->step(), 0);

  QTest::keyClick(v, Qt::Key_Escape);
  QCoreApplication::processEvents();
  EXPECT_EQ(w.story_view(), nullptr);
  EXPECT_EQ(QApplication::font().pointSizeF(), app_pt);  // the app's font back
}

TEST(AppStory, ModernStoryShowsWhatHasNoTrace) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  auto options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  w.wait_for_bundled_session();
  ASSERT_TRUE(w.present_story(":/stories/modern.json"));
  StoryView* v = w.story_view();
  QTest::keyClick(v, Qt::Key_End);
  EXPECT_TRUE(v->heading_text().contains("CUB DeviceReduce::Sum"));
  EXPECT_EQ(v->block_view()->trace(), nullptr);  // library code: no trace, said so
  for (int i = 0; i < v->step_count(); ++i) EXPECT_TRUE(v->bars()->value(i)) << i;
  w.present();  // F5 leaves a story too
  QCoreApplication::processEvents();
  EXPECT_EQ(w.story_view(), nullptr);
}

TEST(AppStory, RowsStoryAnimatesItsMatrixStepsAndSaysWhatTheSessionLacks) {
  auto options = test::quiet_options();
  options.open_bundled = false;  // no session: every step says it is not measured
  MainWindow w(options);
  ASSERT_TRUE(w.present_story(":/stories/rows.json")) << w.last_error().toStdString();
  StoryView* v = w.story_view();
  ASSERT_EQ(v->step_count(), 9);
  v->show_step(1);  // row_per_warp at 524288x32: a warp per row, lanes past the row idle
  const rl::Trace* t = v->block_view()->trace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->variant, "row_per_warp");
  EXPECT_EQ(t->cols, 32u);
  EXPECT_EQ(t->steps.front().masks.front(), 0xffu);  // 8 vectors: lanes 0..7 read
  for (int i = 0; i < v->step_count(); ++i) EXPECT_FALSE(v->bars()->value(i)) << i;
  EXPECT_FALSE(v->numbers_text().contains("×")) << v->numbers_text().toStdString();
  v->show_step(6);  // row_split: no trace, said so
  EXPECT_EQ(v->block_view()->trace(), nullptr);
}

TEST(AppStory, StoryTakesOverFromPresentationMode) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  auto options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  w.wait_for_bundled_session();
  w.present();
  ASSERT_NE(w.presentation(), nullptr);
  ASSERT_TRUE(w.present_story(":/stories/seed-ladder.json"));  // Shift+F5 from the charts
  QCoreApplication::processEvents();
  EXPECT_EQ(w.presentation(), nullptr);
  ASSERT_NE(w.story_view(), nullptr);
  QTest::keyClick(w.story_view(), Qt::Key_Escape);
  QCoreApplication::processEvents();
  EXPECT_EQ(w.story_view(), nullptr);
}

TEST(AppStory, BadStoryFileIsRefusedNamingTheField) {
  MainWindow w(test::quiet_options());
  QTemporaryDir dir;
  const QString path =
      write_story(dir, R"({"title": "t", "steps": [{"variant": "reduceFoo", "caption": "c"}]})");
  EXPECT_FALSE(w.present_story(path));
  EXPECT_EQ(w.story_view(), nullptr);
  EXPECT_TRUE(w.last_error().contains("story.json: steps[0].variant: unknown variant"))
      << w.last_error().toStdString();
}

TEST(AppStory, RunThisStepNowUpdatesTheBar) {
  MainWindow w(test::quiet_options());
  // The session: a host run, so a live host run is compared like with like.
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  QTemporaryDir dir;
  const QString path = write_story(dir, R"({"title": "Live", "setting": "N=4096,B=256", "steps": [
      {"variant": "reduceNeighbored", "caption": "first"},
      {"variant": "reduceInterleaved", "caption": "second"}]})");
  ASSERT_TRUE(w.present_story(path)) << w.last_error().toStdString();
  StoryView* v = w.story_view();
  EXPECT_FALSE(v->run_button()->isEnabled());  // no discovery in the test window: says why
  EXPECT_FALSE(v->run_button()->toolTip().isEmpty());
  v->set_run_device(kHostDevice);
  EXPECT_TRUE(v->run_button()->isEnabled());
  QTest::keyClick(v, Qt::Key_PageDown);
  const std::optional<double> before = v->bars()->value(1);
  ASSERT_TRUE(before);
  EXPECT_FALSE(v->bars()->live(1));

  // Two requests: the first one's result is stale and dropped.
  QTest::keyClick(v, Qt::Key_PageUp);
  QTest::keyClick(v, Qt::Key_R);  // the button's key
  ASSERT_TRUE(v->measuring());
  QTest::keyClick(v, Qt::Key_PageDown);
  ASSERT_TRUE(v->run_step());
  EXPECT_FALSE(v->run_button()->isEnabled());  // one measurement at a time
  EXPECT_TRUE(v->run_status().startsWith("Measuring reduceInterleaved"));
  ASSERT_TRUE(test::wait_until([&] { return !v->measuring(); }, 60000));
  EXPECT_TRUE(v->run_status().contains("measured live")) << v->run_status().toStdString();
  EXPECT_FALSE(v->bars()->live(0));
  EXPECT_TRUE(v->bars()->live(1));
  const rl::ResolvedStep& step = v->resolved().steps[1];
  ASSERT_TRUE(step.time_ms);
  EXPECT_DOUBLE_EQ(*v->bars()->value(1), *v->resolved().steps[0].time_ms / *step.time_ms);
  EXPECT_TRUE(v->numbers_text().contains("live on")) << v->numbers_text().toStdString();
  EXPECT_TRUE(v->run_button()->isEnabled());
  // The window's session is untouched: a story's run is not the window's run.
  EXPECT_EQ(w.store()->primary().results.size(), 4u);
  v->close();
}

TEST(AppStory, WithoutAGpuTheButtonSaysWhy) {
  MainWindow w(test::quiet_options());
  QSignalSpy discovered(w.controller(), &RunController::discovered);
  QTemporaryDir dir;
  const QString path =
      write_story(dir, R"({"title": "t", "steps": [{"variant": "neighbored", "caption": "c"}]})");
  ASSERT_TRUE(w.present_story(path));
  StoryView* v = w.story_view();
  EXPECT_FALSE(v->run_button()->isEnabled());
  w.controller()->discover();
  ASSERT_TRUE(discovered.wait(30000));
  const rl::Discovery& d = *w.controller()->discovery();
  EXPECT_EQ(v->run_button()->isEnabled(), !d.gpus.empty());
  if (d.gpus.empty()) {
    EXPECT_TRUE(v->run_button()->toolTip().contains("no GPU here"))
        << v->run_button()->toolTip().toStdString();
    EXPECT_FALSE(v->run_step());
    EXPECT_TRUE(v->run_status().contains("no GPU here"));
  }
  v->close();
}
