// Value: what flows along an edge at run time: a tensor, a sequence of tensors, or an empty optional.
// (An optional that holds something is represented by what it holds.)
#pragma once
#include <vector>

#include "base/tensor.h"

namespace ge {

struct Value {
  enum class Kind { kNone, kTensor, kSequence, kOptionalNone };
  Kind kind = Kind::kNone;
  Tensor tensor;                 // kTensor
  std::vector<Tensor> sequence;  // kSequence
  DataType elem_dtype = DataType::kUndefined;  // kSequence (also when empty) and kOptionalNone
  bool optional_of_sequence = false;           // kOptionalNone: the optional's element was a sequence

  Value() = default;
  explicit Value(Tensor t) : kind(Kind::kTensor), tensor(std::move(t)) {}
  static Value Sequence(std::vector<Tensor> items, DataType elem) {
    Value v;
    v.kind = Kind::kSequence;
    v.sequence = std::move(items);
    v.elem_dtype = elem;
    return v;
  }
  static Value OptionalNone(DataType elem, bool of_sequence) {
    Value v;
    v.kind = Kind::kOptionalNone;
    v.elem_dtype = elem;
    v.optional_of_sequence = of_sequence;
    return v;
  }
  bool is_tensor() const { return kind == Kind::kTensor; }
  bool is_sequence() const { return kind == Kind::kSequence; }
  bool is_none() const { return kind == Kind::kNone || kind == Kind::kOptionalNone; }
};

}  // namespace ge
