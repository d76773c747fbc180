#include "model_source.h"

#include <cstring>
#include <fstream>

#include "errors.h"

namespace ge::python {

namespace py = pybind11;

ModelArgument ReadModelArgument(const py::handle& model) {
  ModelArgument arg;
  py::object os = py::module_::import("os");
  if (py::isinstance<py::str>(model) || py::isinstance(model, os.attr("PathLike"))) {
    arg.path = py::str(os.attr("fspath")(model)).cast<std::string>();
    if (arg.path.empty()) ThrowInvalidArgument("the model path is empty");
    std::ifstream in(arg.path, std::ios::binary);
    if (!in) ThrowIfError(NotFound("cannot open model file '" + arg.path + "'"));
    char head[256];
    in.read(head, sizeof(head));
    arg.format = DetectModelFormat(head, static_cast<size_t>(in.gcount()));
    return arg;
  }
  if (!PyObject_CheckBuffer(model.ptr())) {
    throw py::type_error("a model is a path (str or os.PathLike) or its bytes, got " +
                         py::str(model.get_type()).cast<std::string>());
  }
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(model).request();
  const size_t size = static_cast<size_t>(info.size * info.itemsize);
  arg.bytes.resize(size);
  if (size > 0) std::memcpy(arg.bytes.data(), info.ptr, size);
  arg.format = DetectModelFormat(arg.bytes.data(), arg.bytes.size());
  return arg;
}

namespace {

std::map<std::string, std::vector<int64_t>> ShapesFromPython(const py::handle& value) {
  std::map<std::string, std::vector<int64_t>> shapes;
  if (!py::isinstance<py::dict>(value)) throw py::type_error("input_shapes is a dict {input name: [dims]}");
  for (auto [name, dims] : py::reinterpret_borrow<py::dict>(value)) {
    if (py::isinstance<py::str>(dims) || !py::isinstance<py::sequence>(dims)) {
      throw py::type_error("input_shapes['" + py::str(name).cast<std::string>() + "'] is a list of dims");
    }
    std::vector<int64_t> out;
    for (py::handle d : dims) {
      out.push_back(d.is_none() || py::isinstance<py::str>(d) ? -1 : d.cast<int64_t>());  // None / a symbol: keep it
    }
    shapes[py::str(name).cast<std::string>()] = std::move(out);
  }
  return shapes;
}

}  // namespace

std::map<std::string, std::string> OptionsFromPython(const py::handle& value) {
  if (!py::isinstance<py::dict>(value)) throw py::type_error("options is a dict {\"ge.key\": value}");
  std::map<std::string, std::string> out;
  for (auto [key, v] : py::reinterpret_borrow<py::dict>(value)) {
    // ge's options are strings; Python's True/False and numbers read as GE's "1"/"0" and digits.
    std::string text = py::isinstance<py::bool_>(v) ? (v.cast<bool>() ? "1" : "0") : py::str(v).cast<std::string>();
    out[py::str(key).cast<std::string>()] = std::move(text);
  }
  return out;
}

CompileOptions CompileOptionsFromKwargs(const py::kwargs& kwargs) {
  CompileOptions o;
  for (auto [key_handle, value] : kwargs) {
    const std::string key = py::str(key_handle).cast<std::string>();
    if (key == "threads") {
      o.threads = value.cast<int>();
    } else if (key == "target") {
      o.target = value.cast<std::string>();
    } else if (key == "input_shapes") {
      if (!value.is_none()) o.input_shapes = ShapesFromPython(value);
    } else if (key == "input_shape") {
      if (!value.is_none()) o.input_shape_spec = value.cast<std::string>();
    } else if (key == "options") {
      if (!value.is_none()) o.options = OptionsFromPython(value);
    } else if (key == "runtime") {
      o.runtime = value.cast<std::string>();
    } else if (key == "tune") {
      o.tune = value.cast<bool>();
    } else if (key == "embed_external_data") {
      o.embed_external_data = value.cast<bool>();
    } else if (key == "model_name") {
      o.model_name = value.cast<std::string>();
    } else {
      throw py::type_error("compile() got an unexpected keyword argument '" + key +
                           "' (threads, target, input_shapes, input_shape, options, runtime, tune, "
                           "embed_external_data, model_name)");
    }
  }
  return o;
}

}  // namespace ge::python
