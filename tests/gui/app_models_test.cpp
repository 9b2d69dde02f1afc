// The app's Qt models under QAbstractItemModelTester (every index, role and signal checked as
// the model changes), and the front ends agreeing: the same session read by the CLI's table and
// the app's Results table gives the same times, percentages and speed-ups, on every time basis.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "app_sample_session.h"
#include "cli/cli_process.h"
#include "engine/io/export.h"
#include "engine/report/format.h"
#include "engine/report/time_basis.h"
#include "results_model.h"
#include "session_store.h"

using namespace rl::gui;

namespace {

void read_every_cell(const ResultsModel& model) {
  for (int row = 0; row < model.rowCount(); ++row)
    for (int col = 0; col < model.columnCount(); ++col)
      for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), ResultsModel::SortRole,
                       ResultsModel::CopyRole})
        (void)model.data(model.index(row, col), role);  // the tester checks the answers
}

TEST(ResultsModelTester, EveryChangeKeepsTheModelConsistent) {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const rl::Session s = test::sample_session();
  auto shared = std::make_shared<rl::Session>(s);
  model.set_session(shared, "reduceNeighbored");
  EXPECT_EQ(model.rowCount(), int(s.results.size()));
  // The session grows in place: the model takes the new points as rows when told.
  shared->results.push_back(s.results.front());
  shared->results.back().point.size += 1;
  model.append_new_points();
  EXPECT_EQ(model.rowCount(), int(s.results.size()) + 1);
  rl::compute_speedups(shared->results, "interleaved");
  model.update_speedups("interleaved");
  EXPECT_TRUE(model.headerData(ResultsModel::Speedup, Qt::Horizontal, Qt::DisplayRole)
                  .toString()
                  .endsWith("vs interleaved"));
  model.update_values("interleaved");
  // Fewer points after a change in place: a reset, never a row past the session's end.
  shared->results.resize(2);
  model.update_speedups("interleaved");
  EXPECT_EQ(model.rowCount(), 2);
  read_every_cell(model);
  model.set_session(nullptr, "");
  EXPECT_EQ(model.rowCount(), 0);
  auto growing = std::make_shared<rl::Session>();
  model.set_session(growing, "reduceNeighbored");
  for (const rl::PointResult& r : s.results) {
    growing->results.push_back(r);
    model.append_new_points();
  }
  EXPECT_EQ(model.rowCount(), int(s.results.size()));
  read_every_cell(model);
}

// The table shows the store's primary session itself: a large session is held once, with no
// copy of its points for the table or the Code tab, through a live run and a file opened.
TEST(ResultsModelTester, TheTableSharesTheStoresSessionThroughARunAndAFile) {
  SessionStore store;
  ResultsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QObject::connect(&store, &SessionStore::reset, &model,
                   [&] { model.set_session(store.shared_primary(), store.baseline()); });
  QObject::connect(&store, &SessionStore::appended, &model, [&] { model.append_new_points(); });
  QObject::connect(&store, &SessionStore::speedups_changed, &model,
                   [&] { model.update_speedups(store.baseline()); });
  QObject::connect(&store, &SessionStore::metadata_changed, &model,
                   [&] { model.update_values(store.baseline()); });
  const rl::Session s = test::sample_session();
  store.begin_live(s.spec, s.device);
  for (const rl::PointResult& r : s.results) store.append_live(r);
  EXPECT_EQ(model.rowCount(), int(s.results.size()));
  EXPECT_EQ(&model.session(), &store.primary());
  store.finish_live(s);
  EXPECT_EQ(&model.results(), &store.primary().results);
  store.set_baseline("interleaved");
  read_every_cell(model);
  store.set_primary(s, "a file");
  EXPECT_EQ(&model.session(), &store.primary());
  // Only the store and the model hold it (and the pointer asked for here).
  EXPECT_EQ(store.shared_primary().use_count(), 3);
  // The primary closed: the model moves to the next, and the closed one is let go.
  const std::weak_ptr<const rl::Session> closed = store.shared_primary();
  ASSERT_TRUE(store.close(0));
  EXPECT_TRUE(closed.expired());
  EXPECT_EQ(&model.session(), &store.primary());
  EXPECT_EQ(model.rowCount(), int(store.primary().results.size()));
  read_every_cell(model);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ascii(std::string s) {  // the terminal's glyphs: "us" for "µs"
  for (std::size_t at; (at = s.find("µs")) != std::string::npos;) s.replace(at, 3, "us");
  return s;
}

// The CLI's table rows, in the order of the session's results (one per point, after the header).
std::vector<std::string> table_rows(const std::string& out, const rl::Session& s) {
  std::vector<std::string> rows;
  std::istringstream in(out);
  std::string line;
  std::size_t next = 0;
  while (std::getline(in, line) && next < s.results.size())
    if (line.rfind(s.results[next].point.variant + " ", 0) == 0) {
      rows.push_back(line);
      ++next;
    }
  return rows;
}

TEST(FrontEndsAgree, TheCliTableAndTheAppTableShowTheSameNumbersOnEveryTimeBasis) {
  if (!std::filesystem::exists(RL_CLI_PATH))  // test binaries copied to another machine
    GTEST_SKIP() << RL_CLI_PATH << " is not on this machine: nothing to compare with";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rl_agree_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const rl::TimeBasis basis : rl::time_bases()) {
    const std::string json = (dir / (rl::time_basis_key(basis) + ".json")).string();
    const rl::testing::CliResult cli =
        rl::testing::run_cli({"run", "--device", "cpu", "--preset", "unroll", "--sizes", "2^12",
                              "--time", rl::time_basis_key(basis), "--json", json});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    const rl::Session s = rl::session_from_json(read_all(json));
    const std::vector<std::string> rows = table_rows(cli.out, s);
    ASSERT_EQ(rows.size(), s.results.size()) << cli.out;

    ResultsModel model;
    model.set_session(std::make_shared<const rl::Session>(s), s.spec.baseline);
    const rl::BasisSpeedups speedups = rl::basis_speedups(s.results, s.spec.baseline, basis);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      SCOPED_TRACE(rows[i]);
      const int row = int(i);
      auto cell = [&](int column) {
        return ascii(
            model.data(model.index(row, column), Qt::DisplayRole).toString().toStdString());
      };
      EXPECT_NE(rows[i].find(cell(ResultsModel::TotalMedian)), std::string::npos);
      EXPECT_NE(rows[i].find(cell(ResultsModel::FirstMedian)), std::string::npos);
      // The speed-up on the chosen time: the CLI's column and the engine's basis_speedups,
      // which the app's charts draw.
      EXPECT_NE(rows[i].find(rl::format_speedup(speedups.value[i], rl::Glyphs::Ascii)),
                std::string::npos);
      if (basis == rl::TimeBasis::Whole && s.results[i].speedup) {
        const std::string app = cell(ResultsModel::Speedup);  // "×1.66"
        EXPECT_NE(rows[i].find(app.substr(app.find_first_of("0123456789")) + "x"),
                  std::string::npos);
      }
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
