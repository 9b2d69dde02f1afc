// The window builds, shows an empty state (never made-up data) without a session, and the
// experiment form refuses bad values with their reasons.
#include <gtest/gtest.h>

#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <set>

#include "app_test_support.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "device_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/experiment/presets.h"
#include "jobs/job.h"
#include "jobs/job_tracker.h"
#include "results_model.h"
#include "session_store.h"

using namespace rl::gui;
using rl::presets;

TEST(AppWindow, BuildsWithEveryPageAndAnEmptyState) {
  MainWindow w(test::quiet_options());
  w.show();
  QStringList titles;
  for (int i = 0; i < w.tabs()->count(); ++i) titles << w.tabs()->tabText(i);
  for (const char* t : {"Ladder", "Unroll", "Block size", "Size", "Results", "Device"})
    EXPECT_TRUE(titles.contains(t)) << t;
  EXPECT_EQ(w.charts()->ids().size(), int(chart_kinds().size()));
  w.charts()->refresh_all();
  for (const QString& id : w.charts()->ids()) {
    const auto* chart = w.charts()->chart(id);
    EXPECT_EQ(chart->drawn_points(), 0) << id.toStdString();
    EXPECT_FALSE(chart->chart().empty_hint.isEmpty()) << id.toStdString();
  }
  EXPECT_EQ(w.results_model()->rowCount(), 0);
  EXPECT_TRUE(w.banner_text().contains("No session yet"));
}

// A run before its first point: the charts say its points are coming, not "press Run".
TEST(AppWindow, ARunBeforeItsFirstPointSaysItsPointsAreComing) {
  rl::Session live;
  live.spec = test::tiny_spec();
  int coming = 0;
  for (const ChartKind& k : chart_kinds()) {
    const charts::Chart c = build_chart(k.id, {{&live, ""}}, "neighbored");
    EXPECT_FALSE(c.empty_hint.contains("No results yet"))
        << k.id.toStdString() << ": " << c.empty_hint.toStdString();
    coming += c.empty_hint.contains("No points in this session yet") ? 1 : 0;
  }
  EXPECT_GT(coming, 3);
  const charts::Chart none = build_chart("ladder_speedup", {}, "neighbored");
  EXPECT_TRUE(none.empty_hint.contains("No results yet")) << none.empty_hint.toStdString();
}

TEST(AppWindow, FormRefusesBadValuesWithReasons) {
  MainWindow w(test::quiet_options());
  ExperimentPanel* form = w.experiment();
  form->set_device(kHostDevice);
  form->set_spec(test::tiny_spec());
  EXPECT_TRUE(form->problems().isEmpty()) << form->problems().join("; ").toStdString();
  EXPECT_TRUE(form->run_button()->isEnabled());

  form->sizes_field()->setText("2^24, abc");
  ASSERT_TRUE(test::wait_until([&] { return !form->problems().isEmpty(); }, 2000));
  EXPECT_TRUE(form->problems().join(" ").contains("abc"))
      << form->problems().join("; ").toStdString();
  EXPECT_FALSE(form->run_button()->isEnabled());

  form->sizes_field()->setText("0");
  ASSERT_TRUE(test::wait_until(
      [&] { return form->problems().join(" ").contains("N must be at least 1"); }, 2000))
      << form->problems().join("; ").toStdString();

  form->sizes_field()->setText("4096");
  form->blocks_field()->setText("100");
  ASSERT_TRUE(
      test::wait_until([&] { return form->problems().join(" ").contains("block size 100"); }, 2000))
      << form->problems().join("; ").toStdString();
  EXPECT_FALSE(form->run_button()->isEnabled());

  form->blocks_field()->setText("256");
  form->unroll_field()->setText("3");
  ASSERT_TRUE(
      test::wait_until([&] { return form->problems().join(" ").contains("unroll 3"); }, 2000))
      << form->problems().join("; ").toStdString();

  form->unroll_field()->setText("x2");
  ASSERT_TRUE(test::wait_until([&] { return form->problems().join(" ").contains("'x2'"); }, 2000));

  form->unroll_field()->clear();
  ASSERT_TRUE(test::wait_until([&] { return form->problems().isEmpty(); }, 2000))
      << form->problems().join("; ").toStdString();
  EXPECT_TRUE(form->run_button()->isEnabled());

  // Run refuses a bad form without starting anything.
  form->sizes_field()->setText("-5");
  ASSERT_TRUE(test::wait_until([&] { return !form->problems().isEmpty(); }, 2000));
  w.run();
  EXPECT_FALSE(w.controller()->running());
}

TEST(AppWindow, PresetsAreValidForTheHost) {
  MainWindow w(test::quiet_options());
  w.experiment()->set_device(kHostDevice);
  for (int i = 0; i < int(presets().size()); ++i) {
    w.experiment()->apply_preset(i);
    EXPECT_TRUE(w.experiment()->problems().isEmpty())
        << presets()[size_t(i)].name << ": " << w.experiment()->problems().join("; ").toStdString();
    const auto spec = w.experiment()->spec();
    ASSERT_TRUE(spec.has_value());
    // The form may name a variant by its id where the preset used the classic name.
    auto resolved = [](const std::vector<std::string>& names) {
      std::set<std::pair<std::string, int>> out;
      for (const auto& n : names) {
        const auto ref = rl::resolve_variant(n);
        out.insert({ref ? ref->variant->id : n, ref ? ref->unroll.value_or(0) : -1});
      }
      return out;
    };
    EXPECT_EQ(resolved(spec->variants), resolved(presets()[size_t(i)].spec.variants));
    EXPECT_EQ(spec->sizes, presets()[size_t(i)].spec.sizes);
    EXPECT_EQ(spec->block_sizes, presets()[size_t(i)].spec.block_sizes);
    EXPECT_EQ(spec->unroll_factors, presets()[size_t(i)].spec.unroll_factors);
  }
}

TEST(AppWindow, DevicePanelWithoutGpuSaysWhyAndWhatWorks) {
  MainWindow w(test::quiet_options());
  rl::Discovery d;
  d.host.name = "Test CPU";
  d.no_gpu_reason = "cudaGetDeviceCount: no CUDA-capable device is detected (cudaErrorNoDevice)";
  w.device_panel()->set_discovery(d);
  const QString text = w.device_panel()->text();
  EXPECT_TRUE(text.contains("cudaErrorNoDevice"));
  EXPECT_TRUE(text.contains("host backend"));
  EXPECT_TRUE(text.contains("Inside a block"));
  EXPECT_TRUE(text.contains("Test CPU"));
}

TEST(AppWindow, SettingsRememberTheLastSpec) {
  MainWindow::Options options = test::quiet_options();
  options.settings = true;  // test mode: QStandardPaths points at a scratch location
  rl::ExperimentSpec spec = test::tiny_spec();
  spec.sizes = {12345, std::uint64_t(1) << 20};
  spec.block_sizes = {128, 512};
  {
    MainWindow w(options);
    w.experiment()->set_spec(spec);
    w.close();
  }
  MainWindow w(options);
  const auto restored = w.experiment()->spec();
  ASSERT_TRUE(restored.has_value());
  EXPECT_EQ(restored->sizes, spec.sizes);
  EXPECT_EQ(restored->block_sizes, spec.block_sizes);
  EXPECT_EQ(restored->variants, spec.variants);
}

TEST(AppWindow, KeyboardShortcutsRunAndCancel) {
  MainWindow w(test::quiet_options());
  w.show();
  QApplication::setActiveWindow(&w);
  w.experiment()->set_device(kHostDevice);
  rl::ExperimentSpec spec = test::tiny_spec();
  spec.sizes = {1u << 18, 1u << 20};
  spec.timing.budget_ms = 200;
  spec.timing.noise = 1e-6;
  w.experiment()->set_spec(spec);
  QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
  ASSERT_TRUE(w.controller()->running()) << "Ctrl+R did not start a run";
  QTest::keyClick(&w, Qt::Key_Escape);
  EXPECT_TRUE(w.controller()->cancelling()) << "Esc did not cancel";
  ASSERT_TRUE(test::wait_until([&] { return !w.controller()->running(); }, 60000));
  EXPECT_TRUE(w.store()->primary().cancelled);
}

TEST(AppWindow, StartsWithTheBundledSessionOrAnHonestEmptyState) {
  MainWindow::Options options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  w.wait_for_bundled_session();
  w.charts()->refresh_all();
  if (QFile::exists(":/sessions/h200-ladder.json")) {
    ASSERT_TRUE(w.store()->has_primary()) << w.last_error().toStdString();
    EXPECT_EQ(w.store()->primary().device.backend, "cuda");
    EXPECT_TRUE(w.banner_text().contains("Bundled session"));
    EXPECT_GT(w.charts()->chart("ladder_speedup")->drawn_points(), 0);
  } else {
    // Not bundled in this build: nothing is drawn, and the window says what to do.
    EXPECT_FALSE(w.store()->has_primary());
    EXPECT_TRUE(w.banner_text().contains("No session yet"));
    for (const QString& id : w.charts()->ids()) EXPECT_EQ(w.charts()->chart(id)->drawn_points(), 0);
  }
}

// The bundled session is read as a job: the window is up before it is read, and a run started
// meanwhile keeps the window (the bundled session does not replace it when it comes).
TEST(AppWindow, TheBundledSessionIsReadAsAJobAndNeverReplacesARun) {
  if (!QFile::exists(":/sessions/h200-ladder.json")) GTEST_SKIP() << "no bundled session here";
  MainWindow::Options options = test::quiet_options();
  options.open_bundled = true;
  MainWindow w(options);
  ASSERT_EQ(w.jobs()->running().size(), 1);
  EXPECT_EQ(w.jobs()->running().front()->title(), "Opening the bundled session");
  EXPECT_FALSE(w.store()->has_primary());
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  EXPECT_FALSE(w.wait_for_bundled_session());
  EXPECT_EQ(w.store()->primary_source(), "live run");
}

// Every variant ticked is the engine's `all`: on the host with float32 only, the GPU-only and
// int32-only variants are left out (named, with why) instead of making the form unrunnable.
TEST(AppWindow, EveryVariantTickedMeansEveryOneThatApplies) {
  MainWindow w(test::quiet_options());
  ExperimentPanel* form = w.experiment();
  form->set_device(kHostDevice);
  rl::ExperimentSpec s = test::tiny_spec();
  s.types = {rl::DType::Float32};
  form->set_spec(s);
  auto* tree = form->findChild<QTreeWidget*>();
  ASSERT_NE(tree, nullptr);
  for (int g = 0; g < tree->topLevelItemCount(); ++g)
    for (int i = 0; i < tree->topLevelItem(g)->childCount(); ++i)
      tree->topLevelItem(g)->child(i)->setCheckState(0, Qt::Checked);
  ASSERT_TRUE(test::wait_until([&] { return form->problems().isEmpty(); }, 2000))
      << form->problems().join("; ").toStdString();
  const std::vector<rl::Exclusion> left_out = form->left_out_by_all();
  auto excluded = [&](const std::string& id) {
    return std::any_of(left_out.begin(), left_out.end(),
                       [&](const rl::Exclusion& e) { return e.variant == id; });
  };
  EXPECT_TRUE(excluded("reduce_add_sync"));  // int32 only
  EXPECT_TRUE(excluded("single_pass"));      // no host model
  EXPECT_FALSE(excluded("interleaved"));
  const auto spec = form->spec();
  ASSERT_TRUE(spec.has_value());
  for (const std::string& name : spec->variants) {
    const auto ref = rl::resolve_variant(name);
    ASSERT_TRUE(ref.has_value()) << name;
    EXPECT_FALSE(excluded(ref->variant->id)) << name;
  }
  EXPECT_TRUE(form->run_button()->isEnabled());
}
