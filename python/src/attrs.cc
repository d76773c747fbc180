#include "attrs.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "errors.h"
#include "numpy_tensor.h"

namespace ge::python {

namespace py = pybind11;

namespace {

bool IsInt(const py::handle& v) { return py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v); }

AttrValue AttrFromPython(const std::string& name, const py::handle& v) {
  if (IsInt(v)) return AttrValue(v.cast<int64_t>());
  if (py::isinstance<py::float_>(v)) return AttrValue(v.cast<double>());
  if (py::isinstance<py::str>(v)) return AttrValue(v.cast<std::string>());
  if (py::isinstance<py::array>(v)) {
    py::array a = py::reinterpret_borrow<py::array>(v);
    const DataType dt = GeDtype(a.dtype());
    if (dt == DataType::kUndefined) ThrowInvalidArgument("attribute '" + name + "': an array of an unsupported dtype");
    return AttrValue(BorrowTensor(ArrayForInput(a, dt, "attribute '" + name + "'"), dt).Clone().value());
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
    bool all_int = true, all_number = true, all_str = true;
    for (py::handle e : seq) {
      all_int = all_int && IsInt(e);
      all_number = all_number && (IsInt(e) || py::isinstance<py::float_>(e));
      all_str = all_str && py::isinstance<py::str>(e);
    }
    if (all_int) return AttrValue(seq.cast<std::vector<int64_t>>());
    if (all_number) return AttrValue(seq.cast<std::vector<float>>());
    if (all_str) return AttrValue(seq.cast<std::vector<std::string>>());
  }
  throw py::type_error("attribute '" + name +
                       "': an int, float, str, numpy array or a list of ints, floats or "
                       "strs, got " +
                       py::str(v.get_type()).cast<std::string>());
}

}  // namespace

Attrs AttrsFromPython(const py::handle& attrs) {
  Attrs out;
  if (attrs.is_none()) return out;
  if (!py::isinstance<py::dict>(attrs)) throw py::type_error("attrs is a dict {name: value}");
  for (auto [key, value] : py::reinterpret_borrow<py::dict>(attrs)) {
    const std::string name = py::str(key).cast<std::string>();
    out.insert_or_assign(name, AttrFromPython(name, value));
  }
  return out;
}

}  // namespace ge::python
