// ge.train and ge.lower_training (include/ge/training.h): train an ONNX model that carries its training info in a
// session of its own, or get the graphs to run in a ge.Session.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "model_source.h"
#include "numpy_tensor.h"
#include "ge/session.h"
#include "ge/training.h"

namespace ge::python {

namespace py = pybind11;

namespace {

constexpr uint32_t kInitGraph = 1, kStepGraph = 2;

Graph ModelGraph(const py::handle& model) {
  ModelArgument arg = ReadModelArgument(model);
  if (!arg.is_path()) ThrowInvalidArgument("ge.train takes the path of an ONNX model with training info");
  return ValueOrThrow(Graph::FromOnnxFile(arg.path));
}

// The step's inputs in its order, each a copy owned by ge; a missing or unknown name raises.
std::vector<Tensor> StepInputs(const TrainingGraphs& graphs, const py::dict& feed) {
  std::map<std::string, py::handle> by_name;
  for (auto item : feed) by_name[py::str(item.first)] = item.second;
  std::vector<Tensor> out;
  for (const std::string& name : graphs.step_inputs) {
    auto it = by_name.find(name);
    if (it == by_name.end()) ThrowInvalidArgument("the training step needs input '" + name + "'");
    py::array a = py::array::ensure(it->second);
    if (!a) throw py::type_error("input '" + name + "': a numpy array");
    const DataType dt = GeDtype(a.dtype());
    if (dt == DataType::kUndefined) ThrowInvalidArgument("input '" + name + "': a numpy dtype ge has no tensors of");
    out.push_back(ValueOrThrow(BorrowTensor(ArrayForInput(a, dt, "input '" + name + "'"), dt).Clone()));
    by_name.erase(it);
  }
  if (!by_name.empty()) ThrowInvalidArgument("input '" + by_name.begin()->first + "' is not a training step input");
  return out;
}

// {name: float} of the step's scalar float outputs (the loss, ...).
py::dict Scalars(const TrainingGraphs& graphs, const std::vector<Tensor>& outputs) {
  py::dict d;
  for (size_t i = 0; i < outputs.size() && i < graphs.step_outputs.size(); ++i) {
    const Tensor& t = outputs[i];
    if (t.numel() == 1 && t.dtype() == DataType::kFloat) {
      d[py::str(graphs.step_outputs[i])] = static_cast<double>(*t.data<float>());
    }
  }
  return d;
}

py::dict Train(const py::object& model, const py::dict& inputs, int64_t steps, const py::object& restore,
               const py::object& save, const py::object& options, const py::object& on_step) {
  if (steps < 0) ThrowInvalidArgument("steps must be 0 or more, got " + std::to_string(steps));
  TrainingGraphs graphs = ValueOrThrow(LowerTraining(ModelGraph(model)));
  std::vector<Tensor> feed = StepInputs(graphs, inputs);
  Options session_options = options.is_none() ? Options{} : OptionsFromPython(options);
  session_options["ge.graphRunMode"] = "1";
  ThrowIfError(GEInitialize());
  auto session = std::make_unique<Session>(session_options);
  ThrowIfError(session->status());
  std::vector<Tensor> outputs;
  auto run = [&](uint32_t id, const std::vector<Tensor>& in) {
    Status st;
    {
      py::gil_scoped_release release;
      st = session->RunGraph(id, in, outputs);
    }
    ThrowIfError(st);
  };
  if (!restore.is_none()) {
    ThrowIfError(session->RestoreCheckpoint(py::str(restore)));
  } else if (graphs.has_initialization) {
    ThrowIfError(session->AddGraph(kInitGraph, graphs.initialization));
    run(kInitGraph, {});
  }
  ThrowIfError(session->AddGraph(kStepGraph, graphs.step));
  py::list history;
  for (int64_t i = 0; i < steps; ++i) {
    run(kStepGraph, feed);
    py::dict scalars = Scalars(graphs, outputs);
    history.append(scalars);
    if (!on_step.is_none()) on_step(i, scalars);
  }
  if (!save.is_none()) ThrowIfError(session->SaveCheckpoint(py::str(save)));
  std::vector<std::string> names = graphs.variables;
  std::vector<Tensor> values;
  ThrowIfError(session->GetVariables(names, values));
  py::dict variables;
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    variables[py::str(names[i])] = TensorToArray(values[i], true);
  }
  py::dict result;
  result["history"] = history;
  result["variables"] = variables;
  {
    py::gil_scoped_release release;
    session.reset();
  }
  return result;
}

}  // namespace

void RegisterTraining(py::module_& m) {
  m.def("train", &Train, py::arg("model"), py::arg("inputs"), py::arg("steps") = 1, py::kw_only(),
        py::arg("restore") = py::none(), py::arg("save") = py::none(), py::arg("options") = py::none(),
        py::arg("on_step") = py::none(),
        "Trains an ONNX model that carries its training info (TrainingInfoProto) in a session of its own: the "
        "initialization graph once (unless restore= names a checkpoint to start from), then the training step "
        "`steps` times on `inputs` (a dict of the step's inputs by name). on_step(i, scalars) is called after each "
        "step with its scalar float outputs (the loss, ...). save= writes a checkpoint at the end. Returns "
        "{'history': [scalars per step], 'variables': {name: array}}.");
  m.def(
      "lower_training",
      [](const py::object& model) {
        TrainingGraphs g = ValueOrThrow(LowerTraining(ModelGraph(model)));
        py::dict d;
        d["step_inputs"] = g.step_inputs;
        d["step_outputs"] = g.step_outputs;
        d["variables"] = g.variables;
        return d;
      },
      py::arg("model"),
      "The names a training model's step reads and writes: {'step_inputs', 'step_outputs', 'variables'}.");
}

}  // namespace ge::python
