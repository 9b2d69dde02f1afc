// The Several GPUs tab runs a reduction across GPUs itself: the form's fields in the
// CLI's grammar, each problem said naming its field, Run through the app's one GPU worker into a
// worker process (the fake worker here: multi_fixtures.h's made-up points over two GPUs), the
// points shown as they come, and Save session writing what File > Open reads back. Offscreen.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>

#include "app_test_support.h"
#include "engine/process/supervisor.h"
#include "main_window.h"
#include "multi_gpu_run_form.h"
#include "multi_gpu_view.h"
#include "run_worker.h"
#include "session_files.h"

namespace rl::gui {
namespace {

rl::Discovery two_gpus() {
  rl::Discovery d;
  d.host.name = "Test CPU";
  for (int i = 0; i < 2; ++i) {
    rl::DeviceInfo gpu;
    gpu.backend = "cuda";
    gpu.index = i;
    gpu.name = "NVIDIA H200";
    gpu.cc_major = 9;
    gpu.sm_count = 132;
    gpu.total_memory = gpu.free_memory = std::size_t(140) << 30;
    gpu.l2_bytes = std::size_t(50) << 20;
    d.gpus.push_back(gpu);
  }
  return d;
}

// The app with the fake worker standing in for reductionlab-worker, two GPUs discovered.
class AppMultiRun : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("REDUCTIONLAB_WORKER", test::fake_worker_path().constData(), 1);
    setenv("RL_FAKE_MULTI", "1", 1);
    w_ = std::make_unique<MainWindow>(test::quiet_options());
    form_ = w_->multi_gpu_view()->run_form();
  }
  void TearDown() override {
    w_.reset();
    unsetenv("REDUCTIONLAB_WORKER");
    unsetenv("RL_FAKE_MULTI");
  }
  void discover(const rl::Discovery& d) {
    w_->controller()->use_discovery(d);
    ASSERT_TRUE(test::wait_until(
        [&] { return form_->run_button()->isEnabled() == !d.gpus.empty(); }, 10000));
  }
  std::unique_ptr<MainWindow> w_;
  MultiRunForm* form_ = nullptr;
};

TEST_F(AppMultiRun, RunsFromTheTabAndSavesTheSession) {
  discover(two_gpus());
  form_->sizes_field()->setText("2^20,2^22");  // the fixture's points
  form_->run_button()->click();
  ASSERT_TRUE(w_->controller()->multi_running()) << form_->status().toStdString();
  EXPECT_FALSE(form_->run_button()->isEnabled());
  EXPECT_TRUE(form_->cancel_button()->isEnabled());
  ASSERT_TRUE(test::wait_until([&] { return !w_->controller()->multi_running(); }, 20000));
  MultiGpuView* view = w_->multi_gpu_view();
  ASSERT_TRUE(view->has_session());
  EXPECT_EQ(view->session().points.size(), 16u);
  EXPECT_TRUE(form_->status().contains("16 points")) << form_->status().toStdString();
  EXPECT_TRUE(view->summary_text().contains("This run"));
  EXPECT_TRUE(form_->run_button()->isEnabled());
  // With RL_GUI_SCREENSHOTS=DIR: the tab after the run, at a laptop's and a desktop's size.
  if (const QString shots = qEnvironmentVariable("RL_GUI_SCREENSHOTS"); !shots.isEmpty()) {
    w_->tabs()->setCurrentWidget(view);
    w_->show();
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
      w_->resize(size);
      QCoreApplication::processEvents();
      EXPECT_TRUE(w_->grab().save(
          QString("%1/multi-run-%2x%3.png").arg(shots).arg(size.width()).arg(size.height())));
    }
  }
  ASSERT_TRUE(form_->save_button()->isEnabled());
  QTemporaryDir dir;
  const QString path = dir.filePath("multi.json");
  ASSERT_TRUE(w_->save_multi_session(path));
  QString error;
  const std::optional<MultiSession> back = read_multi_session_file(path, &error);
  ASSERT_TRUE(back.has_value()) << error.toStdString();
  EXPECT_EQ(back->points.size(), 16u);
}

TEST_F(AppMultiRun, EachFieldSaysWhatIsWrongAndNothingRuns) {
  discover(two_gpus());
  form_->gpus_field()->setText("cuda:7");
  form_->sizes_field()->setText("2^x");
  form_->exchanges_field()->setText("nccl_allreduce,carrier_pigeon");
  form_->variant_field()->setText("fastest");
  form_->run_button()->click();
  EXPECT_FALSE(w_->controller()->multi_running());
  const QString status = form_->status();
  for (const char* field : {"GPUs: ", "Sizes N: ", "Exchanges: ", "Local kernel: "})
    EXPECT_TRUE(status.contains(field)) << field << " in " << status.toStdString();
  EXPECT_TRUE(status.contains("cuda:7")) << status.toStdString();
  EXPECT_TRUE(status.contains("carrier_pigeon")) << status.toStdString();
  // A spec the grammar takes but the GPUs cannot: validate's words.
  form_->gpus_field()->setText("all");
  form_->sizes_field()->setText("1");
  form_->exchanges_field()->setText("all");
  form_->variant_field()->setText("single_pass");
  QStringList problems;
  EXPECT_FALSE(form_->spec(&problems).has_value());
  EXPECT_FALSE(problems.isEmpty());
}

TEST_F(AppMultiRun, WithoutAGpuRunIsOffAndSaysWhy) {
  rl::Discovery none;
  none.host.name = "Test CPU";
  none.no_gpu_reason = "no NVIDIA driver (test)";
  w_->controller()->use_discovery(none);
  ASSERT_TRUE(test::wait_until([&] { return form_->status().contains("(test)"); }, 10000));
  EXPECT_FALSE(form_->run_button()->isEnabled());
  EXPECT_TRUE(form_->status().contains("no NVIDIA driver (test)")) << form_->status().toStdString();
  EXPECT_TRUE(form_->run_button()->toolTip().contains("no NVIDIA driver (test)"));
}

// On a GPU machine: the tab's form over every GPU there, through the real worker (beside this
// binary, as the GPU machine's unpacked folder has it), every point verified.
TEST(AppMultiRunGpu, RunsAcrossTheGpusHereThroughTheWorker) {
  const rl::Discovery found = rl::discover_devices();
  if (found.gpus.empty()) GTEST_SKIP() << "no GPU: " << found.no_gpu_reason;
  if (rl::find_worker().empty()) GTEST_SKIP() << "no reductionlab-worker beside this binary";
  MainWindow w(test::quiet_options());
  w.controller()->use_discovery(found);
  MultiRunForm* form = w.multi_gpu_view()->run_form();
  ASSERT_TRUE(test::wait_until([&] { return form->run_button()->isEnabled(); }, 30000));
  form->sizes_field()->setText("2^24");
  form->run_button()->click();
  ASSERT_TRUE(w.controller()->multi_running()) << form->status().toStdString();
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->multi_running(); }, 240000));
  ASSERT_TRUE(w.multi_gpu_view()->has_session()) << form->status().toStdString();
  const MultiSession& s = w.multi_gpu_view()->session();
  EXPECT_EQ(s.points.size(), expand(s.spec).size());
  for (const MultiPoint& p : s.points)
    EXPECT_EQ(p.status, PointStatus::Ok) << p.point.label() << ": " << p.message;
  std::printf("  %s\n", form->status().toStdString().c_str());
}

}  // namespace
}  // namespace rl::gui
