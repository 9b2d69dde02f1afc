// The spec's rules for matrices (ExperimentSpec::shapes and the variants that sum each row or
// column), beside spec_validate.cpp's rules for whole arrays. Private to the experiment folder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/experiment/spec.h"

namespace rl::spec_detail {

// Whether `all` stands for v in spec s: on a spec with shapes, the matrix variants its reduce
// filter takes; otherwise every whole-array reduction. Labs never.
bool all_considers(const VariantInfo& v, const ExperimentSpec& s);

// Every shape's problems ("shape 0x5: rows must be at least 1", too large, memory), a matrix
// variant named without shapes, shapes with no matrix variant to run on them.
void check_shapes(const ExperimentSpec& s, const std::vector<VariantRef>& refs,
                  const DeviceInfo* device, std::vector<std::string>& errors);

// Host and device memory for a point like p (a whole-array one at every workspace of s;
// spec_validate.cpp); `what` starts
// each message ("size 2^34", "shape 65536x262144").
void check_memory(const std::string& what, PointSpec p, const ExperimentSpec& s,
                  const DeviceInfo* device, std::uint64_t host_have,
                  std::vector<std::string>& errors);
std::uint64_t installed_host_memory();

}  // namespace rl::spec_detail
