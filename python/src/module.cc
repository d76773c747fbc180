// The ge Python module's native part (ge._ge): pybind11 over include/ge only, linked to libge.so alone.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "errors.h"

PYBIND11_MODULE(_ge, m) {
  m.doc() = "ge: a graph compiler and runtime for neural networks on the CPU (native part; import ge).";
  pybind11::module_::import("numpy");
  ge::python::RegisterErrors(m);
  ge::python::RegisterCompile(m);
  ge::python::RegisterOfflineModel(m);
  ge::python::RegisterInferenceSession(m);
  ge::python::RegisterSingleOp(m);
  ge::python::RegisterSession(m);
  ge::python::RegisterTraining(m);
}
