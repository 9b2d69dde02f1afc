// The app starts a counter run itself: the experiment form's "Hardware counters
// (CUPTI)", "Line samples" and "Executed instructions per line" boxes exclude each other and need
// a GPU, each saying why where it is off; they reach the GPU worker's arguments (the fake worker,
// rl_fake_worker, stands in for reductionlab-worker and a GPU: RL_FAKE_ARGV_FILE records what the
// supervisor passed), and the settings remember them.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cstdlib>

#include "app_test_support.h"
#include "engine/counters/counter_catalog.h"
#include "engine/measure/runner.h"

using namespace rl::gui;

namespace {

// A GPU as discovery would report it; the fake worker runs its points on the host backend.
rl::Discovery fake_gpu() {
  rl::Discovery d;
  d.host.name = "Test CPU";
  rl::DeviceInfo gpu;
  gpu.backend = "cuda";
  gpu.index = 0;
  gpu.name = "NVIDIA H200";
  gpu.cc_major = 9;
  gpu.sm_count = 132;
  gpu.total_memory = gpu.free_memory = std::size_t(140) << 30;
  gpu.l2_bytes = std::size_t(50) << 20;
  d.gpus.push_back(gpu);
  return d;
}

// The fake worker as the app's worker, recording its arguments; undone when it goes.
class FakeWorker {
 public:
  FakeWorker() {
    setenv("REDUCTIONLAB_WORKER", test::fake_worker_path().constData(), 1);
    setenv("RL_FAKE_ARGV_FILE", argv_path().toLocal8Bit().constData(), 1);
  }
  ~FakeWorker() {
    unsetenv("REDUCTIONLAB_WORKER");
    unsetenv("RL_FAKE_ARGV_FILE");
  }
  QString argv_path() const { return dir_.filePath("argv.txt"); }
  // Every worker's arguments so far, one line each; cleared.
  QStringList take() {
    QFile f(argv_path());
    QStringList lines;
    if (f.open(QIODevice::ReadOnly)) lines = QString::fromUtf8(f.readAll()).split('\n');
    lines.removeAll(QString());
    QFile::remove(argv_path());
    return lines;
  }

 private:
  QTemporaryDir dir_;
};

QString default_ids() {
  QStringList ids;
  for (const std::string& id : rl::default_counters()) ids << QString::fromStdString(id);
  return ids.join(',');
}

}  // namespace

TEST(AppProfiling, TheBoxesNeedAGpuAndExcludeEachOther) {
  ExperimentPanel panel;
  QCheckBox* counters = panel.counters_box();
  QCheckBox* samples = panel.line_samples_box();
  // The host backend only: both off, saying why.
  EXPECT_FALSE(counters->isEnabled());
  EXPECT_FALSE(samples->isEnabled());
  EXPECT_TRUE(counters->toolTip().contains("needs a GPU")) << counters->toolTip().toStdString();
  EXPECT_TRUE(samples->toolTip().contains("needs a GPU"));
  EXPECT_EQ(panel.profiling(), RunProfiling{});

  panel.set_discovery(fake_gpu());
  panel.set_device(0);
  EXPECT_TRUE(counters->isEnabled());
  EXPECT_TRUE(samples->isEnabled());
  counters->click();
  EXPECT_EQ(panel.profiling(), (RunProfiling{true, false}));
  EXPECT_FALSE(samples->isEnabled());
  EXPECT_TRUE(samples->toolTip().contains(rl::kCountersOrLineSamples))
      << samples->toolTip().toStdString();
  counters->click();
  EXPECT_TRUE(samples->isEnabled());
  samples->click();
  EXPECT_EQ(panel.profiling(), (RunProfiling{false, true}));
  EXPECT_FALSE(counters->isEnabled());
  EXPECT_TRUE(counters->toolTip().contains(rl::kCountersOrLineSamples));
  // Both asked for (a hand-edited settings file): the counters win, as one run takes one.
  panel.set_profiling({true, true});
  EXPECT_EQ(panel.profiling(), (RunProfiling{true, false}));

  // Back to the host: off again, the tick kept for the next GPU run.
  panel.set_device(kHostDevice);
  EXPECT_EQ(panel.profiling(), RunProfiling{});
  EXPECT_FALSE(counters->isEnabled());
  EXPECT_TRUE(counters->isChecked());
}

TEST(AppProfiling, TheChoiceReachesTheWorkersArguments) {
  FakeWorker fake;
  RunWorker worker;
  worker.use_discovery(fake_gpu());
  QSignalSpy finished(&worker, &RunWorker::run_finished);
  QSignalSpy failed(&worker, &RunWorker::run_failed);
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  const rl::ExperimentSpec spec = test::tiny_spec();

  worker.run(1, spec, 0, cancel, {}, {}, std::nullopt, RunProfiling{true, false});
  ASSERT_EQ(failed.count(), 0) << failed.front().at(1).toString().toStdString();
  ASSERT_EQ(finished.count(), 1);
  QStringList argv = fake.take();
  ASSERT_EQ(argv.size(), 1);
  EXPECT_TRUE(argv[0].contains("--counters " + default_ids())) << argv[0].toStdString();
  EXPECT_FALSE(argv[0].contains("--line-samples"));

  worker.run(2, spec, 0, cancel, {}, {}, std::nullopt, RunProfiling{false, true});
  argv = fake.take();
  ASSERT_EQ(argv.size(), 1);
  EXPECT_TRUE(argv[0].contains("--line-samples")) << argv[0].toStdString();
  EXPECT_FALSE(argv[0].contains("--counters"));

  worker.run(3, spec, 0, cancel);
  argv = fake.take();
  ASSERT_EQ(argv.size(), 1);
  EXPECT_FALSE(argv[0].contains("--counters") || argv[0].contains("--line-samples"))
      << argv[0].toStdString();
  EXPECT_EQ(finished.count(), 3);
}

// The worker's target is kept between runs on one GPU; what it says of a lost worker belongs to
// the run in progress, not to the run that made the target (the controller drops other ids).
TEST(AppProfiling, ALaterRunsWorkerNoticesCarryItsOwnId) {
  FakeWorker fake;
  RunWorker worker;
  worker.use_discovery(fake_gpu());
  QSignalSpy notices(&worker, &RunWorker::notice);
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  const rl::ExperimentSpec spec = test::tiny_spec();
  worker.run(1, spec, 0, cancel);
  setenv("RL_FAKE_FAULT_SIZES", std::to_string(spec.sizes.front()).c_str(), 1);
  worker.run(2, spec, 0, cancel);
  unsetenv("RL_FAKE_FAULT_SIZES");
  ASSERT_GE(notices.count(), 1);
  for (const QList<QVariant>& n : notices)
    EXPECT_EQ(n.at(0).toULongLong(), 2u) << n.at(1).toString().toStdString();
}

// The third box, "Executed instructions per line (SASS counts)": one of the three, each off while
// another is ticked with the reason in its tooltip, and its tick reaches the worker as
// --line-counts.
TEST(AppProfiling, LineCountsExcludeTheOtherBoxesAndReachTheWorker) {
  ExperimentPanel panel;
  QCheckBox* counts = panel.line_counts_box();
  EXPECT_FALSE(counts->isEnabled());
  EXPECT_TRUE(counts->toolTip().contains("needs a GPU")) << counts->toolTip().toStdString();
  panel.set_discovery(fake_gpu());
  panel.set_device(0);
  ASSERT_TRUE(counts->isEnabled());
  counts->click();
  EXPECT_EQ(panel.profiling(), (RunProfiling{false, false, true}));
  for (QCheckBox* other : {panel.counters_box(), panel.line_samples_box()}) {
    EXPECT_FALSE(other->isEnabled());
    EXPECT_TRUE(other->toolTip().contains("\"Executed instructions per line\" is ticked"))
        << other->toolTip().toStdString();
    EXPECT_TRUE(other->toolTip().contains(rl::kCountersOrLineSamples));
  }
  counts->click();
  panel.line_samples_box()->click();
  EXPECT_FALSE(counts->isEnabled());
  EXPECT_TRUE(counts->toolTip().contains("\"Line samples\" is ticked"));
  // Several asked for (a hand-edited settings file): the counters win, then the samples.
  panel.set_profiling({false, true, true});
  EXPECT_EQ(panel.profiling(), (RunProfiling{false, true, false}));
  panel.set_profiling({false, false, true});
  EXPECT_EQ(panel.profiling(), (RunProfiling{false, false, true}));

  FakeWorker fake;
  RunWorker worker;
  worker.use_discovery(fake_gpu());
  QSignalSpy finished(&worker, &RunWorker::run_finished);
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  worker.run(1, test::tiny_spec(), 0, cancel, {}, {}, std::nullopt,
             RunProfiling{false, false, true});
  ASSERT_EQ(finished.count(), 1);
  // Each point timed by a worker of its own (--line-counts), each launch step counted by a
  // further one (--count-point); none profiles otherwise.
  const QStringList argv = fake.take();
  int timed = 0, counted = 0;
  for (const QString& a : argv) {
    timed += a.contains("--line-counts");
    counted += a.contains("--count-point");
    EXPECT_FALSE(a.contains("--counters") || a.contains("--line-samples")) << a.toStdString();
  }
  EXPECT_EQ(timed, int(rl::expand(test::tiny_spec()).size()));
  EXPECT_GE(counted, timed);
  EXPECT_EQ(timed + counted, argv.size());
}

// The whole way: the form's tick, Run, the controller, the worker thread, the supervisor.
TEST(AppProfiling, RunFromTheFormWithCounters) {
  FakeWorker fake;
  MainWindow w(test::quiet_options());
  w.controller()->use_discovery(fake_gpu());
  ASSERT_TRUE(test::wait_until(
      [&] {
        w.experiment()->set_device(0);  // once the discovery has listed it
        return w.experiment()->device_info() != nullptr;
      },
      10000));
  w.experiment()->set_spec(test::tiny_spec());
  w.experiment()->set_device(0);
  w.experiment()->counters_box()->click();
  ASSERT_EQ(w.experiment()->profiling(), (RunProfiling{true, false}));
  w.run();
  ASSERT_TRUE(w.controller()->running()) << w.experiment()->problems().join("; ").toStdString();
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 60000));
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  const QStringList argv = fake.take();
  ASSERT_EQ(argv.size(), 1);
  EXPECT_TRUE(argv[0].contains("--counters " + default_ids())) << argv[0].toStdString();
}

TEST(AppProfiling, SettingsRememberTheTicks) {
  MainWindow::Options options = test::quiet_options();
  options.settings = true;  // test mode: QStandardPaths points at a scratch location
  {
    MainWindow w(options);
    w.experiment()->set_profiling({false, true});
    w.close();
  }
  {
    MainWindow w(options);
    EXPECT_FALSE(w.experiment()->counters_box()->isChecked());
    EXPECT_TRUE(w.experiment()->line_samples_box()->isChecked());
    w.experiment()->set_profiling({});
    w.close();
  }
  {
    MainWindow w(options);
    EXPECT_FALSE(w.experiment()->line_samples_box()->isChecked());
    w.experiment()->set_profiling({false, false, true});
    w.close();
  }
  MainWindow w(options);
  EXPECT_TRUE(w.experiment()->line_counts_box()->isChecked());
  EXPECT_FALSE(w.experiment()->line_samples_box()->isChecked());
  w.experiment()->set_profiling({});
  w.close();
}
