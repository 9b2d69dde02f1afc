// The app's files through the engine's writer and reader: a write that fails says
// the OS's reason and what became of the file, as the CLI does; /dev/zero and a session nested
// 100,000 deep are refused, not read forever or crashed on; an empty --export-charts or --open
// is a bad argument, not a window.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "chart_export.h"
#include "engine/io/export.h"
#include "engine/io/output_file.h"
#include "engine/io/output_lock.h"
#include "session_files.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

QString write_sample_session(const QTemporaryDir& dir) {
  const QString path = dir.filePath("sample.json");
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray::fromStdString(rl::session_to_json(test::sample_session())));
  return path;
}

}  // namespace

TEST(AppSafeIo, FailedWritesSayTheOsReasonAndWhatBecameOfTheFile) {
  QString error;
  // The old writer, run as root, replaced /dev/full with a regular file: not to be written then.
  if (QFileInfo("/dev/full").isFile()) GTEST_SKIP() << "/dev/full is not a device here";
  EXPECT_FALSE(write_text_file("/dev/full", "a,b\n", &error));
  EXPECT_EQ(error,
            "cannot write /dev/full: No space left on device; /dev/full may hold part of it");

  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(write_sample_session(dir))) << w.last_error().toStdString();
  EXPECT_FALSE(w.export_chart("ladder_speedup", "/dev/full", QSize(800, 600)));
  EXPECT_TRUE(w.last_error().contains("No space left on device")) << w.last_error().toStdString();
  EXPECT_FALSE(w.save_session(dir.filePath("no/such/dir/s.json")));
  EXPECT_TRUE(w.last_error().contains("does not exist")) << w.last_error().toStdString();

  // A save through a symlink replaces its target; the link stays a link.
  ASSERT_TRUE(QFile::link("real.json", dir.filePath("link.json")));
  ASSERT_TRUE(w.save_session(dir.filePath("link.json"))) << w.last_error().toStdString();
  EXPECT_TRUE(QFileInfo(dir.filePath("link.json")).isSymLink());
  EXPECT_TRUE(read_session_file(dir.filePath("real.json"), &error).has_value());
}

// The app's saves take the CLI's lock (engine/io/output_lock.h): while a run writes the file
// (this process holds the lock, saying it is one), a save or an export there is refused naming
// its pid, and the file is not touched; once free, the save writes it and leaves no lock file.
TEST(AppSafeIo, SavesAreRefusedWhileACliRunWritesTheFile) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(write_sample_session(dir))) << w.last_error().toStdString();
  const QString path = dir.filePath("shared.json");
  const QString holder = QString("reductionlab-cli run (pid %1) is writing this file")
                             .arg(QCoreApplication::applicationPid());
  {
    const rl::OutputLock run(rl::plan_output(QFile::encodeName(path).toStdString()),
                             "reductionlab-cli run");
    EXPECT_FALSE(w.save_session(path));
    EXPECT_TRUE(w.last_error().contains(holder)) << w.last_error().toStdString();
    EXPECT_FALSE(w.export_summary_csv(path));
    EXPECT_TRUE(w.last_error().contains(holder)) << w.last_error().toStdString();
    EXPECT_FALSE(QFileInfo::exists(path));
  }
  ASSERT_TRUE(w.save_session(path)) << w.last_error().toStdString();
  QString error;
  EXPECT_TRUE(read_session_file(path, &error).has_value()) << error.toStdString();
  EXPECT_FALSE(QFileInfo::exists(dir.filePath(".shared.json.lock")));
}

TEST(AppSafeIo, HostileSessionFilesAreRefusedQuickly) {
  QString error;
  QElapsedTimer timer;
  timer.start();
  EXPECT_FALSE(read_session_file("/dev/zero", &error).has_value());
  EXPECT_TRUE(error.contains("a NUL byte at offset 0")) << error.toStdString();
  QTemporaryDir dir;
  const QString deep = dir.filePath("deep.json");
  {
    QFile f(deep);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(100000, '[') + QByteArray(100000, ']'));
  }
  EXPECT_FALSE(read_session_file(deep, &error).has_value());
  EXPECT_TRUE(error.contains("nested deeper than 64 levels")) << error.toStdString();
  EXPECT_LT(timer.elapsed(), 2000);
}

TEST(AppSafeIo, EmptyExportFolderOrSessionIsABadArgument) {
  const CommandLine a =
      parse_command_line({"reductionlab", "--open", "s.json", "--export-charts", ""});
  EXPECT_TRUE(a.error.contains("--export-charts: empty folder name")) << a.error.toStdString();
  const CommandLine b = parse_command_line({"reductionlab", "--open", ""});
  EXPECT_TRUE(b.error.contains("--open: empty file name")) << b.error.toStdString();

  // The executable: exit 2 at once, no window (it used to open one, and hang offscreen).
  const QDir here(QCoreApplication::applicationDirPath());
  QString exe = here.filePath("../gui/reductionlab");
  if (!QFileInfo::exists(exe)) exe = here.filePath("reductionlab");
  if (!QFileInfo::exists(exe))
    GTEST_SKIP() << "reductionlab not built beside " << here.path().toStdString();
  QProcess p;
  p.start(exe, {"--open", "s.json", "--export-charts", ""});
  ASSERT_TRUE(p.waitForFinished(20000));
  EXPECT_EQ(p.exitCode(), 2);
  EXPECT_TRUE(p.readAllStandardError().contains("--export-charts: empty folder name"));
}
