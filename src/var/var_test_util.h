// Helpers shared by the var tests: a static tensor desc and a variable request.
#pragma once
#include <string>
#include <utility>

#include "var/var_manager.h"

namespace ge::var::testing {

inline TensorDesc Desc(Dims dims, DataType dt = DataType::kFloat, Format f = Format::kND) {
  TensorDesc d(dt, Shape(std::move(dims)));
  d.format = f;
  return d;
}

inline TensorDesc Desc(Dims dims, Format f) { return Desc(std::move(dims), DataType::kFloat, f); }

inline VarRequest Var(const std::string& name, const TensorDesc& desc) {
  VarRequest r;
  r.name = name;
  r.desc = desc;
  return r;
}

}  // namespace ge::var::testing
