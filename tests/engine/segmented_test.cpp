// The rows and columns variants through the engine: catalog, shapes as people type them, the
// spec's rules (validation, `all`, expansion order), the host backend through the runner
// (every variant x type x awkward shape verified Ok), verification naming the first wrong row,
// and speed-ups against the baseline at the same shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/backend/backend.h"
#include "engine/catalog/catalog.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/presets.h"
#include "engine/experiment/spec.h"
#include "engine/measure/runner.h"
#include "engine/measure/verify.h"
#include "engine/model/block_model.h"
#include "engine/session/metrics.h"

namespace rl {
namespace {

// In catalog order.
const std::vector<std::string> kMatrixIds{"row_per_thread", "row_per_warp",       "row_per_block",
                                          "row_split",      "cub_segmented_rows", "column_strided",
                                          "column_tiled"};

bool has_message(const std::vector<std::string>& errors, const std::string& needle) {
  return std::any_of(errors.begin(), errors.end(),
                     [&](const std::string& e) { return e.find(needle) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

ExperimentSpec matrix_spec(std::vector<std::string> variants, std::vector<MatrixShape> shapes) {
  ExperimentSpec s;
  s.variants = std::move(variants);
  s.workspaces = {Workspace::Registers};
  s.block_sizes = {256};
  s.shapes = std::move(shapes);
  s.baseline = "cub_segmented_rows";
  return s;
}

TEST(SegmentedCatalog, EveryVariantSaysWhatItReduces) {
  for (const std::string& id : kMatrixIds) {
    const VariantInfo* v = find_variant_by_id(id);
    ASSERT_NE(v, nullptr) << id;
    EXPECT_TRUE(v->is_segmented()) << id;
    EXPECT_EQ(v->family, VariantFamily::RowsAndColumns) << id;
    EXPECT_FALSE(v->display_name.empty()) << id;
    EXPECT_FALSE(v->explanation.empty()) << id;
    const bool columns = id.rfind("column", 0) == 0;
    EXPECT_EQ(v->reduces, columns ? Reduces::Columns : Reduces::Rows) << id;
  }
  for (const VariantInfo& v : catalog())
    if (std::find(kMatrixIds.begin(), kMatrixIds.end(), v.id) == kMatrixIds.end())
      EXPECT_FALSE(v.is_segmented()) << v.id;
}

TEST(SegmentedCatalog, HeadingAfterTheModernOnesBeforeTheLabs) {
  const auto& h = family_headings();
  auto at = [&](VariantFamily f) {
    return std::find_if(h.begin(), h.end(), [&](const FamilyHeading& x) { return x.family == f; }) -
           h.begin();
  };
  EXPECT_EQ(h[at(VariantFamily::RowsAndColumns)].heading, "Rows and columns of a matrix");
  EXPECT_GT(at(VariantFamily::RowsAndColumns), at(VariantFamily::CubReference));
  EXPECT_LT(at(VariantFamily::RowsAndColumns), at(VariantFamily::DivergenceLab));
}

TEST(ShapeGrammar, ShapesAsPeopleTypeThem) {
  std::vector<MatrixShape> s;
  std::string error;
  ASSERT_TRUE(parse_shape_list("4096x4096, 2^12x2^12,16Kx1K, 1X7", &s, &error)) << error;
  EXPECT_EQ(s, (std::vector<MatrixShape>{{4096, 4096}, {4096, 4096}, {16384, 1024}, {1, 7}}));
  EXPECT_EQ(format_shape(s[2]), "16384x1024");
}

TEST(ShapeGrammar, ClearErrors) {
  std::vector<MatrixShape> s;
  std::string error;
  EXPECT_FALSE(parse_shape_list("4096", &s, &error));
  EXPECT_NE(error.find("expected ROWSxCOLS"), std::string::npos) << error;
  EXPECT_FALSE(parse_shape_list("0x5", &s, &error));
  EXPECT_NE(error.find("rows must be at least 1"), std::string::npos) << error;
  EXPECT_FALSE(parse_shape_list("5x0", &s, &error));
  EXPECT_NE(error.find("cols must be at least 1"), std::string::npos) << error;
  EXPECT_FALSE(parse_shape_list("4x", &s, &error));
  EXPECT_NE(error.find("cols missing"), std::string::npos) << error;
  EXPECT_FALSE(parse_shape_list("abcx4", &s, &error));
  EXPECT_NE(error.find("rows: "), std::string::npos) << error;
  EXPECT_FALSE(parse_shape_list("2^30x2^30", &s, &error));
  EXPECT_NE(error.find("at most 2^40"), std::string::npos) << error;
  EXPECT_FALSE(parse_shape_list("4x4,,8x8", &s, &error));
  EXPECT_FALSE(parse_shape_list("", &s, &error));
  EXPECT_NE(error.find("none given"), std::string::npos) << error;
}

TEST(ShapeGrammar, SweepAtAFixedTotal) {
  std::vector<std::uint64_t> cols;
  std::string error;
  ASSERT_TRUE(parse_size_list("32..2^24,1000,4097", &cols, &error)) << error;
  std::vector<MatrixShape> shapes;
  std::vector<std::string> notes;
  ASSERT_TRUE(shapes_at_total(cols, false, 1u << 24, &shapes, &notes, &error)) << error;
  ASSERT_EQ(shapes.size(), 22u);
  EXPECT_EQ(shapes.front(), (MatrixShape{1u << 19, 32}));
  EXPECT_EQ(shapes.back(), (MatrixShape{1, 1u << 24}));
  EXPECT_TRUE(std::is_sorted(shapes.begin(), shapes.end(),
                             [](auto& a, auto& b) { return a.cols < b.cols; }));
  EXPECT_NE(std::find(shapes.begin(), shapes.end(), MatrixShape{16777, 1000}), shapes.end());
  EXPECT_NE(std::find(shapes.begin(), shapes.end(), MatrixShape{4095, 4097}), shapes.end());
  ASSERT_EQ(notes.size(), 2u);  // 1000 and 4097 do not divide 2^24
  EXPECT_NE(notes[0].find("cols 1000: 2^24 / 1000 = 16777 rows"), std::string::npos) << notes[0];
  // Rows swept: cols = total / rows.
  ASSERT_TRUE(shapes_at_total({4, 8}, true, 64, &shapes, nullptr, &error));
  EXPECT_EQ(shapes, (std::vector<MatrixShape>{{4, 16}, {8, 8}}));
  EXPECT_FALSE(shapes_at_total({128}, false, 64, &shapes, nullptr, &error));
  EXPECT_NE(error.find("cols 128: must be from 1 to the total 64"), std::string::npos) << error;
}

TEST(SegmentedSpec, NamesEveryBadValue) {
  auto s = matrix_spec({"row_per_warp"}, {{0, 5}, {5, 0}, {1u << 30, 1u << 30}});
  const auto e = validate(s, nullptr);
  EXPECT_TRUE(has_message(e, "shape 0x5: rows must be at least 1")) << joined(e);
  EXPECT_TRUE(has_message(e, "shape 5x0: cols must be at least 1")) << joined(e);
  EXPECT_TRUE(has_message(e, "shape 1073741824x1073741824: rows x cols too large")) << joined(e);
}

TEST(SegmentedSpec, MatrixVariantNeedsShapesAndShapesNeedOne) {
  auto s = matrix_spec({"row_per_warp"}, {});
  EXPECT_TRUE(has_message(validate(s, nullptr),
                          "variant row_per_warp: sums each row of a matrix and needs shapes"));
  s = matrix_spec({"interleaved"}, {{4, 4}});
  s.workspaces = {Workspace::Global};
  s.block_sizes = {1024};
  EXPECT_TRUE(
      has_message(validate(s, nullptr), "shapes: no selected variant sums rows or columns"));
}

TEST(SegmentedSpec, MemoryCheckUsesTheMatrixBytes) {
  auto s = matrix_spec({"row_per_warp"}, {{1u << 20, 1u << 15}});  // 2^35 int32: 128 GiB
  DeviceInfo d;
  d.backend = "cuda";
  d.total_memory = std::size_t(80) << 30;
  d.free_memory = d.total_memory;
  d.cc_major = 9;
  EXPECT_TRUE(has_message(validate(s, &d), "shape 1048576x32768: needs"))
      << joined(validate(s, &d));
}

TEST(SegmentedSpec, AllTakesMatricesOnlyOnShapesAndFollowsTheFilter) {
  ExperimentSpec whole;
  whole.variants = {"all"};
  for (const std::string& id : resolve_all(whole, nullptr, nullptr).variants)
    EXPECT_FALSE(find_variant_by_id(id)->is_segmented()) << id;
  auto s = matrix_spec({"all"}, {{8, 8}});
  EXPECT_EQ(resolve_all(s, nullptr, nullptr).variants, kMatrixIds);
  s.reduce = ReduceFilter::Columns;
  EXPECT_EQ(resolve_all(s, nullptr, nullptr).variants,
            (std::vector<std::string>{"column_strided", "column_tiled"}));
  s.reduce = ReduceFilter::Rows;
  EXPECT_EQ(resolve_all(s, nullptr, nullptr).variants.size(), 5u);
  EXPECT_TRUE(validate(s, nullptr).empty()) << joined(validate(s, nullptr));
}

TEST(SegmentedSpec, ExpandOrderWholeArraysThenShapes) {
  ExperimentSpec s = matrix_spec({"interleaved", "row_per_warp", "column_tiled"}, {{4, 8}, {2, 3}});
  s.workspaces = {Workspace::Global, Workspace::Registers};
  s.sizes = {100};
  s.types = {DType::Int32, DType::Float32};
  ASSERT_TRUE(validate(s, nullptr).empty()) << joined(validate(s, nullptr));
  const auto points = expand(s);
  ASSERT_EQ(points.size(), count_points(s));
  std::vector<std::string> labels;
  for (const PointSpec& p : points)
    labels.push_back(p.variant + " " + p.size_text() + " " + std::string(to_string(p.type)));
  EXPECT_EQ(labels,
            (std::vector<std::string>{"interleaved 100 int32", "interleaved 100 float32",
                                      "row_per_warp 4x8 int32", "column_tiled 4x8 int32",
                                      "row_per_warp 4x8 float32", "column_tiled 4x8 float32",
                                      "row_per_warp 2x3 int32", "column_tiled 2x3 int32",
                                      "row_per_warp 2x3 float32", "column_tiled 2x3 float32"}));
  EXPECT_EQ(points[2].rows, 4u);
  EXPECT_EQ(points[2].cols, 8u);
  EXPECT_EQ(points[2].size, 32u);
  EXPECT_EQ(points[2].workspace, Workspace::Registers);
  EXPECT_EQ(points[0].rows, 0u);
  EXPECT_NE(points[2].label().find(" 4x8 int32"), std::string::npos) << points[2].label();
}

TEST(SegmentedSpec, DefaultBaselineForMatrices) {
  EXPECT_EQ(default_baseline(matrix_spec({"all"}, {{4, 4}})), "cub_segmented_rows");
  auto cols = matrix_spec({"all"}, {{4, 4}});
  cols.reduce = ReduceFilter::Columns;
  EXPECT_EQ(default_baseline(cols), "column_tiled");
  ExperimentSpec whole;
  EXPECT_EQ(default_baseline(whole), "neighbored");
}

TEST(SegmentedPreset, RowsAndColumnsIsValidAndSweepsTheWidths) {
  const Preset* p = find_preset("rows-and-columns");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(validate(p->spec, nullptr).empty()) << joined(validate(p->spec, nullptr));
  EXPECT_EQ(p->spec.variants, kMatrixIds);
  EXPECT_EQ(p->spec.shapes.size(), 22u);
  for (const MatrixShape& m : p->spec.shapes) EXPECT_LE(m.rows * m.cols, 1u << 24);
  EXPECT_EQ(p->spec.types, std::vector<DType>{DType::Int32});
  EXPECT_NE(p->description.find("--total 2^28"), std::string::npos);
  for (const Preset& other : presets())
    if (other.id != p->id)
      for (const std::string& v : other.spec.variants)
        if (const VariantInfo* info = find_variant_by_id(v))
          EXPECT_FALSE(info->is_segmented()) << other.id << ": " << v;
}

// Every variant x type x awkward shape through the runner on the host backend: verified Ok.
struct Case {
  std::string variant;
  DType type;
  MatrixShape shape;
};

class SegmentedHostRun : public ::testing::TestWithParam<Case> {};

TEST_P(SegmentedHostRun, VerifiedOk) {
  const Case& c = GetParam();
  ExperimentSpec s = matrix_spec({c.variant}, {c.shape});
  s.types = {c.type};
  s.baseline = c.variant;
  s.timing.budget_ms = 1;
  s.timing.min_samples = 1;
  s.timing.max_samples = 2;
  s.timing.warmup = 0;
  Runner runner(make_host_backend());
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 1u);
  const PointResult& r = session.results[0];
  EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
  EXPECT_EQ(r.point.rows, c.shape.rows);
  EXPECT_EQ(r.point.cols, c.shape.cols);
  if (c.type == DType::Int32)
    EXPECT_EQ(r.value, r.expected);
  else
    EXPECT_LT(r.rel_error, 1e-5);
  EXPECT_EQ(r.grid, 0u);               // the host's model has no blocks
  ASSERT_TRUE(r.speedup.has_value());  // against itself at the same shape
  EXPECT_DOUBLE_EQ(*r.speedup, 1.0);
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const std::string& v : kMatrixIds)
    for (DType t : {DType::Int32, DType::Float32})
      for (MatrixShape m : {MatrixShape{1, 5000}, MatrixShape{5000, 1}, MatrixShape{33, 1025},
                            MatrixShape{4097, 3}})
        out.push_back({v, t, m});
  return out;
}

INSTANTIATE_TEST_SUITE_P(EveryVariantTypeAndShape, SegmentedHostRun,
                         ::testing::ValuesIn(all_cases()), [](const auto& info) {
                           const Case& c = info.param;
                           return c.variant + "_" + std::string(to_string(c.type)) + "_" +
                                  format_shape(c.shape);
                         });

TEST(SegmentedVerify, NamesTheFirstWrongRowAndHowMany) {
  PointSpec p{"row_per_warp", Workspace::Registers, 256, 4, 33 * 1025, DType::Int32, 33, 1025};
  const InputData in = make_input(p.size, p.type);
  ReductionOutput out = *model_reduce_segmented(p, in);
  PointResult r;
  verify_point(p, in, out, true, &r);
  EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  out.partials_i64[7] += 1;
  out.partials_i64[20] -= 1;
  total_from_segments(out);
  verify_point(p, in, out, true, &r);
  EXPECT_EQ(r.status, PointStatus::Wrong);
  EXPECT_NE(r.message.find("row 7's sum"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("2 of 33 rows wrong"), std::string::npos) << r.message;
  out.partials_i64.pop_back();
  verify_point(p, in, out, true, &r);
  EXPECT_NE(r.message.find("32 row sums, expected 33"), std::string::npos) << r.message;
}

TEST(SegmentedVerify, FloatColumnsWithinTheTolerance) {
  PointSpec p{"column_tiled", Workspace::Registers, 256, 4, 4097 * 3, DType::Float32, 4097, 3};
  const InputData in = make_input(p.size, p.type);
  ReductionOutput out = *model_reduce_segmented(p, in);
  ASSERT_EQ(out.partials_f32.size(), 3u);
  PointResult r;
  verify_point(p, in, out, true, &r);
  EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  out.partials_f32[1] *= 1.01f;  // a few elements too many
  verify_point(p, in, out, true, &r);
  EXPECT_EQ(r.status, PointStatus::Wrong);
  EXPECT_NE(r.message.find("column 1's sum"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("1 of 3 columns wrong"), std::string::npos) << r.message;
  EXPECT_DOUBLE_EQ(segment_float_tolerance(1), 1e-6);
  EXPECT_DOUBLE_EQ(segment_float_tolerance(std::uint64_t(1) << 30), 1e-2);
}

TEST(SegmentedBaseline, SpeedUpsOnlyAtTheSameShape) {
  auto make = [](std::string v, std::uint64_t rows, std::uint64_t cols, double ms) {
    PointResult r;
    r.point = PointSpec{std::move(v), Workspace::Registers, 256,  4,
                        rows * cols,  DType::Int32,         rows, cols};
    r.total.samples = 5;
    r.total.median_ms = ms;
    return r;
  };
  std::vector<PointResult> results{make("cub_segmented_rows", 64, 64, 2.0),
                                   make("row_per_warp", 64, 64, 1.0),
                                   make("row_per_warp", 32, 128, 1.0)};
  results[0].point.block_size = 0;
  results[0].point.unroll = 1;
  compute_speedups(results, "cub_segmented_rows");
  ASSERT_TRUE(results[1].speedup.has_value());
  EXPECT_DOUBLE_EQ(*results[1].speedup, 2.0);
  EXPECT_FALSE(results[2].speedup.has_value());  // same elements, another shape
}

// The read floor is looked up by bytes: a matrix point finds the one of its rows x cols x 4.
TEST(SegmentedReadFloor, FoundByTheMatrixBytes) {
  PointResult r;
  r.point = PointSpec{"row_per_warp", Workspace::Registers, 256,  4,
                      4096u * 4096u,  DType::Int32,         4096, 4096};
  r.total.samples = 5;
  r.total.median_ms = 0.1;
  ReadFloor f;
  f.bytes = 4096u * 4096u * 4u;
  f.time.samples = 5;
  f.time.median_ms = 0.05;
  EXPECT_EQ(input_bytes(r.point), f.bytes);
  EXPECT_DOUBLE_EQ(point_rates(r, DeviceInfo{}, {f}).pct_of_read_floor, 50.0);
}

}  // namespace
}  // namespace rl
