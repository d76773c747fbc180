// The tensor a Constant node produces, from whichever value* attribute it carries (header-only: used by both the
// inference function and the reference kernel).
#pragma once
#include <string>
#include <vector>

#include "base/tensor.h"
#include "ir/attribute.h"

namespace ge::ops::shape_family {

inline StatusOr<Tensor> ConstantFromAttrs(const ir::AttrMap& attrs) {
  static const char* const kNames[] = {"value",        "value_float",  "value_floats", "value_int",
                                       "value_ints",   "value_string", "value_strings", "sparse_value"};
  int count = 0;
  std::string which;
  for (const char* n : kNames) {
    if (attrs.Has(n)) {
      ++count;
      which = n;
    }
  }
  if (count != 1) return InvalidArgument("exactly one value attribute is required, found " + std::to_string(count));
  if (which == "sparse_value") return Unimplemented("sparse_value constants are not supported");
  if (which == "value") {
    const Tensor* t = attrs.GetTensor("value");
    if (!t || !t->valid()) return InvalidArgument("attribute 'value' is not a tensor");
    return *t;
  }
  if (which == "value_float") return Tensor::Scalar<float>(attrs.GetFloat(which, 0));
  if (which == "value_int") return Tensor::Scalar<int64_t>(attrs.GetInt(which, 0));
  if (which == "value_floats") {
    std::vector<float> v = attrs.GetFloats(which);
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DataType::kFloat, {static_cast<int64_t>(v.size())}));
    for (size_t i = 0; i < v.size(); ++i) t.data<float>()[i] = v[i];
    return t;
  }
  if (which == "value_ints") {
    std::vector<int64_t> v = attrs.GetInts(which);
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DataType::kInt64, {static_cast<int64_t>(v.size())}));
    for (size_t i = 0; i < v.size(); ++i) t.data<int64_t>()[i] = v[i];
    return t;
  }
  if (which == "value_string") {
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DataType::kString, {}));
    t.data<std::string>()[0] = attrs.GetString(which, "");
    return t;
  }
  std::vector<std::string> v = attrs.GetStrings(which);
  GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DataType::kString, {static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.data<std::string>()[i] = v[i];
  return t;
}

}  // namespace ge::ops::shape_family
