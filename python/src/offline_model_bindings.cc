// ge.NodeArg and ge.OfflineModel (include/ge/model.h): load an .om from a path or bytes, describe its inputs and
// outputs, execute it on numpy arrays.
#include <pybind11/stl.h>

#include "bindings.h"
#include "errors.h"
#include "loaded_model.h"
#include "model_source.h"
#include "node_arg.h"
#include "numpy_tensor.h"

namespace ge::python {

namespace py = pybind11;

std::vector<NodeArg> NodeArgs(const std::vector<ModelTensorDesc>& descs) {
  std::vector<NodeArg> out;
  out.reserve(descs.size());
  for (const ModelTensorDesc& d : descs) out.push_back(NodeArg{d});
  return out;
}

void RegisterNodeArg(py::module_& m) {
  py::class_<NodeArg>(m, "NodeArg", "One model input or output (ONNX Runtime's NodeArg, plus ge's dtype and dims).")
      .def_property_readonly("name", [](const NodeArg& a) { return a.desc.name; })
      .def_property_readonly(
          "shape", [](const NodeArg& a) { return ShapeList(a.desc.dims, a.desc.dim_names); },
          "Dims: an int when known, the symbol's name (str) for a named unknown dim, None for an unnamed one.")
      .def_property_readonly(
          "type", [](const NodeArg& a) { return OrtTypeString(a.desc.dtype); }, "e.g. 'tensor(float)'.")
      .def_property_readonly(
          "dtype",
          [](const NodeArg& a) -> py::object {
            try {
              return NumpyDtype(a.desc.dtype);
            } catch (const py::error_already_set&) {
              PyErr_Clear();
              return py::none();
            }
          },
          "The numpy dtype (None where numpy has none, e.g. bfloat16).")
      .def_property_readonly(
          "dims", [](const NodeArg& a) { return a.desc.dims; }, "Dims with -1 for unknown ones.")
      .def_property_readonly(
          "bytes", [](const NodeArg& a) { return a.desc.bytes; }, "Exact size in bytes (0 when dynamic).")
      .def("__repr__", [](const NodeArg& a) {
        return "NodeArg(name='" + a.desc.name + "', type='" + OrtTypeString(a.desc.dtype) +
               "', shape=" + py::repr(ShapeList(a.desc.dims, a.desc.dim_names)).cast<std::string>() + ")";
      });
}

namespace {

OfflineModelOptions LoadOptions(int intra_op_threads, int max_concurrent_executions, bool profile, bool trace) {
  OfflineModelOptions o;
  o.intra_op_threads = intra_op_threads;
  o.max_concurrent_executions = max_concurrent_executions;
  o.profile = profile;
  o.trace = trace;
  return o;
}

std::shared_ptr<LoadedModel> LoadOm(const py::object& model, const OfflineModelOptions& options) {
  ModelArgument arg = ReadModelArgument(model);
  if (arg.format != ModelFormat::kOm) {
    const std::string what = arg.is_path() ? "'" + arg.path + "' is" : "the model bytes are";
    ThrowIfError(InvalidArgument(
        what + " not an offline model (.om)" +
        (arg.format == ModelFormat::kUnknown
             ? std::string(arg.is_path() || !arg.bytes.empty() ? "" : ": empty")
             : std::string(" but ") + ModelFormatName(arg.format) + ": compile it with ge.compile first")));
  }
  return arg.is_path() ? LoadedModel::FromFile(arg.path, options)
                       : LoadedModel::FromBytes(std::move(arg.bytes), options);
}

// A list in the model's input order, or a dict by input name.
std::vector<py::array> Execute(LoadedModel& m, const py::object& inputs) {
  std::vector<py::handle> ordered;
  if (py::isinstance<py::dict>(inputs)) {
    ordered = m.OrderFeed(py::reinterpret_borrow<py::dict>(inputs));
  } else {
    for (py::handle h : inputs) ordered.push_back(h);
  }
  return m.Run(ordered);
}

}  // namespace

void RegisterOfflineModel(py::module_& m) {
  RegisterNodeArg(m);
  py::class_<LoadedModel, std::shared_ptr<LoadedModel>>(
      m, "OfflineModel",
      "A loaded offline model (.om): describe its inputs and outputs, execute it on numpy arrays. Thread-safe: "
      "one model serves concurrent execute() calls (the GIL is released while it runs).")
      .def(py::init([](const py::object& model, int intra_op_threads, int max_concurrent_executions, bool profile,
                       bool trace) {
             return LoadOm(model, LoadOptions(intra_op_threads, max_concurrent_executions, profile, trace));
           }),
           py::arg("model"), py::kw_only(), py::arg("intra_op_threads") = 0, py::arg("max_concurrent_executions") = 4,
           py::arg("profile") = false, py::arg("trace") = false,
           "Loads an .om from a path or bytes. intra_op_threads=0: the CPUs this process may use. trace=True records "
           "a timeline from the load on (write_trace writes it).")
      .def_property_readonly("name", [](const LoadedModel& lm) { return lm.model().name(); })
      .def_property_readonly(
          "inputs", [](const LoadedModel& lm) { return NodeArgs(lm.inputs()); }, "The inputs as NodeArgs.")
      .def_property_readonly(
          "outputs", [](const LoadedModel& lm) { return NodeArgs(lm.outputs()); }, "The outputs as NodeArgs.")
      .def_property_readonly(
          "runtime", [](const LoadedModel& lm) { return lm.model().runtime(); },
          "The runtime that runs it: 'sink' (static), 'v2' (lowered) or 'interpreter'.")
      .def_property_readonly(
          "target", [](const LoadedModel& lm) { return lm.model().target(); }, "The CPU level it was compiled for.")
      .def_property_readonly(
          "dynamic", [](const LoadedModel& lm) { return lm.model().dynamic(); }, "Whether any dim is unknown.")
      .def_property_readonly("feature_map_bytes", [](const LoadedModel& lm) { return lm.model().feature_map_bytes(); })
      .def_property_readonly("kernel_impls", [](const LoadedModel& lm) { return lm.model().kernel_impls(); })
      .def_property_readonly("loaded", [](const LoadedModel& lm) { return lm.model().loaded(); })
      .def("execute", &Execute, py::arg("inputs"),
           "Runs the model: inputs as a list in the model's order or a dict by name; returns the outputs as a list "
           "of numpy arrays. Raises ge.InvalidArgument for a wrong count, name, dtype or shape.")
      .def(
          "profile",
          [](LoadedModel& lm) {
            py::list out;
            for (const KernelProfile& p : lm.model().Profile()) {
              py::dict d;
              d["node"] = p.node;
              d["op_type"] = p.op_type;
              d["impl"] = p.impl;
              d["seconds"] = p.seconds;
              d["runs"] = p.runs;
              out.append(d);
            }
            return out;
          },
          "Per-node kernel times since load (loaded with profile=True), in task order.")
      .def(
          "write_trace",
          [](LoadedModel& lm, const std::string& path) {
            Status st;
            {
              py::gil_scoped_release release;
              st = lm.model().WriteTrace(path);
            }
            ThrowIfError(st);
          },
          py::arg("path"),
          "Writes the timeline recorded since load (loaded with trace=True) as a Chrome / Perfetto trace-event "
          "JSON file: the load phases and one slice per kernel run.")
      .def(
          "unload", [](LoadedModel& lm) { ThrowIfError(lm.model().Unload()); },
          "Frees the model; later execute() calls raise ge.FailedPrecondition.")
      .def("__enter__", [](std::shared_ptr<LoadedModel> lm) { return lm; })
      .def("__exit__", [](LoadedModel& lm, py::args) { lm.model().Unload().IgnoreError(); })
      .def("__repr__", [](const LoadedModel& lm) {
        return "OfflineModel(name='" + lm.model().name() + "', runtime='" + lm.model().runtime() + "', inputs=[" +
               lm.InputNames() + "], outputs=[" + lm.OutputNames() + "])";
      });
}

}  // namespace ge::python
