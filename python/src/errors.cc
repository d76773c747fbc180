#include "errors.h"

#include <map>

namespace ge::python {
namespace {

namespace py = pybind11;

// Owned by the module's namespace once registered; these are borrowed pointers that live as long as the process
// (the module is never unloaded).
std::map<StatusCode, PyObject*>& ExceptionTypes() {
  static auto* types = new std::map<StatusCode, PyObject*>();
  return *types;
}

PyObject* NewException(py::module_& m, const char* name, const char* doc, PyObject* bases) {
  const std::string qualified = std::string("ge.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));  // the module keeps a reference of its own
  return type;
}

}  // namespace

void RegisterErrors(py::module_& m) {
  PyObject* base =
      NewException(m, "Error", "An error ge reported: the message is ge's status (CODE: message).", PyExc_RuntimeError);
  struct Kind {
    StatusCode code;
    const char* name;
    PyObject* also;  // a builtin the class derives from too, or null
    const char* doc;
  };
  const Kind kinds[] = {
      {StatusCode::kInvalidArgument, "InvalidArgument", PyExc_ValueError,
       "A malformed argument: a bad model, input name, dtype, shape, option or attribute."},
      {StatusCode::kNotFound, "NotFound", PyExc_LookupError, "A named thing (file, op, value) does not exist."},
      {StatusCode::kUnimplemented, "Unimplemented", PyExc_NotImplementedError,
       "Valid input that ge does not support yet."},
      {StatusCode::kOutOfRange, "OutOfRange", PyExc_ValueError, "An index or size outside the allowed range."},
      {StatusCode::kResourceExhausted, "ResourceExhausted", nullptr, "A memory or queue limit was reached."},
      {StatusCode::kFailedPrecondition, "FailedPrecondition", nullptr, "Call order or state is wrong."},
      {StatusCode::kDataLoss, "DataLoss", nullptr, "A file is truncated or corrupt."},
      {StatusCode::kTimeout, "Timeout", nullptr, "An operation ran past its deadline."},
      {StatusCode::kAborted, "Aborted", nullptr, "An operation was stopped on request."},
      {StatusCode::kInternal, "Internal", nullptr, "A bug in ge."},
  };
  ExceptionTypes()[StatusCode::kOk] = base;  // the fallback for codes without a class
  for (const Kind& k : kinds) {
    py::tuple bases = k.also ? py::make_tuple(py::handle(base), py::handle(k.also)) : py::make_tuple(py::handle(base));
    ExceptionTypes()[k.code] = NewException(m, k.name, k.doc, bases.ptr());
  }
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  auto it = ExceptionTypes().find(status.code());
  PyObject* type = it != ExceptionTypes().end() ? it->second : ExceptionTypes()[StatusCode::kOk];
  PyErr_SetString(type, status.ToString().c_str());
  throw py::error_already_set();
}

void ThrowInvalidArgument(const std::string& message) {
  ThrowIfError(InvalidArgument(message));
  throw std::logic_error("unreachable");
}

}  // namespace ge::python
