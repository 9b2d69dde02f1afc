// Matrices in files: a spec's shapes and reduce filter and a point's rows and cols round-trip
// through session JSON, files without them open as before, bad values name the field, and the
// CSV carries the shape.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "export_fixtures.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;

Session matrix_session() {
  Session s = testing::make_full_session();
  s.spec.variants = {"interleaved", "row_per_warp", "column_tiled"};
  s.spec.shapes = {{4096, 4096}, {1, 1u << 24}};
  s.spec.reduce = ReduceFilter::Rows;
  PointResult r = s.results[0];
  r.point = PointSpec{"row_per_warp", Workspace::Registers, 256,  4,
                      4096u * 4096u,  DType::Float32,       4096, 4096};
  r.counts.reset();
  s.results.push_back(r);
  return s;
}

TEST(SegmentedJson, SessionRoundTripKeepsShapesAndPointShape) {
  const Session s = matrix_session();
  const Session back = session_from_json(session_to_json(s));
  EXPECT_EQ(back.spec.shapes, s.spec.shapes);
  EXPECT_EQ(back.spec.reduce, ReduceFilter::Rows);
  ASSERT_EQ(back.results.size(), s.results.size());
  for (std::size_t i = 0; i < s.results.size(); ++i)
    EXPECT_EQ(back.results[i].point, s.results[i].point) << i;
  EXPECT_EQ(session_to_json(back), session_to_json(s));
}

TEST(SegmentedJson, FilesWithoutMatricesHaveNoNewKeys) {
  const Json doc = Json::parse(session_to_json(testing::make_full_session()));
  EXPECT_FALSE(doc["spec"].contains("shapes"));
  EXPECT_FALSE(doc["spec"].contains("reduce"));
  for (const Json& r : doc["results"]) EXPECT_FALSE(r.contains("rows"));
}

TEST(SegmentedJson, SpecShapesAsTextOrObjects) {
  const ExperimentSpec s = spec_from_json(
      R"({"variants": ["all"], "shapes": ["4096x4096, 2^10x2^14", {"rows": 3, "cols": 5}],
          "reduce": "columns"})");
  EXPECT_EQ(s.shapes, (std::vector<MatrixShape>{{4096, 4096}, {1024, 16384}, {3, 5}}));
  EXPECT_EQ(s.reduce, ReduceFilter::Columns);
  EXPECT_EQ(spec_from_json(spec_to_json(s)).shapes, s.shapes);
}

TEST(SegmentedJson, BadValuesNameTheField) {
  EXPECT_NE(testing::spec_error(R"({"shapes": ["4096"]})").find("shapes[0]: shape '4096'"),
            std::string::npos)
      << testing::spec_error(R"({"shapes": ["4096"]})");
  EXPECT_NE(testing::spec_error(R"({"shapes": [{"rows": 4}]})").find("shapes[0].cols: missing"),
            std::string::npos);
  EXPECT_NE(testing::spec_error(R"({"shapes": [{"rows": 4, "cols": 4, "x": 1}]})")
                .find("shapes[0].x: unknown field"),
            std::string::npos);
  EXPECT_NE(testing::spec_error(R"({"reduce": "diagonals"})").find("reduce: expected rows"),
            std::string::npos);

  Json doc = Json::parse(session_to_json(matrix_session()));
  Json& last = doc["results"].back();
  last["rows"] = 4095;
  EXPECT_NE(testing::session_error(doc.dump()).find("is not the size"), std::string::npos);
  last.erase("rows");
  EXPECT_NE(testing::session_error(doc.dump()).find("rows: missing"), std::string::npos)
      << testing::session_error(doc.dump());
  last.erase("cols");
  EXPECT_NE(testing::session_error(doc.dump()).find("sums a matrix"), std::string::npos)
      << testing::session_error(doc.dump());
  Json whole = Json::parse(session_to_json(testing::make_full_session()));
  whole["results"][0]["rows"] = 1;
  whole["results"][0]["cols"] = whole["results"][0]["size"];
  EXPECT_NE(testing::session_error(whole.dump()).find("sums a whole array"), std::string::npos);
}

TEST(SegmentedCsv, RowsAndColsColumns) {
  const std::string csv = summary_csv(matrix_session());
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find("size,rows,cols,type"), std::string::npos) << header;
  EXPECT_NE(csv.find(",16777216,4096,4096,float32,"), std::string::npos);
  EXPECT_NE(csv.find(",16777216,,,int32,"), std::string::npos);  // a whole-array point
}

}  // namespace
}  // namespace rl
