// Runs through a launcher on the host backend, so no GPU and no ssh is needed:
// `env` as the launcher reaches this build's reductionlab-cli as ssh would reach a server's, and
// small wrapper scripts stand in for a slow link, a dropped connection, a line of garbage, a
// newer stream, an older or missing CLI. Points arrive one by one, cancel and a dropped
// connection keep them, every failure names the machine and what happened, and one experiment
// on two devices at once gives two sessions drawn side by side.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app_test_support.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "device_panel.h"
#include "local_run.h"
#include "remote/remote_devices.h"
#include "remote/remote_run.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

RemoteHost env_host(const QString& name = "lab") {
  return RemoteHost{name, "env", test::cli_path()};
}

// A launcher script in dir: `script reductionlab-cli run ...` runs `body` with "$@" the CLI
// and its arguments.
QString script(const QTemporaryDir& dir, const QString& name, const QString& body) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(("#!/bin/sh\n" + body + "\n").toUtf8());
  f.close();
  f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

// A RemoteRun of tiny_spec on the far side's host backend, waited for.
struct Outcome {
  bool finished = false, failed = false;
  rl::Session session;
  QString problem;  // finished's problem, or failed's message
  int points_seen = 0;
};

Outcome run_remote(const RemoteHost& host, const rl::ExperimentSpec& spec = test::tiny_spec()) {
  Outcome out;
  RemoteRun run(host);
  QObject::connect(&run, &RemoteRun::point_finished, [&] { ++out.points_seen; });
  QObject::connect(&run, &RemoteRun::finished, [&](const rl::Session& s, const QString& p) {
    out.finished = true;
    out.session = s;
    out.problem = p;
  });
  QObject::connect(&run, &RemoteRun::failed, [&](const QString& m) {
    out.failed = true;
    out.problem = m;
  });
  run.start(spec, kHostDevice);
  test::wait_until([&] { return out.finished || out.failed; }, 60000);
  return out;
}

}  // namespace

TEST(AppRemote, PointsArriveOneByOneThroughALauncher) {
  const Outcome o = run_remote(env_host());
  ASSERT_TRUE(o.finished) << o.problem.toStdString();
  EXPECT_TRUE(o.problem.isEmpty()) << o.problem.toStdString();
  EXPECT_EQ(o.points_seen, 4);
  ASSERT_EQ(o.session.results.size(), 4u);
  EXPECT_FALSE(o.session.cancelled);
  EXPECT_EQ(o.session.device.backend, "host");
  for (const rl::PointResult& r : o.session.results) EXPECT_TRUE(r.speedup.has_value());
}

TEST(AppRemote, AnEmptyLauncherRunsTheCliOfThisMachine) {
  const Outcome o = run_remote({"this machine", "", test::cli_path()});
  ASSERT_TRUE(o.finished) << o.problem.toStdString();
  EXPECT_EQ(o.session.results.size(), 4u);
}

// A further device of this machine in a run on several: a job queue of its own (the engine's
// RunTarget), not the CLI; the same signals as a remote run's, a cancel keeping its points.
TEST(AppRemote, AFurtherDeviceHereRunsInAQueueOfItsOwn) {
  LocalRun run;
  int points = 0;
  std::optional<rl::Session> done;
  QString problem = "none yet";
  QObject::connect(&run, &LocalRun::point_finished, [&] { ++points; });
  QObject::connect(&run, &LocalRun::finished, [&](const rl::Session& s, const QString& p) {
    done = s;
    problem = p;
  });
  run.start(test::tiny_spec(), kHostDevice);
  ASSERT_TRUE(test::wait_until([&] { return done.has_value(); }, 60000));
  EXPECT_TRUE(problem.isEmpty());
  EXPECT_EQ(points, 4);
  EXPECT_EQ(done->results.size(), 4u);
  EXPECT_EQ(done->device.backend, "host");
  EXPECT_FALSE(done->cancelled);

  rl::ExperimentSpec big = test::tiny_spec();
  big.sizes = {1 << 22, 1 << 23, 1 << 24};
  done.reset();
  run.start(big, kHostDevice);
  run.cancel();
  ASSERT_TRUE(test::wait_until([&] { return done.has_value(); }, 60000));
  EXPECT_TRUE(done->cancelled);
  EXPECT_LT(done->results.size(), rl::expand(big).size());
}

TEST(AppRemote, OverASlowLinkEachPointArrivesWhileTheRunGoesOn) {
  QTemporaryDir dir;
  // Every line 0.2 s late, as over a slow link: the points must reach the app one by one.
  const QString slow = script(
      dir, "slow.sh", "\"$@\" | while IFS= read -r l; do printf '%s\\n' \"$l\"; sleep 0.2; done");
  RemoteRun run({"gpu-box", slow, test::cli_path()});
  QElapsedTimer clock;
  std::vector<qint64> arrivals;
  qint64 ended = -1;
  QObject::connect(&run, &RemoteRun::point_finished, [&] { arrivals.push_back(clock.elapsed()); });
  QObject::connect(&run, &RemoteRun::finished, [&] { ended = clock.elapsed(); });
  QObject::connect(&run, &RemoteRun::failed, [&](const QString& m) {
    ADD_FAILURE() << m.toStdString();
    ended = clock.elapsed();
  });
  clock.start();
  run.start(test::tiny_spec(), kHostDevice);
  ASSERT_TRUE(test::wait_until([&] { return ended >= 0; }, 60000));
  ASSERT_EQ(arrivals.size(), 4u);
  for (std::size_t i = 1; i < arrivals.size(); ++i)
    EXPECT_GE(arrivals[i] - arrivals[i - 1], 300) << "a progress line and a point, 0.2 s each";
  EXPECT_GE(ended - arrivals.front(), 900) << "the first point came long before the end";
}

TEST(AppRemote, AMachineThatDoesNotAnswerIsNamed) {
  QTemporaryDir dir;
  const QString silent = script(dir, "silent.sh", "exec sleep 30");
  RemoteDeviceList list({"gpu-box", silent, test::cli_path()});
  QString message;
  QObject::connect(&list, &RemoteDeviceList::failed,
                   [&](const QString&, const QString& m) { message = m; });
  list.start(300);
  ASSERT_TRUE(test::wait_until([&] { return !message.isEmpty(); }, 10000));
  EXPECT_TRUE(message.startsWith("gpu-box: no answer within 0.3 s from '" + silent + "'"))
      << message.toStdString();
}

TEST(AppRemote, ADroppedConnectionKeepsTheFinishedPointsAndSaysSo) {
  QTemporaryDir dir;
  // start, progress, the first point, then the link goes: ssh's exit code 255.
  const QString drop = script(dir, "drop.sh", "\"$@\" | head -n 3\nexit 255");
  const Outcome o = run_remote({"gpu-box", drop, test::cli_path()});
  ASSERT_TRUE(o.finished) << o.problem.toStdString();
  ASSERT_EQ(o.session.results.size(), 1u);
  EXPECT_TRUE(o.session.cancelled) << "not every point ran";
  EXPECT_TRUE(o.problem.contains("gpu-box: the connection was lost after 1 of 4 point(s)"))
      << o.problem.toStdString();
  EXPECT_TRUE(o.problem.contains("exited with code 255")) << o.problem.toStdString();
  EXPECT_TRUE(o.problem.contains("finished point(s) are kept")) << o.problem.toStdString();
}

TEST(AppRemote, AMalformedLineStopsTheRunAndKeepsWhatArrived) {
  QTemporaryDir dir;
  const QString garbage =
      script(dir, "garbage.sh",
             "\"$@\" | { IFS= read -r l; printf '%s\\n' \"$l\"; echo 'Segmentation fault'; cat; }");
  const Outcome o = run_remote({"gpu-box", garbage, test::cli_path()});
  ASSERT_TRUE(o.finished) << o.problem.toStdString();
  EXPECT_TRUE(o.session.results.empty());
  EXPECT_TRUE(o.problem.contains("gpu-box: line 2 is not part of the stream"))
      << o.problem.toStdString();
  EXPECT_TRUE(o.problem.contains("Segmentation fault")) << o.problem.toStdString();
}

TEST(AppRemote, ANewerStreamVersionIsRefusedByName) {
  QTemporaryDir dir;
  const QString newer =
      script(dir, "newer.sh",
             "\"$@\" | sed 's/\"schema_version\":\"1\\.[0-9]*\"/\"schema_version\":\"2.0\"/'");
  const Outcome o = run_remote({"gpu-box", newer, test::cli_path()});
  ASSERT_TRUE(o.failed) << o.problem.toStdString();
  EXPECT_TRUE(o.problem.contains("schema version 2.0, newer than this build reads (1.x)"))
      << o.problem.toStdString();
}

TEST(AppRemote, AMissingOrOlderCliOrLauncherIsNamed) {
  const Outcome missing = run_remote({"gpu-box", "env", "/nonexistent/reductionlab-cli"});
  ASSERT_TRUE(missing.failed);
  EXPECT_TRUE(missing.problem.contains(
      "gpu-box: reductionlab-cli was not found there at '/nonexistent/reductionlab-cli'"))
      << missing.problem.toStdString();

  QTemporaryDir dir;
  // What an older reductionlab-cli says to a flag it does not know (CLI11's words).
  const QString old_cli = script(
      dir, "old-cli",
      "echo 'reductionlab-cli: The following argument was not expected: --stream (see --help)' "
      ">&2\nexit 2");
  const Outcome older = run_remote({"gpu-box", "env", old_cli});
  ASSERT_TRUE(older.failed);
  EXPECT_TRUE(older.problem.contains("is older than this app: it does not know `run --stream"))
      << older.problem.toStdString();

  const Outcome no_launcher = run_remote({"gpu-box", "no-such-launcher-rl18", test::cli_path()});
  ASSERT_TRUE(no_launcher.failed);
  EXPECT_TRUE(no_launcher.problem.contains(
      "gpu-box: the launcher 'no-such-launcher-rl18' could not be started"))
      << no_launcher.problem.toStdString();

  const Outcome quote = run_remote({"gpu-box", "ssh \"gpu-box", test::cli_path()});
  ASSERT_TRUE(quote.failed);
  EXPECT_TRUE(quote.problem.contains("unclosed quote")) << quote.problem.toStdString();
}

TEST(AppRemote, TheAppListsAMachinesDevicesAndRunsThereLive) {
  MainWindow w(test::quiet_options());
  QSignalSpy listed(&w, &MainWindow::remote_devices_changed);
  w.add_remote_host(env_host());
  ASSERT_TRUE(test::wait_until([&] { return listed.count() > 0; }, 30000));
  EXPECT_TRUE(w.remote_status("lab").startsWith("lab: no GPU") ||
              w.remote_status("lab").contains(QRegularExpression("^lab: [0-9]+ GPU")))
      << w.remote_status("lab").toStdString();
  EXPECT_TRUE(w.device_panel()->text().contains("lab (through env)"))
      << w.device_panel()->text().toStdString();
  const DeviceTarget there{"lab", kHostDevice};
  EXPECT_EQ(w.experiment()->target_label(there), "lab · CPU: host emulation");
  w.experiment()->set_spec(test::tiny_spec());
  w.experiment()->set_target(there);
  ASSERT_EQ(w.experiment()->target(), there);
  QSignalSpy appended(w.store(), &SessionStore::appended);
  w.run();
  ASSERT_TRUE(w.running());
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 60000));
  EXPECT_EQ(appended.count(), 4) << "point by point, into the same charts";
  EXPECT_EQ(w.store()->primary().results.size(), 4u);
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
}

TEST(AppRemote, CancelStopsTheRemoteRunAndKeepsItsPoints) {
  MainWindow w(test::quiet_options());
  QSignalSpy listed(&w, &MainWindow::remote_devices_changed);
  w.add_remote_host(env_host());
  ASSERT_TRUE(test::wait_until([&] { return listed.count() > 0; }, 30000));
  rl::ExperimentSpec slow = test::tiny_spec();
  slow.variants = {"neighbored", "neighbored_less", "interleaved", "reduceUnroll8"};
  slow.sizes = {1u << 16, 1u << 18, 1u << 20};
  slow.timing.budget_ms = 60;
  slow.timing.noise = 1e-6;
  w.experiment()->set_spec(slow);
  w.experiment()->set_target({"lab", kHostDevice});
  w.run();
  ASSERT_TRUE(test::wait_until([&] { return w.store()->primary().results.size() >= 1; }, 60000));
  w.cancel();
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 30000));
  const rl::Session& s = w.store()->primary();
  EXPECT_TRUE(s.cancelled);
  EXPECT_GE(s.results.size(), 1u);
  EXPECT_LT(s.results.size(), rl::expand(slow).size());
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
}

TEST(AppRemote, TwoDevicesAtOnceGiveTwoSessionsSideBySide) {
  MainWindow w(test::quiet_options());
  QSignalSpy listed(&w, &MainWindow::remote_devices_changed);
  w.add_remote_host(env_host("gpu-box"));
  ASSERT_TRUE(test::wait_until([&] { return listed.count() > 0; }, 30000));
  w.experiment()->set_spec(test::tiny_spec());
  w.experiment()->set_target({QString(), kHostDevice});
  w.experiment()->set_also({{"gpu-box", kHostDevice}});
  ASSERT_EQ(w.experiment()->also_targets().size(), 1);
  w.run();
  ASSERT_TRUE(test::wait_until([&] { return !w.running(); }, 60000));
  EXPECT_TRUE(w.last_error().isEmpty()) << w.last_error().toStdString();
  ASSERT_EQ(w.store()->overlays().size(), 1u);
  EXPECT_EQ(w.store()->primary().results.size(), 4u);
  EXPECT_EQ(w.store()->overlays()[0].results.size(), 4u);
  ASSERT_EQ(w.store()->shown().size(), 2u);
  EXPECT_EQ(w.store()->shown()[0].label.toStdString(), "CPU (host emulation)")
      << "this machine's, unnamed";
  EXPECT_EQ(w.store()->shown()[1].label.toStdString(), "gpu-box CPU (host emulation)")
      << "the machine named in the legend";
  EXPECT_TRUE(w.banner_text().contains("Also on: <b>gpu-box</b>")) << w.banner_text().toStdString();
  w.charts()->refresh_all();
  // Two rungs at N = 4096, once per device.
  EXPECT_EQ(w.charts()->chart("ladder_speedup")->drawn_points(), 4);
  // Both kept, for `reductionlab-cli compare`.
  QTemporaryDir out;
  QStringList written;
  ASSERT_TRUE(w.save_all_sessions(out.filePath("run.json"), &written))
      << w.last_error().toStdString();
  EXPECT_EQ(written, (QStringList{out.filePath("run.json"),
                                  out.filePath("run-gpu-box-CPU-host-emulation.json")}));
  // RL_GUI_SCREENSHOTS=DIR: the window with both sessions side by side (host backend twice).
  if (const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS"); !dir.isEmpty()) {
    QDir().mkpath(dir);
    w.resize(1366, 768);
    w.show();
    w.tabs()->setCurrentIndex(0);
    w.charts()->refresh_visible();
    QTest::qWait(300);
    w.grab().save(QDir(dir).filePath("remote_two_devices_host.png"));
  }
}

TEST(AppRemote, MachinesAreSavedInTheSettings) {
  QTemporaryDir dir;
  QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
  const QList<RemoteHost> hosts{{"gpu-box", "ssh -J bastion gpu-box", "/opt/rl/reductionlab-cli"},
                                {"slurm", "srun -p gpu --gres=gpu:1", "reductionlab-cli"}};
  save_remote_hosts(settings, hosts);
  EXPECT_EQ(load_remote_hosts(settings), hosts);
  QString error;
  const auto c = launch_command(hosts[0], {"devices", "--json"}, &error);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->program, "ssh");
  EXPECT_EQ(c->arguments, (QStringList{"-J", "bastion", "gpu-box", "/opt/rl/reductionlab-cli",
                                       "devices", "--json"}));
  EXPECT_EQ(remote_host_problem({"gpu-box", "ssh x", "cli"}, hosts),
            "A machine named 'gpu-box' is already listed.");
}
