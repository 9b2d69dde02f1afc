// Files in and out: charts as PNG and SVG, results as CSV, sessions saved and reopened; bad,
// foreign or truncated sessions give an error and change nothing; the headless chart export
// of the command line.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "chart_export.h"
#include "charts/chart_builders.h"
#include "engine/io/export.h"
#include "jobs/jobs_bar.h"
#include "results_model.h"
#include "results_table.h"
#include "session_files.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

QByteArray read_all(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write_all(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

// Distinct colours in an image: a blank or text-less render has very few.
int colour_count(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return colours.size();
}

QString write_sample_session(const QTemporaryDir& dir) {
  const QString path = dir.filePath("sample.json");
  write_all(path, QByteArray::fromStdString(rl::session_to_json(test::sample_session())));
  return path;
}

}  // namespace

TEST(AppFiles, ExportsPngSvgAndCsvAfterAHostRun) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));

  const QString png = dir.filePath("ladder.png");
  ASSERT_TRUE(w.export_chart("ladder_speedup", png, QSize(1200, 800)))
      << w.last_error().toStdString();
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(image.size(), QSize(1200, 800));
  EXPECT_GT(colour_count(image), 20);

  const QString big = dir.filePath("size.png");
  ASSERT_TRUE(w.export_chart("bandwidth_vs_size", big, QSize(3000, 1800)));
  EXPECT_EQ(QImage(big).size(), QSize(3000, 1800));

  const QString svg = dir.filePath("time.svg");
  ASSERT_TRUE(w.export_chart("time_vs_size", svg, QSize(1000, 700)));
  const QByteArray svg_bytes = read_all(svg);
  EXPECT_TRUE(svg_bytes.startsWith("<?xml")) << svg_bytes.left(60).toStdString();
  EXPECT_TRUE(svg_bytes.contains("<svg"));
  EXPECT_GT(svg_bytes.size(), 2000);

  const QString summary = dir.filePath("summary.csv");
  ASSERT_TRUE(w.export_summary_csv(summary));
  const QList<QByteArray> rows = read_all(summary).trimmed().split('\n');
  EXPECT_EQ(rows.size(), 5);  // header + 4 points
  EXPECT_TRUE(rows[0].contains("variant"));
  const QString samples = dir.filePath("samples.csv");
  ASSERT_TRUE(w.export_samples_csv(samples));
  EXPECT_GT(read_all(samples).trimmed().split('\n').size(), 5);

  // The table copies as TSV: a header and one line per point.
  const QString tsv = w.results_table()->selection_as_tsv();
  EXPECT_EQ(tsv.trimmed().split('\n').size(), 5);
  EXPECT_TRUE(tsv.startsWith("variant\t"));

  // An unwritable place gives an error, not a crash.
  EXPECT_FALSE(
      w.export_chart("ladder_speedup", dir.filePath("no/such/dir/x.png"), QSize(800, 600)));
  EXPECT_FALSE(w.last_error().isEmpty());
}

TEST(AppFiles, SavedSessionReopensWithTheSamePoints) {
  QTemporaryDir dir;
  const QString path = dir.filePath("run.json");
  {
    MainWindow w(test::quiet_options());
    ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
    ASSERT_TRUE(w.save_session(path)) << w.last_error().toStdString();
  }
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(path)) << w.last_error().toStdString();
  EXPECT_EQ(w.results_model()->rowCount(), 4);
  EXPECT_EQ(w.store()->primary().device.backend, "host");
  EXPECT_TRUE(w.banner_text().contains("run.json"));
  // Overlay a second session: both in the charts.
  ASSERT_TRUE(w.open_session(write_sample_session(dir), true));
  EXPECT_EQ(w.store()->overlays().size(), 1u);
}

// File > Open reads on a thread of its own: the window keeps its event loop while the file is
// read, and takes the session (or the error) when it is.
TEST(AppFiles, OpeningInTheBackgroundKeepsTheWindowResponsive) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  const QString good = write_sample_session(dir);
  w.open_session_in_background(good);
  EXPECT_TRUE(w.jobs_bar()->text().startsWith("Opening")) << "returns before it is read";
  ASSERT_TRUE(test::wait_until([&] { return w.store()->has_primary(); }, 20000));
  EXPECT_GT(w.results_model()->rowCount(), 0);

  const QString bad = dir.filePath("bad.json");
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"schema_version\": 1, \"results\": [");
  f.close();
  const int rows = w.results_model()->rowCount();
  w.open_session_in_background(bad);
  ASSERT_TRUE(test::wait_until([&] { return !w.last_error().isEmpty(); }, 20000));
  EXPECT_TRUE(w.last_error().contains("bad.json")) << w.last_error().toStdString();
  EXPECT_EQ(w.results_model()->rowCount(), rows);
}

TEST(AppFiles, BadSessionsGiveAnErrorAndChangeNothing) {
  QTemporaryDir dir;
  MainWindow w(test::quiet_options());
  const QString good = write_sample_session(dir);
  ASSERT_TRUE(w.open_session(good));
  const size_t points = w.store()->primary().results.size();
  const QByteArray valid = read_all(good);

  const QString empty = dir.filePath("empty.json"), text = dir.filePath("text.json"),
                truncated = dir.filePath("truncated.json"), foreign = dir.filePath("foreign.json"),
                newer = dir.filePath("newer.json"), image = dir.filePath("image.json");
  write_all(empty, "");
  write_all(text, "hello, this is not a session");
  write_all(truncated, valid.left(valid.size() / 2));
  write_all(foreign, R"({"name": "some other program", "items": [1, 2, 3]})");
  QByteArray future = valid;
  future.replace("\"schema_version\": 1", "\"schema_version\": 99");
  write_all(newer, future);
  QImage(16, 16, QImage::Format_RGB32).save(image, "PNG");

  for (const QString& bad :
       {dir.filePath("missing.json"), empty, text, truncated, foreign, newer, image}) {
    for (bool overlay : {false, true}) {
      EXPECT_FALSE(w.open_session(bad, overlay)) << bad.toStdString();
      EXPECT_TRUE(w.last_error().contains(QFileInfo(bad).fileName()))
          << w.last_error().toStdString();
      EXPECT_EQ(w.store()->primary().results.size(), points);
      EXPECT_EQ(size_t(w.results_model()->rowCount()), points);
      EXPECT_TRUE(w.store()->overlays().empty());
    }
  }
  EXPECT_TRUE(w.store()->primary_source().endsWith("sample.json"));
}

TEST(AppFiles, ExportChartsWritesOnePngPerChart) {
  QTemporaryDir dir;
  const QString session = write_sample_session(dir);
  QStringList written, left_out;
  QString error;
  ASSERT_TRUE(export_session_charts(session, dir.filePath("charts"), QSize(900, 600), &written,
                                    &error, TimeBasis::Whole, &left_out))
      << error.toStdString();
  // The sample holds a ladder and an unroll sweep at one block size and one N: the block-size and
  // size charts have nothing to draw and are not written, each listed with why.
  EXPECT_EQ(written.size() + left_out.size(), int(chart_kinds().size()));
  for (const ChartKind& k : chart_kinds()) {
    const QString path = dir.filePath("charts/" + k.id + ".png");
    const bool sweep_absent = k.id.endsWith("_block") || k.id.endsWith("_size");
    // No hardware counters in the sample: those charts are left out too, saying how to get them.
    const bool no_counters = k.id == "ladder_barrier_stall" || k.id == "ladder_stall_reasons" ||
                             k.id == "ladder_barriers_stall" || k.id.startsWith("stall_vs_");
    const bool one_session = is_compare_chart(k.id);  // nothing to compare it with
    // No matrix points: the rows and columns charts are left out, saying how to get some.
    const bool no_matrix = k.id == "row_length" || k.id.startsWith("strategy_map_");
    EXPECT_EQ(QFileInfo::exists(path), !sweep_absent && !no_counters && !one_session && !no_matrix)
        << k.id.toStdString();
    if (no_matrix)
      EXPECT_EQ(left_out.filter(QRegularExpression("^" + k.id + ": No matrix points")).size(), 1)
          << left_out.join(" | ").toStdString();
    else if (one_session)
      EXPECT_EQ(left_out.filter(QRegularExpression("^" + k.id + ": Overlay a second")).size(), 1)
          << left_out.join(" | ").toStdString();
    else if (no_counters)
      EXPECT_EQ(left_out.filter(QRegularExpression("^" + k.id + ": .*--counters")).size(), 1)
          << left_out.join(" | ").toStdString();
    else if (sweep_absent)
      EXPECT_EQ(left_out.filter(QRegularExpression("^" + k.id + ": .*sweep")).size(), 1)
          << k.id.toStdString() << ": " << left_out.join(" | ").toStdString();
    else
      EXPECT_EQ(QImage(path).size(), QSize(900, 600)) << k.id.toStdString();
  }
  EXPECT_FALSE(export_session_charts(dir.filePath("missing.json"), dir.filePath("x"),
                                     QSize(900, 600), &written, &error));
  EXPECT_TRUE(error.contains("missing.json"));
  const QString junk = dir.filePath("junk.json");
  write_all(junk, "{ not json");
  EXPECT_FALSE(export_session_charts(junk, dir.filePath("x"), QSize(900, 600), &written, &error));
  EXPECT_TRUE(error.contains("junk.json")) << error.toStdString();
  // A folder that cannot be made: its parent is a file.
  EXPECT_FALSE(export_session_charts(session, dir.filePath("sample.json/charts"), QSize(900, 600),
                                     &written, &error));
  EXPECT_FALSE(error.isEmpty());
}

// The chosen time missing (the sample has no GPU time): every chart drawn from times is left out
// with why, never written as a PNG holding only a note; charts that need no time still are.
TEST(AppFiles, ExportLeavesOutChartsWithoutTheChosenTime) {
  QTemporaryDir dir;
  const QString session = write_sample_session(dir);
  QStringList written, left_out;
  QString error;
  const bool any = export_session_charts(session, dir.filePath("charts"), QSize(900, 600), &written,
                                         &error, TimeBasis::Gpu, &left_out);
  EXPECT_EQ(written.size() + left_out.size(), int(chart_kinds().size()));
  for (const char* id :
       {"ladder_time", "ladder_speedup", "time_vs_unroll", "bandwidth_vs_unroll"}) {
    EXPECT_EQ(left_out.filter(QRegularExpression(QString("^%1: ").arg(id))).size(), 1)
        << id << ": " << left_out.join(" | ").toStdString();
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QString("charts/%1.png").arg(id)))) << id;
  }
  EXPECT_EQ(any, !written.isEmpty()) << error.toStdString();
}

// A session with nothing to draw at all: no PNG, no folder, and the error lists every chart.
TEST(AppFiles, ExportWithNothingToDrawFailsAndWritesNothing) {
  QTemporaryDir dir;
  const QString session = dir.filePath("empty.json");
  write_all(session, QByteArray::fromStdString(rl::session_to_json(rl::Session{})));
  QStringList written, left_out;
  QString error;
  EXPECT_FALSE(export_session_charts(session, dir.filePath("charts"), QSize(900, 600), &written,
                                     &error, TimeBasis::Whole, &left_out));
  EXPECT_TRUE(written.isEmpty());
  EXPECT_EQ(left_out.size(), int(chart_kinds().size()));
  EXPECT_TRUE(error.contains("no chart has anything to draw")) << error.toStdString();
  EXPECT_TRUE(error.contains("ladder_time: ")) << error.toStdString();
  EXPECT_FALSE(QFileInfo::exists(dir.filePath("charts")));
}

TEST(AppFiles, CommandLineIsParsedWithClearErrors) {
  CommandLine ok = parse_command_line(
      {"reductionlab", "--open", "s.json", "--export-charts", "out", "--size", "800x500"});
  EXPECT_TRUE(ok.error.isEmpty()) << ok.error.toStdString();
  EXPECT_EQ(ok.open, "s.json");
  EXPECT_EQ(ok.export_dir, "out");
  EXPECT_EQ(ok.size, QSize(800, 500));
  EXPECT_FALSE(parse_command_line({"reductionlab", "--export-charts", "out"}).error.isEmpty());
  EXPECT_TRUE(parse_command_line({"reductionlab", "--open", "s.json", "--size", "big"})
                  .error.contains("--size"));
  EXPECT_FALSE(parse_command_line({"reductionlab", "--bogus"}).error.isEmpty());
  EXPECT_FALSE(parse_command_line({"reductionlab", "stray"}).error.isEmpty());
}

// The real executable, when it was built beside the tests.
TEST(AppFiles, ExecutableExportsChartsAndFailsWithAMessage) {
  // Beside the tests in a build tree (tests/../gui/), or in the same folder (packed binaries).
  const QDir here(QCoreApplication::applicationDirPath());
  QString exe = here.filePath("../gui/reductionlab");
  if (!QFileInfo::exists(exe)) exe = here.filePath("reductionlab");
  if (!QFileInfo::exists(exe))
    GTEST_SKIP() << "reductionlab not built beside " << here.path().toStdString();
  QTemporaryDir dir;
  const QString session = write_sample_session(dir);
  QProcess p;
  p.start(exe, {"--open", session, "--export-charts", dir.filePath("out"), "--size", "800x500"});
  ASSERT_TRUE(p.waitForFinished(120000));
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  // Charts with nothing to draw (no block-size or size sweep here) are listed, not written.
  const int pngs = int(QDir(dir.filePath("out")).entryList({"*.png"}).size());
  EXPECT_GE(pngs, 5);
  EXPECT_LT(pngs, int(chart_kinds().size()));
  EXPECT_TRUE(p.readAllStandardError().contains("time_vs_size: "));

  // Nothing to draw at all: exit 1, nothing written.
  const QString empty = dir.filePath("empty.json");
  write_all(empty, QByteArray::fromStdString(rl::session_to_json(rl::Session{})));
  p.start(exe, {"--open", empty, "--export-charts", dir.filePath("gpu"), "--time", "gpu"});
  ASSERT_TRUE(p.waitForFinished(120000));
  EXPECT_EQ(p.exitCode(), 1);
  EXPECT_TRUE(p.readAllStandardError().contains("no chart has anything to draw"));
  EXPECT_FALSE(QFileInfo::exists(dir.filePath("gpu")));

  p.start(exe, {"--open", dir.filePath("missing.json"), "--export-charts", dir.filePath("out2")});
  ASSERT_TRUE(p.waitForFinished(60000));
  EXPECT_EQ(p.exitCode(), 1);
  EXPECT_TRUE(p.readAllStandardError().contains("missing.json"));

  p.start(exe, {"--export-charts", dir.filePath("out3")});
  ASSERT_TRUE(p.waitForFinished(60000));
  EXPECT_EQ(p.exitCode(), 2);
  EXPECT_TRUE(p.readAllStandardError().contains("--open"));
}

TEST(AppFiles, TableShowsTheGpuTimeWhereTheSessionHasIt) {
  rl::Session s = test::sample_session();
  rl::PointResult& r = s.results[0];  // 4 ms whole reduction, two spans, 1.25 us floor
  r.floor_samples_ms.assign(10, 0.00125);
  r.timestamp_floor = rl::summarize(r.floor_samples_ms);
  r.event_spans = 2;
  r.gpu_time = rl::gpu_time_of(r.total_samples_ms, r.timestamp_floor, r.event_spans);
  ResultsModel model;
  model.set_session(std::make_shared<const rl::Session>(s), "neighbored");
  EXPECT_EQ(model.headerData(ResultsModel::GpuMedian, Qt::Horizontal, Qt::DisplayRole).toString(),
            "GPU time median");
  EXPECT_EQ(model.data(model.index(0, ResultsModel::GpuMedian), ResultsModel::SortRole).toDouble(),
            4.0 - 0.0025);
  EXPECT_EQ(model.data(model.index(0, ResultsModel::GpuMedian), Qt::DisplayRole).toString(),
            "3.998 ms");
  EXPECT_TRUE(model.data(model.index(0, 0), Qt::ToolTipRole)
                  .toString()
                  .contains("GPU time (timestamps taken out): median 3.998 ms; an empty event "
                            "pair reads 1.25 µs"));
  // A session without the floor (older files, host runs) shows a dash, not a zero.
  EXPECT_EQ(model.data(model.index(1, ResultsModel::GpuMedian), Qt::DisplayRole).toString(), "-");
}
