// ge.Session, ge.Graph and ge.initialize / ge.finalize (include/ge/session.h, include/ge/graph.h): graphs from ONNX
// or built in Python with session variables, run many times, variables read as numpy arrays, checkpoints.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <memory>

#include "attrs.h"
#include "bindings.h"
#include "errors.h"
#include "model_source.h"
#include "numpy_tensor.h"
#include "ge/session.h"

namespace ge::python {

namespace py = pybind11;

namespace {

DataType DtypeArg(const py::handle& dtype) {
  const DataType dt = GeDtype(py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype)));
  if (dt == DataType::kUndefined) ThrowInvalidArgument("a numpy dtype ge has no tensors of");
  return dt;
}

// A copy owned by ge (graphs keep constants; async runs outlive the call).
Tensor OwnedTensor(const py::handle& value, const std::string& what) {
  py::array a = py::array::ensure(value);
  if (!a) throw py::type_error(what + ": a numpy array");
  const DataType dt = GeDtype(a.dtype());
  if (dt == DataType::kUndefined) ThrowInvalidArgument(what + ": a numpy dtype ge has no tensors of");
  return ValueOrThrow(BorrowTensor(ArrayForInput(a, dt, what), dt).Clone());
}

std::vector<Tensor> OwnedTensors(const py::handle& inputs) {
  std::vector<Tensor> out;
  int i = 0;
  for (py::handle v : inputs) out.push_back(OwnedTensor(v, "input " + std::to_string(i++)));
  return out;
}

py::list ToArrayList(const std::vector<Tensor>& tensors) {
  py::list out;
  for (const Tensor& t : tensors) out.append(TensorToArray(t, t.storage() == nullptr || t.storage().use_count() != 1));
  return out;
}

class PyGraph {
 public:
  explicit PyGraph(Graph g) : graph_(std::move(g)) {}
  Graph& graph() { return graph_; }
  // Raises the builder's first error (ge keeps it until AddGraph otherwise).
  Graph::Value Check(Graph::Value v) {
    ThrowIfError(graph_.status());
    return v;
  }

 private:
  Graph graph_;
};

// Owns the session; releases the GIL while it is destroyed, so that a pending async callback can finish.
class PySession {
 public:
  explicit PySession(const Options& options) {
    ThrowIfError(GEInitialize());
    session_ = std::make_unique<Session>(options);
    ThrowIfError(session_->status());
  }
  ~PySession() {
    py::gil_scoped_release release;
    session_.reset();
  }
  Session& s() { return *session_; }

 private:
  std::unique_ptr<Session> session_;
};

// Writes `value` into the session variable `name` (created when the session has none of that name) through a
// graph of its own: Variable → Assign(Constant), added under a graph id no caller uses, run once and removed.
void SetVariable(Session& session, const std::string& name, const py::handle& value) {
  Tensor t = OwnedTensor(value, "variable '" + name + "'");
  std::vector<std::string> names = {name};
  std::vector<Tensor> current;
  if (session.GetVariables(names, current).ok() && current.size() == 1 &&
      (current[0].dtype() != t.dtype() || current[0].dims() != t.dims())) {
    ThrowInvalidArgument("variable '" + name + "' is " + DataTypeName(current[0].dtype()) +
                         DimsString(current[0].dims()) + ", the value " + DataTypeName(t.dtype()) +
                         DimsString(t.dims()));
  }
  Graph g("set_variable");
  Graph::Value var = g.Variable(name, t.dtype(), t.dims());
  g.AddOutput(g.Assign(var, g.Constant(name + "/value", t)));
  ThrowIfError(g.status());
  constexpr uint32_t kSetVariableGraph = 0xFFFFFFF0u;  // above any id the Python API hands out by convention
  ThrowIfError(session.AddGraph(kSetVariableGraph, g));
  std::vector<Tensor> out;
  Status st;
  {
    py::gil_scoped_release release;
    st = session.RunGraph(kSetVariableGraph, {}, out);
  }
  session.RemoveGraph(kSetVariableGraph).IgnoreError();
  ThrowIfError(st);
}

// The graph argument of add_graph: a ge.Graph, or the path of an ONNX or IR text (.geir) model.
Graph GraphArgument(const py::handle& graph) {
  if (py::isinstance<PyGraph>(graph)) return ValueOrThrow(graph.cast<PyGraph&>().graph().Clone());
  ModelArgument arg = ReadModelArgument(graph);
  if (!arg.is_path()) ThrowInvalidArgument("add_graph takes a ge.Graph or the path of an ONNX or .geir model");
  if (arg.format == ModelFormat::kGeir) return ValueOrThrow(Graph::FromGeirFile(arg.path));
  return ValueOrThrow(Graph::FromOnnxFile(arg.path));
}

Options OptionsArg(const py::object& options) { return options.is_none() ? Options{} : OptionsFromPython(options); }

void RegisterGraph(py::module_& m) {
  py::class_<Graph::Value>(m, "Value", "A value of a ge.Graph (an input, constant, variable or op output).")
      .def_readonly("id", &Graph::Value::id)
      .def("__repr__", [](const Graph::Value& v) { return "Value(" + std::to_string(v.id) + ")"; });

  py::class_<PyGraph>(m, "Graph",
                      "A graph for a ge.Session: from an ONNX file (Graph.from_onnx) or built here with inputs, "
                      "constants, session variables, any op of ge's op table and variable writes.")
      .def(py::init([](const std::string& name) { return new PyGraph(Graph(name)); }), py::arg("name") = "graph")
      .def_static(
          "from_onnx",
          [](const py::object& path) {
            return new PyGraph(ValueOrThrow(Graph::FromOnnxFile(ReadModelArgument(path).path)));
          },
          py::arg("path"), "The graph of an ONNX model file (training info kept).")
      .def_static(
          "from_geir",
          [](const py::object& path) {
            return new PyGraph(ValueOrThrow(Graph::FromGeirFile(ReadModelArgument(path).path)));
          },
          py::arg("path"), "The graph of a file in ge's IR text form (.geir, `ge compile --dump_graph` writes it).")
      .def_property_readonly("name", [](PyGraph& g) { return g.graph().name(); })
      .def(
          "input",
          [](PyGraph& g, const std::string& name, const py::object& dtype, const std::vector<int64_t>& dims) {
            return g.Check(g.graph().Input(name, DtypeArg(dtype), dims));
          },
          py::arg("name"), py::arg("dtype"), py::arg("dims"), "A graph input; -1 dims are symbolic.")
      .def(
          "constant",
          [](PyGraph& g, const std::string& name, const py::object& value) {
            return g.Check(g.graph().Constant(name, OwnedTensor(value, "constant '" + name + "'")));
          },
          py::arg("name"), py::arg("value"))
      .def(
          "variable",
          [](PyGraph& g, const std::string& name, const py::object& dtype, const std::vector<int64_t>& dims,
             const py::object& init) {
            if (init.is_none()) return g.Check(g.graph().Variable(name, DtypeArg(dtype), dims));
            Tensor t = OwnedTensor(init, "variable '" + name + "' init");
            return g.Check(g.graph().Variable(name, DtypeArg(dtype), dims, &t));
          },
          py::arg("name"), py::arg("dtype"), py::arg("dims"), py::arg("init") = py::none(),
          "A session variable shared by every graph of the session that names it; init fills it on first use "
          "(zeros without one).")
      .def(
          "op",
          [](PyGraph& g, const std::string& op_type, const std::vector<Graph::Value>& inputs, const py::object& attrs,
             int num_outputs, const std::string& domain) -> py::object {
            std::vector<Graph::Value> outs = g.graph().Op(op_type, inputs, AttrsFromPython(attrs), num_outputs, domain);
            ThrowIfError(g.graph().status());
            if (num_outputs == 1 && outs.size() == 1) return py::cast(outs[0]);
            return py::cast(outs);
          },
          py::arg("op_type"), py::arg("inputs"), py::arg("attrs") = py::none(), py::arg("num_outputs") = 1,
          py::arg("domain") = "", "An op of ge's op table; one Value, or a list when num_outputs > 1.")
      .def(
          "assign", [](PyGraph& g, Graph::Value r, Graph::Value v) { return g.Check(g.graph().Assign(r, v)); },
          py::arg("ref"), py::arg("value"))
      .def(
          "assign_add", [](PyGraph& g, Graph::Value r, Graph::Value v) { return g.Check(g.graph().AssignAdd(r, v)); },
          py::arg("ref"), py::arg("value"))
      .def(
          "assign_sub", [](PyGraph& g, Graph::Value r, Graph::Value v) { return g.Check(g.graph().AssignSub(r, v)); },
          py::arg("ref"), py::arg("value"))
      .def(
          "var_is_initialized", [](PyGraph& g, Graph::Value r) { return g.Check(g.graph().VarIsInitialized(r)); },
          py::arg("ref"))
      .def(
          "add_output",
          [](PyGraph& g, Graph::Value v) {
            g.graph().AddOutput(v);
            ThrowIfError(g.graph().status());
          },
          py::arg("value"));
}

}  // namespace

void RegisterSession(py::module_& m) {
  RegisterGraph(m);
  m.def(
      "initialize", [](const py::object& options) { ThrowIfError(GEInitialize(OptionsArg(options))); },
      py::arg("options") = py::none(),
      "GEInitialize: the process-wide runtime (ge.exec.deviceId, ge.intraOpThreads). Idempotent; a Session calls "
      "it with no options when needed.");
  m.def(
      "finalize", [] { ThrowIfError(GEFinalize()); }, "GEFinalize: ge.FailedPrecondition while sessions are open.");

  py::class_<PySession>(m, "Session",
                        "GE's Session: graphs added by id, compiled once and run many times, sharing the session's "
                        "variables. Options use GE's keys (an unknown key raises).")
      .def(py::init([](const py::object& options) { return new PySession(OptionsArg(options)); }),
           py::arg("options") = py::none())
      .def(
          "add_graph",
          [](PySession& s, uint32_t id, const py::object& graph, const py::object& options) {
            Graph g = GraphArgument(graph);
            ThrowIfError(s.s().AddGraph(id, g, OptionsArg(options)));
          },
          py::arg("graph_id"), py::arg("graph"), py::arg("options") = py::none(),
          "graph: a ge.Graph or the path of an ONNX model.")
      .def(
          "remove_graph", [](PySession& s, uint32_t id) { ThrowIfError(s.s().RemoveGraph(id)); }, py::arg("graph_id"))
      .def(
          "build_graph",
          [](PySession& s, uint32_t id) {
            Status st;
            {
              py::gil_scoped_release release;
              st = s.s().BuildGraph(id);
            }
            ThrowIfError(st);
          },
          py::arg("graph_id"))
      .def(
          "compile_graph",
          [](PySession& s, uint32_t id) {
            Status st;
            {
              py::gil_scoped_release release;
              st = s.s().CompileGraph(id);
            }
            ThrowIfError(st);
          },
          py::arg("graph_id"))
      .def(
          "run_graph",
          [](PySession& s, uint32_t id, const py::object& inputs) {
            std::vector<Tensor> in = OwnedTensors(inputs), out;
            Status st;
            {
              py::gil_scoped_release release;
              st = s.s().RunGraph(id, in, out);
            }
            ThrowIfError(st);
            return ToArrayList(out);
          },
          py::arg("graph_id"), py::arg("inputs"), "Runs the graph (built on first use); returns its outputs.")
      .def(
          "write_trace", [](PySession& s, const std::string& path) { ThrowIfError(s.s().WriteTrace(path)); },
          py::arg("path"),
          "With session option ge.exec.profilingMode=1: the timeline of the session's graph loads and kernel runs "
          "as Chrome / Perfetto trace-event JSON.")
      .def(
          "run_graph_async",
          [](PySession& s, uint32_t id, const py::object& inputs, const py::function& callback) {
            std::vector<Tensor> in = OwnedTensors(inputs);
            // The callable is released with the GIL held, whichever thread drops the last reference.
            auto fn = std::shared_ptr<py::function>(new py::function(callback), [](py::function* f) {
              py::gil_scoped_acquire gil;
              delete f;
            });
            Status st;
            {
              py::gil_scoped_release release;
              st = s.s().RunGraphAsync(id, in, [fn](Status status, std::vector<Tensor>& outputs) {
                py::gil_scoped_acquire gil;
                try {
                  py::object error = py::none();
                  if (!status.ok()) error = py::str(status.ToString());
                  (*fn)(error, status.ok() ? ToArrayList(outputs) : py::list());
                } catch (py::error_already_set& e) {
                  e.discard_as_unraisable("ge.Session.run_graph_async callback");
                }
              });
            }
            ThrowIfError(st);
          },
          py::arg("graph_id"), py::arg("inputs"), py::arg("callback"),
          "Queues a run on the session's worker; callback(error, outputs) is called there (error: None or ge's "
          "message).")
      .def(
          "fork_graph", [](PySession& s, uint32_t id, uint32_t new_id) { ThrowIfError(s.s().ForkGraph(id, new_id)); },
          py::arg("graph_id"), py::arg("new_graph_id"),
          "A new graph id over the same compiled model with its own feature map.")
      .def(
          "is_graph_need_rebuild", [](PySession& s, uint32_t id) { return s.s().IsGraphNeedRebuild(id); },
          py::arg("graph_id"))
      .def(
          "get_compiled_graph_summary",
          [](PySession& s, uint32_t id) {
            CompiledGraphSummary summary;
            ThrowIfError(s.s().GetCompiledGraphSummary(id, &summary));
            py::dict d;
            d["is_static"] = summary.is_static;
            d["feature_memory_size"] = summary.feature_memory_size;
            d["const_memory_size"] = summary.const_memory_size;
            d["stream_num"] = summary.stream_num;
            d["event_num"] = summary.event_num;
            d["variables"] = summary.variables;
            return d;
          },
          py::arg("graph_id"))
      .def(
          "get_graph_load_state",
          [](PySession& s, uint32_t id) {
            GraphLoadState state;
            ThrowIfError(s.s().GetGraphLoadState(id, &state));
            py::dict d;
            d["loaded"] = state.loaded;
            d["loads"] = state.loads;
            d["evictions"] = state.evictions;
            d["feature_memory_bytes"] = state.feature_memory_bytes;
            return d;
          },
          py::arg("graph_id"),
          "{loaded, loads, evictions, feature_memory_bytes}: the graph in the session's model executor "
          "(ge.exec.sessionMemoryLimit evicts idle graphs and reloads them on their next run).")
      .def(
          "get_variables",
          [](PySession& s, const py::object& names_arg) {
            std::vector<std::string> names;
            if (!names_arg.is_none()) names = names_arg.cast<std::vector<std::string>>();
            std::vector<Tensor> values;
            ThrowIfError(s.s().GetVariables(names, values));
            py::dict out;
            for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
              out[py::str(names[i])] = TensorToArray(values[i], true);
            }
            return out;
          },
          py::arg("names") = py::none(), "{name: numpy array}: copies of the variables' values (all when None).")
      .def(
          "set_variable",
          [](PySession& s, const std::string& name, const py::object& value) { SetVariable(s.s(), name, value); },
          py::arg("name"), py::arg("value"),
          "Writes a numpy array into the session variable `name` (dtype and shape must match an existing one; a new "
          "name creates the variable).")
      .def(
          "save_checkpoint",
          [](PySession& s, const py::object& path) {
            ThrowIfError(s.s().SaveCheckpoint(py::str(py::module_::import("os").attr("fspath")(path))));
          },
          py::arg("path"))
      .def(
          "restore_checkpoint",
          [](PySession& s, const py::object& path) {
            ThrowIfError(s.s().RestoreCheckpoint(py::str(py::module_::import("os").attr("fspath")(path))));
          },
          py::arg("path"))
      .def_property_readonly("session_id", [](PySession& s) { return s.s().GetSessionId(); });
}

}  // namespace ge::python
