#include "numpy_tensor.h"

#include <cstring>
#include <memory>

#include "errors.h"

namespace ge::python {

namespace py = pybind11;

py::dtype NumpyDtype(DataType dt) {
  switch (dt) {
    case DataType::kFloat:
      return py::dtype("float32");
    case DataType::kUint8:
      return py::dtype("uint8");
    case DataType::kInt8:
      return py::dtype("int8");
    case DataType::kUint16:
      return py::dtype("uint16");
    case DataType::kInt16:
      return py::dtype("int16");
    case DataType::kInt32:
      return py::dtype("int32");
    case DataType::kInt64:
      return py::dtype("int64");
    case DataType::kBool:
      return py::dtype("bool");
    case DataType::kFloat16:
      return py::dtype("float16");
    case DataType::kDouble:
      return py::dtype("float64");
    case DataType::kUint32:
      return py::dtype("uint32");
    case DataType::kUint64:
      return py::dtype("uint64");
    case DataType::kComplex64:
      return py::dtype("complex64");
    case DataType::kComplex128:
      return py::dtype("complex128");
    case DataType::kString:
    case DataType::kBFloat16:
    case DataType::kUndefined:
      break;
  }
  ThrowInvalidArgument(std::string("ge's Python module has no numpy dtype for ") + DataTypeName(dt) + " tensors");
}

DataType GeDtype(const py::dtype& dtype) {
  const size_t size = static_cast<size_t>(dtype.itemsize());
  switch (dtype.kind()) {
    case 'f':
      return size == 4   ? DataType::kFloat
             : size == 8 ? DataType::kDouble
             : size == 2 ? DataType::kFloat16
                         : DataType::kUndefined;
    case 'i':
      return size == 1   ? DataType::kInt8
             : size == 2 ? DataType::kInt16
             : size == 4 ? DataType::kInt32
             : size == 8 ? DataType::kInt64
                         : DataType::kUndefined;
    case 'u':
      return size == 1   ? DataType::kUint8
             : size == 2 ? DataType::kUint16
             : size == 4 ? DataType::kUint32
             : size == 8 ? DataType::kUint64
                         : DataType::kUndefined;
    case 'b':
      return size == 1 ? DataType::kBool : DataType::kUndefined;
    case 'c':
      return size == 8 ? DataType::kComplex64 : size == 16 ? DataType::kComplex128 : DataType::kUndefined;
    default:
      return DataType::kUndefined;
  }
}

std::string OrtTypeString(DataType dt) {
  switch (dt) {
    case DataType::kFloat:
      return "tensor(float)";
    case DataType::kDouble:
      return "tensor(double)";
    case DataType::kUndefined:
      return "tensor(undefined)";
    default:
      return std::string("tensor(") + DataTypeName(dt) + ")";
  }
}

namespace {

std::string NumpyTypeString(const py::dtype& dtype) {
  const DataType dt = GeDtype(dtype);
  return dt == DataType::kUndefined ? "numpy " + py::str(py::handle(dtype)).cast<std::string>() : OrtTypeString(dt);
}

bool NativeByteOrder(const py::dtype& dtype) {
  const char order = py::detail::array_descriptor_proxy(dtype.ptr())->byteorder;
  return order == '=' || order == '|' || order == '<';  // ge runs on little-endian x86-64
}

}  // namespace

py::array ArrayForInput(const py::handle& value, DataType dt, const std::string& what) {
  py::array array;
  if (py::isinstance<py::array>(value)) {
    array = py::reinterpret_borrow<py::array>(value);
  } else {
    try {
      array = py::array::ensure(value);
    } catch (const py::error_already_set&) {
    }
    if (!array)
      ThrowInvalidArgument(what + ": expected a numpy array, got " + py::str(value.get_type()).cast<std::string>());
  }
  const py::dtype given = array.dtype();
  if (GeDtype(given) != dt) {
    ThrowInvalidArgument(what + ": unexpected data type " + NumpyTypeString(given) + ", expected " + OrtTypeString(dt));
  }
  const int flags = array.flags();
  if ((flags & py::array::c_style) != 0 && (flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_) != 0 &&
      NativeByteOrder(given)) {
    return array;
  }
  return py::array(py::module_::import("numpy").attr("ascontiguousarray")(array, NumpyDtype(dt)));
}

Tensor BorrowTensor(const py::array& array, DataType dt) {
  Dims dims(array.shape(), array.shape() + array.ndim());
  const size_t nbytes = static_cast<size_t>(array.nbytes());
  return Tensor(dt, std::move(dims), TensorStorage::Borrow(const_cast<void*>(array.data()), nbytes, nullptr));
}

py::array TensorToArray(const Tensor& tensor, bool copy) {
  const py::dtype dtype = NumpyDtype(tensor.dtype());
  std::vector<py::ssize_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (copy || tensor.raw_data() == nullptr) {
    py::array out(dtype, shape);
    if (tensor.nbytes() > 0) std::memcpy(out.mutable_data(), tensor.raw_data(), tensor.nbytes());
    return out;
  }
  // The capsule owns a Tensor copy (sharing the storage) until numpy releases the array.
  auto* owner = new Tensor(tensor);
  py::capsule base(owner, [](void* p) { delete static_cast<Tensor*>(p); });
  return py::array(dtype, shape, owner->raw_data(), base);
}

py::list ShapeList(const std::vector<int64_t>& dims, const std::vector<std::string>& dim_names) {
  py::list out;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= 0) {
      out.append(dims[i]);
    } else if (i < dim_names.size() && !dim_names[i].empty()) {
      out.append(dim_names[i]);
    } else {
      out.append(py::none());
    }
  }
  return out;
}

std::string DimsString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace ge::python
