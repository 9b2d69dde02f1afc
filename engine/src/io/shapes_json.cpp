// The matrix parts of specs and points in JSON (shapes_json.h).
#include "io/shapes_json.h"

#include "engine/catalog/catalog.h"
#include "io/json_bounded.h"
#include "io/json_read.h"

namespace rl::detail {

namespace {

using Json = nlohmann::ordered_json;

MatrixShape shape_from_object(const Json& v, const std::string& path) {
  MatrixShape m;
  bool rows = false, cols = false;
  for (const auto& [key, value] : v.items()) {
    const std::string p = json::join(path, key);
    if (key == "rows")
      m.rows = json::as_uint64(value, p), rows = true;
    else if (key == "cols")
      m.cols = json::as_uint64(value, p), cols = true;
    else
      json::fail(p, "unknown field (known: rows, cols)");
  }
  if (!rows) json::fail(json::join(path, "rows"), "missing");
  if (!cols) json::fail(json::join(path, "cols"), "missing");
  return m;
}

}  // namespace

void shapes_to_json(const ExperimentSpec& s, Json& spec) {
  if (!s.shapes.empty()) {
    Json shapes = Json::array();
    for (const MatrixShape& m : s.shapes)
      shapes.push_back(Json{{"rows", m.rows}, {"cols", m.cols}});
    spec["shapes"] = shapes;
  }
  if (s.reduce != ReduceFilter::Both) spec["reduce"] = to_string(s.reduce);
}

std::vector<MatrixShape> shapes_from_json(const Json& v, const std::string& path) {
  std::vector<MatrixShape> out;
  for (std::size_t i = 0; i < json::expect_array(v, path).size(); ++i) {
    const std::string at = json::index(path, i);
    if (v[i].is_object()) {
      out.push_back(shape_from_object(v[i], at));
    } else if (v[i].is_string()) {
      std::vector<MatrixShape> typed;
      std::string error;
      if (!parse_shape_list(v[i].get_ref<const std::string&>(), &typed, &error))
        json::fail(at, error);
      out.insert(out.end(), typed.begin(), typed.end());
    } else {
      json::fail(at, "expected {\"rows\": R, \"cols\": C} or text like \"4096x4096\"");
    }
    if (out.size() > kMaxJsonItems)
      json::fail(path, "more than " + std::to_string(kMaxJsonItems) + " shapes");
  }
  return out;
}

ReduceFilter reduce_from_json(const Json& v, const std::string& path) {
  const std::string s = json::as_string(v, path);
  ReduceFilter f = ReduceFilter::Both;
  if (!parse_reduce_filter(s, &f)) json::fail(path, "expected rows, columns or both");
  return f;
}

void point_shape_to_json(const PointSpec& p, Json& point) {
  if (!p.is_matrix()) return;
  point["rows"] = p.rows;
  point["cols"] = p.cols;
}

void point_shape_from_json(const Json& obj, const std::string& path, PointSpec& p) {
  const bool has_rows = obj.contains("rows"), has_cols = obj.contains("cols");
  if (has_rows != has_cols)
    json::fail(json::join(path, has_rows ? "cols" : "rows"), "missing (rows and cols go together)");
  const VariantInfo* v = find_variant_by_id(p.variant);
  const bool matrix = v && v->is_segmented();
  if (!has_rows) {
    if (matrix) json::fail(json::join(path, "rows"), "missing: " + p.variant + " sums a matrix");
    return;
  }
  if (!matrix)
    json::fail(json::join(path, "rows"), p.variant + " sums a whole array, not a matrix");
  p.rows = json::as_uint64(obj["rows"], json::join(path, "rows"));
  p.cols = json::as_uint64(obj["cols"], json::join(path, "cols"));
  if (p.rows == 0 || p.cols == 0 || p.rows > p.size / p.cols || p.rows * p.cols != p.size)
    json::fail(json::join(path, "rows"),
               format_shape(p.rows, p.cols) + " is not the size " + std::to_string(p.size));
}

}  // namespace rl::detail
