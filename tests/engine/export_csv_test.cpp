// CSV exports: RFC 4180 quoting read back by an independent parser, one row per point or per
// sample, exact numbers, empty cells for values that do not exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "engine/io/export.h"
#include "engine/session/metrics.h"
#include "export_fixtures.h"

namespace rl {
namespace {

using Table = std::vector<std::vector<std::string>>;

// A strict RFC 4180 reader (LF or CRLF line ends): fails the test on malformed quoting.
Table parse_csv(const std::string& text) {
  Table rows;
  std::vector<std::string> row;
  std::string cell;
  bool quoted = false, cell_started = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
        const char next = i + 1 < text.size() ? text[i + 1] : '\n';
        EXPECT_TRUE(next == ',' || next == '\n' || next == '\r') << "text after a closing quote";
      } else {
        cell += c;
      }
    } else if (c == '"') {
      EXPECT_FALSE(cell_started) << "quote inside an unquoted cell at " << i;
      quoted = cell_started = true;
    } else if (c == ',') {
      row.push_back(cell);
      cell.clear();
      cell_started = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(cell);
      rows.push_back(row);
      row.clear();
      cell.clear();
      cell_started = false;
    } else {
      cell += c;
      cell_started = true;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quote";
  EXPECT_TRUE(row.empty() && cell.empty()) << "last row lacks a line end";
  return rows;
}

// Rows as maps from header name to cell.
std::vector<std::map<std::string, std::string>> records(const std::string& text) {
  const Table t = parse_csv(text);
  std::vector<std::map<std::string, std::string>> out;
  if (t.empty()) return out;
  for (std::size_t r = 1; r < t.size(); ++r) {
    EXPECT_EQ(t[r].size(), t[0].size()) << "row " << r << " has a different column count";
    std::map<std::string, std::string> m;
    for (std::size_t c = 0; c < t[0].size() && c < t[r].size(); ++c) m[t[0][c]] = t[r][c];
    out.push_back(m);
  }
  return out;
}

TEST(ExportCsv, SummaryHasOneRowPerPointAndAllColumns) {
  const Session s = testing::make_full_session();
  const Table t = parse_csv(summary_csv(s));
  ASSERT_EQ(t.size(), 1 + s.results.size());
  for (const char* col : {"variant",
                          "seed_name",
                          "workspace",
                          "block_size",
                          "unroll",
                          "size",
                          "type",
                          "status",
                          "message",
                          "first_median_ms",
                          "total_median_ms",
                          "total_samples",
                          "total_gbps",
                          "pct_of_theoretical",
                          "pct_of_read_floor",
                          "noisy",
                          "speedup",
                          "value",
                          "expected",
                          "abs_error",
                          "rel_error"})
    EXPECT_NE(std::find(t[0].begin(), t[0].end(), col), t[0].end()) << col;
}

TEST(ExportCsv, SummaryValues) {
  const Session s = testing::make_full_session();
  const auto rows = records(summary_csv(s));
  ASSERT_EQ(rows.size(), 4u);
  const auto& ok = rows[0];
  EXPECT_EQ(ok.at("variant"), "unroll");
  EXPECT_EQ(ok.at("seed_name"), "reduceUnroll8");
  EXPECT_EQ(ok.at("workspace"), "shared");
  EXPECT_EQ(ok.at("block_size"), "1024");
  EXPECT_EQ(ok.at("unroll"), "8");
  EXPECT_EQ(ok.at("size"), "16777216");
  EXPECT_EQ(ok.at("type"), "int32");
  EXPECT_EQ(ok.at("speedup"), "3.75");
  EXPECT_EQ(ok.at("total_samples"), "40");
  // Shortest representation that reads back exactly.
  EXPECT_EQ(std::strtod(ok.at("first_median_ms").c_str(), nullptr), 0.123456789012345);
  EXPECT_EQ(std::strtod(ok.at("first_mean_ms").c_str(), nullptr),
            s.results[0].first_kernel.mean_ms);
  EXPECT_EQ(std::strtod(ok.at("gpu_median_ms").c_str(), nullptr), s.results[0].gpu_time.median_ms);
  EXPECT_EQ(std::strtod(ok.at("timestamp_floor_median_ms").c_str(), nullptr),
            s.results[0].timestamp_floor.median_ms);
  EXPECT_EQ(ok.at("event_spans"), "2");
  EXPECT_EQ(ok.at("noisy"), "true");
  // Derived from the times, the device and the floor at this size (session/metrics.h).
  const PointRates rates = point_rates(s.results[0], s.device, s.read_floors);
  ASSERT_GT(rates.pct_of_read_floor, 0);
  EXPECT_EQ(std::strtod(ok.at("pct_of_read_floor").c_str(), nullptr), rates.pct_of_read_floor);
  EXPECT_EQ(std::strtod(ok.at("total_gbps").c_str(), nullptr), rates.total_gbps);
  EXPECT_EQ(std::strtod(ok.at("pct_of_theoretical").c_str(), nullptr), rates.pct_of_theoretical);

  const auto& wrong = rows[1];
  EXPECT_EQ(wrong.at("seed_name"), "reduceInterleaved");
  EXPECT_EQ(wrong.at("message"), s.results[1].message);  // comma, quotes and newline survive
  EXPECT_EQ(wrong.at("speedup"), "");
  EXPECT_EQ(wrong.at("rel_error"), "nan");
  EXPECT_EQ(wrong.at("abs_error"), "inf");
  EXPECT_EQ(wrong.at("noisy"), "false");
  EXPECT_EQ(wrong.at("pct_of_read_floor"), "");  // no floor: empty, not 0

  const auto& failed = rows[2];
  EXPECT_EQ(failed.at("message"), s.results[2].message);
  EXPECT_EQ(failed.at("total_median_ms"), "");  // never measured: empty, not 0
  EXPECT_EQ(failed.at("total_gbps"), "");
  EXPECT_EQ(failed.at("pct_of_theoretical"), "");
  EXPECT_EQ(failed.at("gpu_median_ms"), "");
  EXPECT_EQ(failed.at("event_spans"), "");
}

TEST(ExportCsv, QuotesOnlyWhatNeedsIt) {
  Session s;
  s.results.resize(1);
  s.results[0].point = PointSpec{"interleaved", Workspace::Global, 1024, 1, 5, DType::Int32};
  s.results[0].status = PointStatus::Failed;
  s.results[0].message = "a \"quoted\", word";
  const std::string csv = summary_csv(s);
  EXPECT_NE(csv.find("\"a \"\"quoted\"\", word\""), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ninterleaved,reduceInterleaved,global,1024,1,5,,,int32,"), std::string::npos)
      << csv;
}

TEST(ExportCsv, SamplesOneRowPerSample) {
  const Session s = testing::make_full_session();
  const auto rows = records(samples_csv(s.results));
  // 40 + 5 samples; the failed and skipped points have none.
  ASSERT_EQ(rows.size(), 45u);
  EXPECT_EQ(rows[0].at("variant"), "unroll");
  EXPECT_EQ(rows[0].at("sample"), "0");
  EXPECT_EQ(rows[39].at("sample"), "39");
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(std::strtod(rows[i].at("first_ms").c_str(), nullptr),
              s.results[0].first_samples_ms[i]);
    EXPECT_EQ(std::strtod(rows[i].at("total_ms").c_str(), nullptr),
              s.results[0].total_samples_ms[i]);
    EXPECT_EQ(std::strtod(rows[i].at("timestamp_floor_ms").c_str(), nullptr),
              s.results[0].floor_samples_ms[i]);
  }
  EXPECT_EQ(rows[40].at("variant"), "interleaved");
  EXPECT_EQ(rows[40].at("status"), "wrong");
}

TEST(ExportCsv, SamplesWithoutFirstKernelTimesLeaveTheCellEmpty) {
  std::vector<PointResult> results(1);
  results[0].point = PointSpec{"interleaved", Workspace::Global, 1024, 1, 5, DType::Int32};
  results[0].total_samples_ms = {0.5, 0.25};
  const auto rows = records(samples_csv(results));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].at("first_ms"), "");
  EXPECT_EQ(rows[1].at("total_ms"), "0.25");
}

TEST(ExportCsv, EmptyResultsGiveTheHeaderOnly) {
  EXPECT_EQ(parse_csv(summary_csv(Session{})).size(), 1u);
  EXPECT_EQ(parse_csv(samples_csv({})).size(), 1u);
}

}  // namespace
}  // namespace rl
