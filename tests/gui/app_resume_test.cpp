// The app's checkpoint (main_window_resume.cpp, run_worker.cpp): a run writes checkpoint.json
// into the checkpoint directory after every point and removes it at the end; a checkpoint left
// by an unfinished run is offered at start and Resume runs only the missing points; a damaged
// one is reported and moved aside. Each test has its own temporary directory.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "app_test_support.h"
#include "engine/io/export.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

MainWindow::Options with_checkpoints(const QTemporaryDir& dir) {
  MainWindow::Options o = test::quiet_options();
  o.checkpoint_dir = dir.path();
  return o;
}

}  // namespace

TEST(AppResume, QuietWindowHasNoCheckpoint) {
  MainWindow w(test::quiet_options());
  EXPECT_TRUE(w.checkpoint_path().isEmpty());
  EXPECT_TRUE(w.resume_offer().isEmpty());
}

TEST(AppResume, RunWritesCheckpointAndRemovesItAtTheEnd) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(with_checkpoints(dir));
  const QString path = w.checkpoint_path();
  ASSERT_EQ(path, QDir(dir.path()).filePath("checkpoint.json"));
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec())) << w.last_error().toStdString();
  EXPECT_EQ(w.store()->primary().results.size(), 4u);
  EXPECT_EQ(w.controller()->checkpoints_written(), 4);  // one after every point
  EXPECT_FALSE(QFile::exists(path));
  EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files).isEmpty());  // no temporary files left
}

TEST(AppResume, PlantedCheckpointIsOfferedAndResumed) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  // A finished run of 4 points, cut to its first 2: what a crash after point 2 leaves.
  rl::Session full;
  {
    MainWindow first(test::quiet_options());
    ASSERT_TRUE(test::run_and_wait(first, test::tiny_spec()));
    full = first.store()->primary();
  }
  ASSERT_EQ(full.results.size(), 4u);
  rl::Session partial = full;
  partial.results.resize(2);
  const QString path = QDir(dir.path()).filePath("checkpoint.json");
  {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(rl::session_to_json(partial)));
  }

  MainWindow w(with_checkpoints(dir));
  const QString offer = w.resume_offer();
  EXPECT_TRUE(offer.contains("2 of 4 points")) << offer.toStdString();
  EXPECT_TRUE(offer.contains(QString::fromStdString(full.device.name))) << offer.toStdString();
  ASSERT_TRUE(w.resume_checkpoint()) << w.resume_offer().toStdString();
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 60000));
  EXPECT_TRUE(w.resume_offer().isEmpty());
  const rl::Session& s = w.store()->primary();
  EXPECT_FALSE(s.cancelled);
  ASSERT_EQ(s.results.size(), 4u) << w.last_error().toStdString();
  for (int i = 0; i < 2; ++i) {  // the kept points, not measured again
    EXPECT_EQ(s.results[size_t(i)].point, partial.results[size_t(i)].point);
    EXPECT_EQ(s.results[size_t(i)].total_samples_ms, partial.results[size_t(i)].total_samples_ms);
    EXPECT_EQ(s.results[size_t(i)].first_samples_ms, partial.results[size_t(i)].first_samples_ms);
  }
  EXPECT_FALSE(QFile::exists(path));  // finished: removed
}

TEST(AppResume, DamagedCheckpointIsReportedAndMovedAside) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = QDir(dir.path()).filePath("checkpoint.json");
  {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("{\"schema_version\": 1, \"results\": [");  // cut short
  }
  MainWindow w(with_checkpoints(dir));
  EXPECT_FALSE(QFile::exists(path));
  const QStringList aside = QDir(dir.path()).entryList({"checkpoint.json.damaged-*"}, QDir::Files);
  EXPECT_EQ(aside.size(), 1);
  EXPECT_TRUE(w.last_error().contains("cannot be read")) << w.last_error().toStdString();
  EXPECT_TRUE(w.resume_offer().contains("moved aside")) << w.resume_offer().toStdString();
  EXPECT_FALSE(w.resume_checkpoint());
}
