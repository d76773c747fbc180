// numpy ↔ ge: dtypes, ONNX Runtime's type strings ("tensor(float)"), arrays as ge::Tensors without a copy and
// ge::Tensors as arrays over ge's storage. Every function here needs the GIL.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "ge/tensor.h"
#include "ge/types.h"

namespace ge::python {

// The numpy dtype of a ge dtype; InvalidArgument for those numpy lacks (bfloat16, strings, undefined).
pybind11::dtype NumpyDtype(DataType dt);
// The ge dtype of a numpy dtype (by kind and size, any byte order); kUndefined when ge has none.
DataType GeDtype(const pybind11::dtype& dtype);
// "tensor(float)", "tensor(int64)", ... as ONNX Runtime names them.
std::string OrtTypeString(DataType dt);

// `value` as an array of exactly `dt`, C-contiguous, aligned and in native byte order: the caller's own array when
// it already is one (no copy), else a converted copy. A value of another dtype is refused (InvalidArgument naming
// `what`, the dtype given and the one expected), as ONNX Runtime refuses it.
pybind11::array ArrayForInput(const pybind11::handle& value, DataType dt, const std::string& what);

// A ge::Tensor over the array's bytes (borrowed: the array must outlive the tensor's use).
Tensor BorrowTensor(const pybind11::array& array, DataType dt);

// An array over the tensor's storage (kept alive by the array) or, when `copy`, over a copy.
pybind11::array TensorToArray(const Tensor& tensor, bool copy);

// A shape as Python shows it: known dims as ints, unknown ones as their symbol or None.
pybind11::list ShapeList(const std::vector<int64_t>& dims, const std::vector<std::string>& dim_names);
// "[1, 3, 224, 224]" for messages.
std::string DimsString(const std::vector<int64_t>& dims);

}  // namespace ge::python
