// ge.compile and ge.CompileReport (include/ge/compile.h).
#include <pybind11/stl.h>

#include "bindings.h"
#include "errors.h"
#include "model_source.h"

namespace ge::python {

namespace py = pybind11;

namespace {

StatusOr<CompiledModel> CompileWithoutGil(const ModelArgument& model, const CompileOptions& options) {
  py::gil_scoped_release release;
  return Compile(model.source(), options);
}

std::string ReportRepr(const CompileReport& r) {
  return "CompileReport(runtime='" + r.runtime + "', target='" + r.target +
         "', nodes=" + std::to_string(r.nodes_after) + ", feature_map_bytes=" + std::to_string(r.feature_map_bytes) +
         ", weights_bytes=" + std::to_string(r.weights_bytes) + ")";
}

py::object CompileModel(const py::object& model, const py::object& output, bool return_report,
                        const py::kwargs& kwargs) {
  const CompileOptions options = CompileOptionsFromKwargs(kwargs);
  const ModelArgument arg = ReadModelArgument(model);
  if (output.is_none()) {
    CompiledModel compiled = ValueOrThrow(CompileWithoutGil(arg, options));
    py::bytes om(reinterpret_cast<const char*>(compiled.om.data()), compiled.om.size());
    if (return_report) return py::make_tuple(om, compiled.report);
    return std::move(om);
  }
  const std::string path = py::str(py::module_::import("os").attr("fspath")(output)).cast<std::string>();
  StatusOr<CompileReport> report = [&] {
    py::gil_scoped_release release;
    return CompileToFile(arg.source(), path, options);
  }();
  return py::cast(ValueOrThrow(std::move(report)));
}

}  // namespace

void RegisterCompile(py::module_& m) {
  py::class_<CompileReport>(m, "CompileReport", "What the compiler made (`ge compile --json` prints the same).")
      .def_readonly("static_model", &CompileReport::static_model,
                    "True: a compiled model for the sink runtime; False: lowered for runtime v2.")
      .def_readonly("dynamic_reason", &CompileReport::dynamic_reason, "Why the model is not static.")
      .def_readonly("runtime", &CompileReport::runtime, "'sink' or 'v2': the runtime that will run the .om.")
      .def_readonly("target", &CompileReport::target, "The resolved CPU target, e.g. 'x86-64-v4'.")
      .def_readonly("notes", &CompileReport::notes)
      .def_readonly("nodes_before", &CompileReport::nodes_before)
      .def_readonly("nodes_after", &CompileReport::nodes_after)
      .def_readonly("feature_map_bytes", &CompileReport::feature_map_bytes)
      .def_readonly("feature_map_lower_bound_bytes", &CompileReport::feature_map_lower_bound_bytes)
      .def_readonly("weights_bytes", &CompileReport::weights_bytes)
      .def_readonly("memory_strategy", &CompileReport::memory_strategy)
      .def_readonly("streams", &CompileReport::streams)
      .def_readonly("events", &CompileReport::events)
      .def_readonly("tasks", &CompileReport::tasks)
      .def_readonly("elided_concats", &CompileReport::elided_concats)
      .def_readonly("impls", &CompileReport::impls, "Kernel implementations counted by name.")
      .def_readonly("external_weight_tensors", &CompileReport::external_weight_tensors)
      .def_readonly("external_weights_bytes", &CompileReport::external_weights_bytes)
      .def_readonly("external_weight_files", &CompileReport::external_weight_files)
      .def_readonly("external_data_tensors", &CompileReport::external_data_tensors)
      .def_readonly("external_data_bytes", &CompileReport::external_data_bytes)
      .def_readonly("static_islands", &CompileReport::static_islands)
      .def_readonly("static_island_nodes", &CompileReport::static_island_nodes)
      .def("__repr__", &ReportRepr);

  m.def("compile", &CompileModel, py::arg("model"), py::arg("output") = py::none(), py::kw_only(),
        py::arg("return_report") = false,
        R"(Compiles an ONNX model or ge IR text (.geir) into an offline model (.om).

model: a path (str or os.PathLike) or the model's bytes.
output: None returns the .om as bytes; a path writes it there (atomically) and returns the CompileReport.
return_report: with output=None, return (om_bytes, CompileReport) instead.
Keyword options (all optional):
  threads=0             intra-op threads the model will run with (0: the CPUs this process may use)
  target='native'       'native', 'x86-64-v2', 'x86-64-v3' or 'x86-64-v4'
  input_shapes={}       {input name: dims}; -1, None or a string keeps a dim symbolic
  input_shape=''        `ge compile --input_shape` text, e.g. 'x:1,3,224,224;ids:1,1~512'
  options={}            GE option keys, e.g. {'ge.exec.precision_mode': 'allow_bf16'}; unknown keys raise
  runtime='auto'        'auto', 'v1' (the sink runtime or an error) or 'v2'
  tune=False            time kernel variants on this machine and keep the fastest
  embed_external_data=False, model_name=''
Raises ge.InvalidArgument, ge.NotFound, ge.Unimplemented, ... with ge's message.)");

  m.def(
      "detect_model_format",
      [](const py::object& model) { return std::string(ModelFormatName(ReadModelArgument(model).format)); },
      py::arg("model"), "'onnx', 'geir', 'om' or 'unknown': what a path or bytes hold, from the first bytes.");
}

}  // namespace ge::python
