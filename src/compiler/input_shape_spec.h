// `--input_shape` (GE's spelling, DESIGN.md §9): "name:1,3,224,224;ids:1,1~512". A dim is a size or a range
// LO~HI (both given, 0 <= LO <= HI); a range keeps the dim symbolic and is recorded in the model so runtime v2
// refuses sizes outside it. LO~LO is the size LO.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "base/shape.h"
#include "base/status.h"

namespace ge::compiler {

struct InputShapeSpec {
  // Per input: its dims, kUnknownDim where a range was given.
  std::map<std::string, Dims> shapes;
  // Per input with at least one range: one entry per dim ({0, -1} for the dims given as sizes).
  std::map<std::string, std::vector<DimRange>> ranges;
};

StatusOr<InputShapeSpec> ParseInputShapeSpec(const std::string& spec);

}  // namespace ge::compiler
