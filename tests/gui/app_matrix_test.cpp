// Rows and columns of a matrix in the app: the form's shapes (a list, a sweep at a total, every
// error the engine's, named by its field), matrix points shown by their shape, and both matrix
// charts drawn from a session built here (a test GPU, round times chosen so the winner and its
// margin are obvious; not a measurement).
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "engine/experiment/presets.h"
#include "experiment_panel.h"
#include "local_run.h"
#include "main_window.h"
#include "results_model.h"
#include "session_store.h"

using namespace rl::gui;
using charts::SeriesKind;

namespace {

rl::PointResult matrix_point(const std::string& variant, std::uint64_t rows, std::uint64_t cols,
                             double ms) {
  rl::PointResult r = test::sample_point(variant, 1, 256, rows * cols, ms);
  r.point.workspace = rl::Workspace::Registers;
  r.point.rows = rows;
  r.point.cols = cols;
  return r;
}

// Two shapes of 2^16 elements: at 64x1024 row_per_warp wins by 2.0 / 1.5; at 1024x64
// row_per_thread by 3.0 / 1.0. column_tiled wins both column maps' cells by 2x.
rl::Session matrix_session() {
  rl::Session s = test::sample_session();
  s.results.clear();
  s.spec.variants = {"row_per_thread", "row_per_warp", "column_strided", "column_tiled"};
  s.spec.shapes = {{64, 1024}, {1024, 64}};
  s.results.push_back(matrix_point("row_per_thread", 64, 1024, 2.0));
  s.results.push_back(matrix_point("row_per_warp", 64, 1024, 1.5));
  s.results.push_back(matrix_point("row_per_thread", 1024, 64, 1.0));
  s.results.push_back(matrix_point("row_per_warp", 1024, 64, 3.0));
  s.results.push_back(matrix_point("column_strided", 64, 1024, 4.0));
  s.results.push_back(matrix_point("column_tiled", 64, 1024, 2.0));
  s.results.push_back(matrix_point("column_strided", 1024, 64, 4.0));
  s.results.push_back(matrix_point("column_tiled", 1024, 64, 2.0));
  rl::compute_speedups(s.results, "row_per_thread");
  return s;
}

int preset_index(const std::string& id) {
  for (size_t i = 0; i < rl::presets().size(); ++i)
    if (rl::presets()[i].id == id) return int(i);
  return -1;
}

void settle(ExperimentPanel& form) {
  form.validate_now();
  QApplication::processEvents();
}

}  // namespace

TEST(AppMatrix, PresetShowsItsSweepAndRoundTrips) {
  ExperimentPanel form;
  form.set_device(kHostDevice);
  EXPECT_TRUE(form.matrix_box()->isHidden());  // the classic ladder: no matrices
  const int rows = preset_index("rows-and-columns");
  ASSERT_GE(rows, 0);
  form.apply_preset(rows);
  settle(form);
  EXPECT_FALSE(form.matrix_box()->isHidden());
  EXPECT_EQ(form.shape_mode_box()->currentIndex(), 1);  // widths at a total
  EXPECT_EQ(form.total_field()->text(), "2^24");
  const auto spec = form.spec();
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->shapes, rl::presets()[size_t(rows)].spec.shapes);
  EXPECT_EQ(rl::preset_index_of(*spec), rows);
  // Its widths 1000 and 4097 do not divide 2^24: said beside the fields, not as a problem.
  EXPECT_TRUE(form.matrix_message().contains("rounded down"))
      << form.matrix_message().toStdString();
}

TEST(AppMatrix, ShapeListAndSweepAreReadByTheEngine) {
  ExperimentPanel form;
  form.set_device(kHostDevice);
  form.apply_preset(preset_index("rows-and-columns"));
  form.shape_mode_box()->setCurrentIndex(0);
  form.shapes_field()->setText("4096x4096, 2^10x2^14");
  settle(form);
  ASSERT_TRUE(form.problems().isEmpty()) << form.problems().join("; ").toStdString();
  auto spec = form.spec();
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->shapes, (std::vector<rl::MatrixShape>{{4096, 4096}, {1024, 16384}}));
  form.shape_mode_box()->setCurrentIndex(2);  // heights at a total
  form.sweep_field()->setText("2^4..2^6");
  form.total_field()->setText("2^12");
  form.reduce_box()->setCurrentIndex(1);
  settle(form);
  ASSERT_TRUE(form.problems().isEmpty()) << form.problems().join("; ").toStdString();
  spec = form.spec();
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->shapes, (std::vector<rl::MatrixShape>{{16, 256}, {32, 128}, {64, 64}}));
  EXPECT_EQ(spec->reduce, rl::ReduceFilter::Rows);
}

TEST(AppMatrix, EveryBadShapeGetsTheEnginesMessageBesideItsField) {
  ExperimentPanel form;
  form.set_device(kHostDevice);
  form.apply_preset(preset_index("rows-and-columns"));
  struct Case {
    int mode;
    QString values, total, says;
  };
  const Case cases[] = {
      {0, "abc", "", "matrix shape 'abc': expected ROWSxCOLS"},
      {0, "0x5", "", "rows must be at least 1"},
      {0, "64x", "", "cols missing"},
      {0, "2^30x2^30", "", "too large"},
      {0, "64xfoo", "", "cols: size 'foo'"},
      {1, "2^30", "2^24", "columns: cols 2^30: must be from 1 to the total 2^24"},
      {1, "32..1000", "2^24", "columns: size range '32..1000'"},
      {1, "32..2^10", "lots", "total: size 'lots'"},
      {1, "32..2^10", "", "total: enter the elements"},
      {1, "", "2^20", "columns: enter at least one"},
  };
  for (const Case& c : cases) {
    form.shape_mode_box()->setCurrentIndex(c.mode);
    (c.mode == 0 ? form.shapes_field() : form.sweep_field())->setText(c.values);
    form.total_field()->setText(c.total);
    settle(form);
    const QString all = form.problems().join("; ");
    EXPECT_TRUE(all.contains(c.says)) << c.values.toStdString() << ": " << all.toStdString();
    EXPECT_TRUE(form.matrix_message().contains(c.says)) << form.matrix_message().toStdString();
    EXPECT_FALSE(form.run_button()->isEnabled());
    EXPECT_FALSE(form.spec());
  }
  // No shapes with a matrix variant ticked: the engine says what is missing.
  form.shape_mode_box()->setCurrentIndex(0);
  form.shapes_field()->clear();
  settle(form);
  EXPECT_FALSE(form.problems().isEmpty());
  EXPECT_FALSE(form.run_button()->isEnabled());
}

TEST(AppMatrix, TableShowsAMatrixPointsShape) {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  auto shared = std::make_shared<rl::Session>(matrix_session());
  model.set_session(shared, "row_per_thread");
  ASSERT_EQ(model.rowCount(), 8);
  EXPECT_EQ(model.data(model.index(0, ResultsModel::Size), Qt::DisplayRole).toString(), "64x1024");
  EXPECT_EQ(model.data(model.index(0, ResultsModel::Size), ResultsModel::CopyRole).toString(),
            "64x1024");
}

TEST(AppMatrix, StrategyMapNamesTheWinnerAndItsMargin) {
  const rl::Session s = matrix_session();
  const charts::Chart rows = build_chart("strategy_map_rows", {{&s, "Test GPU"}}, "row_per_thread");
  ASSERT_EQ(rows.series.size(), 2);  // each shape's winner, in the catalog's order
  EXPECT_EQ(rows.series[0].name, "row_per_thread");
  EXPECT_EQ(rows.series[1].name, "row_per_warp");
  for (const auto& series : rows.series) {
    EXPECT_EQ(series.kind, SeriesKind::Cells);
    ASSERT_EQ(series.points.size(), 1);
  }
  const auto& thread = rows.series[0].points[0];
  EXPECT_EQ(thread.x, 64);  // columns
  EXPECT_EQ(thread.y, 1024);
  EXPECT_EQ(thread.label, "3.00x");
  const auto& warp = rows.series[1].points[0];
  EXPECT_EQ(warp.x, 1024);
  EXPECT_EQ(warp.label, "1.33x");
  EXPECT_TRUE(warp.tooltip.contains("row_per_thread")) << warp.tooltip.toStdString();
  const charts::Chart cols =
      build_chart("strategy_map_columns", {{&s, "Test GPU"}}, "row_per_thread");
  ASSERT_EQ(cols.series.size(), 1);
  EXPECT_EQ(cols.series[0].name, "column_tiled");
  EXPECT_EQ(cols.series[0].points.size(), 2);
  EXPECT_EQ(cols.series[0].points[0].label, "2.00x");
  // Drawn at a lecture hall's 1024x768: every cell and its label whole.
  for (const charts::Chart& c : {rows, cols}) {
    charts::ChartWidget widget;
    widget.resize(1024, 700);
    widget.set_chart(c);
    widget.show();
    QApplication::processEvents();
    EXPECT_EQ(widget.drawn_points(), c.id.endsWith("rows") ? 2 : 2);
    EXPECT_TRUE(widget.cut_text().isEmpty()) << widget.cut_text().join("; ").toStdString();
    EXPECT_TRUE(widget.tooltip(0, 0).contains("fastest"));
  }
}

TEST(AppMatrix, RowLengthChartDrawsEachStrategyAgainstN) {
  const rl::Session s = matrix_session();
  EXPECT_EQ(matrix_totals(s), std::vector<std::uint64_t>{65536});
  const charts::Chart c = build_chart("row_length", {{&s, "Test GPU"}}, "row_per_thread");
  ASSERT_EQ(c.series.size(), 4);  // one line per strategy
  EXPECT_EQ(c.x.scale, charts::AxisScale::Log2);
  EXPECT_TRUE(c.subtitle.contains("M x N = 2^16")) << c.subtitle.toStdString();
  for (const auto& series : c.series) {
    ASSERT_EQ(series.points.size(), 2);
    if (series.name == "row_per_warp") {
      EXPECT_EQ(series.points[0].x, 1024);
      EXPECT_DOUBLE_EQ(series.points[0].y, 1.5);
    }
  }
  // No read floor in this session: the % view is offered with the reason it cannot be drawn.
  EXPECT_FALSE(c.pct_of_limit_available);
  EXPECT_FALSE(c.pct_of_limit_note.isEmpty());
  // A session of whole arrays only: the page says how to get matrix points.
  const rl::Session ladder = test::sample_session();
  EXPECT_TRUE(build_chart("row_length", {{&ladder, "Test GPU"}}, "neighbored")
                  .empty_hint.contains("Rows and columns"));
  EXPECT_TRUE(build_chart("strategy_map_rows", {{&ladder, "Test GPU"}}, "neighbored").empty());
}

// A strategy whose default factor depends on the width (a thread per row: U = 2 below 128
// elements) is one line through its widths; two factors at one width are a line each.
TEST(AppMatrix, RowLengthChartJoinsAFactorChosenByTheWidth) {
  rl::Session s = matrix_session();
  for (rl::PointResult& r : s.results)
    if (r.point.variant == "row_per_thread") r.point.unroll = r.point.cols < 128 ? 2 : 4;
  const charts::Chart joined = build_chart("row_length", {{&s, "Test GPU"}}, "row_per_thread");
  ASSERT_EQ(joined.series.size(), 4);
  for (const auto& series : joined.series)
    EXPECT_EQ(series.points.size(), 2) << series.name.toStdString();
  EXPECT_EQ(joined.series[0].name.toStdString().find("U="), std::string::npos);

  rl::PointResult other = matrix_point("row_per_thread", 64, 1024, 2.5);
  other.point.unroll = 8;
  s.results.push_back(other);
  const charts::Chart split = build_chart("row_length", {{&s, "Test GPU"}}, "row_per_thread");
  QStringList names;
  for (const auto& series : split.series) names << series.name;
  EXPECT_EQ(split.series.size(), 6) << names.join(", ").toStdString();
  for (const char* u : {"U=2", "U=4", "U=8"})
    EXPECT_TRUE(names.filter("row_per_thread").filter(u).size() == 1) << u;
}

// A saved session of matrices only (the rows-and-columns preset) opens on the page that draws
// it, and the ladder's charts say where its points are instead of calling them failed.
TEST(AppMatrix, AMatrixSessionOpensOnItsPageAndTheLadderSaysWhere) {
  QTemporaryDir dir;
  const QString path = test::write_session_file(dir, "rows.json", matrix_session());
  MainWindow w(test::quiet_options());
  ASSERT_TRUE(w.open_session(path)) << w.last_error().toStdString();
  EXPECT_EQ(w.tabs()->tabText(w.tabs()->currentIndex()), "Rows and columns");
  const rl::Session s = matrix_session();
  for (const char* id :
       {"ladder_speedup", "ladder_counts", "ladder_barrier_stall", "ladder_stall_reasons"}) {
    const charts::Chart ladder = build_chart(id, {{&s, "Test GPU"}}, "row_per_thread");
    EXPECT_TRUE(ladder.empty()) << id;
    EXPECT_TRUE(ladder.empty_hint.contains("Rows and columns tab"))
        << id << ": " << ladder.empty_hint.toStdString();
  }
  // A session of whole arrays opens where it did.
  const QString ladder_path = test::write_session_file(dir, "ladder.json", test::sample_session());
  MainWindow w2(test::quiet_options());
  const QString before = w2.tabs()->tabText(w2.tabs()->currentIndex());
  ASSERT_TRUE(w2.open_session(ladder_path)) << w2.last_error().toStdString();
  EXPECT_EQ(w2.tabs()->tabText(w2.tabs()->currentIndex()), before);
}

// A run of matrices only shows the page its points are drawn on as it starts.
TEST(AppMatrix, ARunOfMatricesShowsItsPage) {
  MainWindow w(test::quiet_options());
  rl::ExperimentSpec spec = test::tiny_spec();
  spec.variants = {"row_per_warp", "column_tiled"};
  spec.workspaces = {rl::Workspace::Registers};
  spec.shapes = {{33, 1025}, {64, 64}};
  ASSERT_TRUE(test::run_and_wait(w, spec)) << w.statusBar()->currentMessage().toStdString();
  EXPECT_EQ(w.tabs()->tabText(w.tabs()->currentIndex()), "Rows and columns");
  EXPECT_EQ(w.store()->primary().results.size(), 4u);
}
