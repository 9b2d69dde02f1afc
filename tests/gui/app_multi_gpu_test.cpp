// The app and multi-GPU sessions: the charts built from a session, the "Several GPUs"
// tab opening a file written by run --devices, and the device page's links and NCCL line. The
// session is the tests' own made-up one (tests/engine/multi_fixtures.h), never shipped as data.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QTabWidget>
#include <QTemporaryDir>

#include "app_test_support.h"
#include "charts/chart_multi.h"
#include "charts/chart_widget.h"
#include "device_panel.h"
#include "engine/io/export.h"
#include "engine/multi/multi_run.h"
#include "engine/multi_fixtures.h"
#include "main_window.h"
#include "multi_gpu_view.h"

using namespace rl::gui;

namespace {

QString write_session(const QTemporaryDir& dir, const rl::MultiSession& s) {
  const QString path = dir.filePath("multi.json");
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray::fromStdString(rl::multi_session_to_json(s)));
  return path;
}

const charts::Series* series_named(const charts::Chart& c, const QString& prefix) {
  for (const charts::Series& s : c.series)
    if (s.name.startsWith(prefix)) return &s;
  return nullptr;
}

TEST(AppMultiGpu, PhasesStackLocalAndExchangePerExchangeAndGpuCount) {
  const rl::MultiSession s = rl::testing::make_multi_session();
  const charts::Chart c = build_multi_chart("multi_phases", s);  // the largest size
  EXPECT_TRUE(c.stacked);
  ASSERT_EQ(c.series.size(), 2);
  // 2^22: four exchanges over one GPU and over two, the last SKIPPED: 7 bars, one warning.
  EXPECT_EQ(c.x.categories.size(), 7);
  EXPECT_TRUE(c.x.categories.contains("nccl_allreduce G=2"));
  EXPECT_EQ(c.warnings.size(), 1);
  EXPECT_TRUE(c.warnings.front().contains("SKIPPED")) << c.warnings.front().toStdString();
  EXPECT_TRUE(c.series[0].points[0].tooltip.contains("cuda:0"));
  EXPECT_TRUE(c.subtitle.contains("2^22"));
}

TEST(AppMultiGpu, ScalingAndBandwidthAgainstTheGpuCountWithTheRoofs) {
  const rl::MultiSession s = rl::testing::make_multi_session();
  const charts::Chart time = build_multi_chart("multi_scaling", s, 1 << 20, rl::DType::Int32);
  ASSERT_NE(series_named(time, "gather_shards"), nullptr);
  EXPECT_EQ(series_named(time, "gather_shards")->points.size(), 2);  // G = 1 and 2
  const charts::Chart bw = build_multi_chart("multi_bandwidth", s);
  const charts::Series* roof = series_named(bw, "sum of the GPUs' read floors");
  ASSERT_NE(roof, nullptr);
  EXPECT_EQ(roof->points.size(), 2);
  const charts::Series* link = series_named(bw, "slowest link");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->kind, charts::SeriesKind::Roof);
  EXPECT_DOUBLE_EQ(link->points[0].y, 99.5);
}

TEST(AppMultiGpu, OpeningAMultiGpuSessionShowsItsTab) {
  QTemporaryDir dir;
  const QString path = write_session(dir, rl::testing::make_multi_session());
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(path)) << w.last_error().toStdString();
  EXPECT_TRUE(w.tabs()->currentWidget()->isAncestorOf(w.multi_gpu_view()));
  EXPECT_EQ(w.tabs()->tabText(w.tabs()->currentIndex()), "Several GPUs");
  ASSERT_TRUE(w.multi_gpu_view()->has_session());
  EXPECT_TRUE(w.multi_gpu_view()->summary_text().contains("NCCL 2.0.0 (test)"));
  EXPECT_TRUE(w.multi_gpu_view()->summary_text().contains("cuda:0 &lt;-&gt; cuda:1: NVLink 4 x18"));
  for (const ChartKind& k : multi_chart_kinds()) {
    charts::ChartWidget* chart = w.multi_gpu_view()->chart(k.id);
    ASSERT_NE(chart, nullptr);
    EXPECT_FALSE(chart->chart().empty()) << k.id.toStdString();
  }
}

TEST(AppMultiGpu, AMultiGpuSessionCannotOverlayAOneGpuOne) {
  QTemporaryDir dir;
  const QString path = write_session(dir, rl::testing::make_multi_session());
  MainWindow w(test::quiet_options());
  EXPECT_FALSE(w.open_session(path, true));
  EXPECT_TRUE(w.last_error().contains("multi-GPU session")) << w.last_error().toStdString();
}

TEST(AppMultiGpu, ABrokenMultiGpuSessionSaysWhichField) {
  QTemporaryDir dir;
  std::string json = rl::multi_session_to_json(rl::testing::make_multi_session(), -1);
  json.replace(json.find("\"gpu_count\":1"), 13, "\"gpu_count\":0");
  const QString path = dir.filePath("broken.json");
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray::fromStdString(json));
  f.close();
  MainWindow w(test::quiet_options());
  EXPECT_FALSE(w.open_session(path));
  EXPECT_TRUE(w.last_error().contains("points[0].gpu_count")) << w.last_error().toStdString();
}

// RL_GUI_SCREENSHOTS=DIR: the tab with the tests' made-up session, to look at the layout.
TEST(AppMultiGpu, ScreenshotOfTheTab) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  QTemporaryDir tmp;
  MainWindow w(test::quiet_options());
  w.resize(1600, 1400);
  w.show();
  ASSERT_TRUE(w.open_session(write_session(tmp, rl::testing::make_multi_session())));
  QCoreApplication::processEvents();
  EXPECT_TRUE(w.grab().save(dir + "/several_gpus.png"));
  for (const ChartKind& k : multi_chart_kinds()) {
    QString error;
    EXPECT_TRUE(charts::write_chart_png(w.multi_gpu_view()->chart(k.id)->chart(),
                                        dir + "/" + k.id + ".png", QSize(1200, 700), &error))
        << error.toStdString();
  }
}

TEST(AppMultiGpu, TheBandwidthChartDrawsTheNvLinkRoofOrSaysWhyNot) {
  rl::MultiSession s = rl::testing::make_multi_session();
  const charts::Chart bw = build_multi_chart("multi_bandwidth", s);
  const charts::Series* roof = series_named(bw, "NVLink roof: ");
  ASSERT_NE(roof, nullptr);
  EXPECT_EQ(roof->kind, charts::SeriesKind::Roof);
  EXPECT_EQ(roof->name, "NVLink roof: NVLink 4 x18 (450 GB/s per direction, NVML)");
  ASSERT_EQ(roof->points.size(), 1);
  EXPECT_EQ(roof->points[0].y, 450);
  EXPECT_NE(series_named(bw, "sum of the GPUs' read floors"), nullptr);  // beside it
  for (const QString& w : bw.warnings) EXPECT_FALSE(w.contains("NVLink")) << w.toStdString();
  // A session written before NVML was asked (the bundled H200 pair's): no line, the reason.
  for (rl::PeerLink& l : s.links) l = rl::PeerLink{l.from, l.to, true, 0, true, l.measured_gbps};
  const charts::Chart old = build_multi_chart("multi_bandwidth", s);
  EXPECT_EQ(series_named(old, "NVLink roof"), nullptr);
  EXPECT_TRUE(old.warnings.join("\n").contains(
      "no NVLink roof: the session does not say which links join its GPUs"))
      << old.warnings.join("\n").toStdString();
  // Where NVML was missing when it ran: that reason.
  for (rl::PeerLink& l : s.links) l.link_source = "NVML unavailable: libnvidia-ml.so.1: not found";
  EXPECT_TRUE(build_multi_chart("multi_bandwidth", s)
                  .warnings.join("\n")
                  .contains("is unknown: NVML unavailable: libnvidia-ml.so.1"));
}

TEST(AppMultiGpu, TheSeveralGpusSummaryNamesTheLinks) {
  MultiGpuView view;
  view.set_session(rl::testing::make_multi_session(), "multi.json");
  EXPECT_TRUE(view.summary_text().contains(
      "cuda:0 &lt;-&gt; cuda:1: NVLink 4 x18 (450 GB/s per direction, NVML), P2P yes"))
      << view.summary_text().toStdString();
}

// A made-up pair of GPUs as discover_devices_with_links would return them.
rl::Discovery two_gpus(const std::vector<rl::PeerLink>& links) {
  rl::Discovery d;
  for (const rl::DeviceInfo& g : rl::testing::make_multi_session().devices) d.gpus.push_back(g);
  d.host.name = "Test CPU";
  d.links = links;
  return d;
}

TEST(AppMultiGpu, TheDevicePageNamesNvLinkWhereTheDriverSaysAndWhyNotElsewhere) {
  DevicePanel panel;
  std::vector<rl::PeerLink> links = rl::testing::make_multi_session().links;
  for (rl::PeerLink& l : links) l.measured_gbps = 0;  // discovery measures nothing
  panel.set_discovery(two_gpus(links));
  EXPECT_TRUE(panel.text().contains(
      "cuda:0 <-> cuda:1: NVLink 4 x18 (450 GB/s per direction, NVML), P2P yes, performance "
      "rank 0, native atomics"))
      << panel.text().toStdString();
  for (rl::PeerLink& l : links) {
    l = rl::PeerLink{l.from, l.to, true, 0, true, 0};
    l.link_source =
        "NVML unavailable: libnvidia-ml.so.1: cannot open shared object file (NVML ships with "
        "the NVIDIA driver)";
  }
  panel.set_discovery(two_gpus(links));
  EXPECT_TRUE(panel.text().contains(
      "cuda:0 <-> cuda:1: link kind unknown: NVML unavailable: libnvidia-ml.so.1"))
      << panel.text().toStdString();
  EXPECT_FALSE(panel.text().contains("NVLink 4"));
}

// RL_GUI_SCREENSHOTS=DIR: the device page with a made-up NVLink pair, to look at the layout.
TEST(AppMultiGpu, ScreenshotOfTheDevicePageLinks) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  DevicePanel panel;
  panel.resize(1366, 1500);
  panel.set_discovery(two_gpus(rl::testing::make_multi_session().links));
  panel.show();
  QCoreApplication::processEvents();
  EXPECT_TRUE(panel.grab().save(dir + "/device_links.png"));
}

TEST(AppMultiGpu, TheDevicePageSaysWhichNccl) {
  DevicePanel panel;
  panel.set_discovery(rl::discover_devices_with_links());
  EXPECT_TRUE(panel.text().contains("NCCL")) << panel.text().toStdString();
}

}  // namespace
