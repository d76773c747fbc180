// ge train: train an ONNX model that carries training info (TrainingInfoProto) in a session (issue 11). The
// initialization graph runs once (skipped after --restore), then the training step --steps times on the same
// inputs (full batch); scalar outputs (the loss) are printed as the steps go. --save writes a checkpoint,
// --save_variables one NAME.npy per variable. On the public API alone (ge/training.h, ge/session.h): built into ge.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "base/npy.h"
#include "commands.h"
#include "flags.h"
#include "ge/graph.h"
#include "ge/session.h"
#include "ge/training.h"
#include "tensor_text.h"

namespace ge::cli {
namespace {

constexpr uint32_t kInitGraph = 1, kStepGraph = 2;

// --input NAME=FILE for every input of the step graph.
StatusOr<std::vector<Tensor>> StepInputs(const Flags& flags, const std::vector<std::string>& step_inputs) {
  std::map<std::string, std::string> files;
  for (const std::string& spec : flags.GetAll("input")) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) return InvalidArgument("--input must be NAME=FILE.npy, got '" + spec + "'");
    files[spec.substr(0, eq)] = spec.substr(eq + 1);
  }
  std::vector<Tensor> inputs;
  for (const std::string& name : step_inputs) {
    auto it = files.find(name);
    if (it == files.end()) return InvalidArgument("the training step needs --input=" + name + "=FILE.npy");
    GE_ASSIGN_OR_RETURN(Tensor t, ReadNpy(it->second));
    inputs.push_back(std::move(t));
    files.erase(it);
  }
  if (!files.empty()) return InvalidArgument("--input names '" + files.begin()->first + "', not a training input");
  return inputs;
}

std::string Scalars(const std::vector<std::string>& names, const std::vector<Tensor>& outputs) {
  std::string s;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].numel() != 1 || outputs[i].dtype() != DataType::kFloat) continue;
    char buf[96];
    std::snprintf(buf, sizeof buf, " %s=%.6g", names[i].c_str(), outputs[i].data<float>()[0]);
    s += buf;
  }
  return s;
}

Status Train(const Flags& flags) {
  GE_ASSIGN_OR_RETURN(int64_t steps, flags.GetInt("steps", 1, 0, int64_t{1} << 40));
  GE_ASSIGN_OR_RETURN(Graph model, Graph::FromOnnxFile(flags.Get("model")));
  GE_ASSIGN_OR_RETURN(TrainingGraphs graphs, LowerTraining(model));
  GE_ASSIGN_OR_RETURN(std::vector<Tensor> inputs, StepInputs(flags, graphs.step_inputs));
  const std::vector<std::string>& output_names = graphs.step_outputs;

  GE_RETURN_IF_ERROR(GEInitialize());
  Session session(Options{{"ge.graphRunMode", "1"}});
  GE_RETURN_IF_ERROR(session.status());
  std::vector<Tensor> outputs;
  if (flags.Has("restore")) {
    GE_RETURN_IF_ERROR(session.RestoreCheckpoint(flags.Get("restore")));
  } else if (graphs.has_initialization) {
    GE_RETURN_IF_ERROR(session.AddGraph(kInitGraph, graphs.initialization));
    GE_RETURN_IF_ERROR(session.RunGraph(kInitGraph, {}, outputs));
  }
  GE_RETURN_IF_ERROR(session.AddGraph(kStepGraph, graphs.step));
  const int64_t report_every = std::max<int64_t>(1, steps / 10);
  for (int64_t i = 0; i < steps; ++i) {
    GE_RETURN_IF_ERROR(session.RunGraph(kStepGraph, inputs, outputs));
    if (i % report_every == 0 || i + 1 == steps) {
      std::printf("step %lld:%s\n", static_cast<long long>(i), Scalars(output_names, outputs).c_str());
    }
  }
  if (flags.Has("save")) GE_RETURN_IF_ERROR(session.SaveCheckpoint(flags.Get("save")));
  if (flags.Has("save_variables")) {
    const std::string dir = flags.Get("save_variables");
    ::mkdir(dir.c_str(), 0755);
    std::vector<std::string> names = graphs.variables;
    std::vector<Tensor> values;
    GE_RETURN_IF_ERROR(session.GetVariables(names, values));
    for (size_t i = 0; i < names.size(); ++i) {
      GE_RETURN_IF_ERROR(WriteNpy(dir + "/" + SanitizeFileName(names[i]) + ".npy", values[i]));
    }
    std::printf("wrote %zu variables to %s\n", names.size(), dir.c_str());
  }
  return Status::Ok();
}

}  // namespace

const CommandSpec& TrainCommandSpec() {
  static const CommandSpec spec = {
      "train",
      "--model=M.onnx --steps=N",
      "train an ONNX model with TrainingInfoProto in a session; prints its scalar outputs (the loss) as it goes",
      {{"model", "M.onnx", "the model, with its training graph (TrainingInfoProto)"},
       {"steps", "N", "training steps to run"},
       {"input", "NAME=FILE.npy", "a graph input fed every step (repeatable)"},
       {"restore", "CKPT", "start from a checkpoint's variables (the initialization graph is not run)"},
       {"save", "CKPT", "write a checkpoint (variables, descs, VAR_INFO) at the end, atomically"},
       {"save_variables", "DIR", "write one NAME.npy per variable at the end"}}};
  return spec;
}

int TrainCommand(int argc, char** argv) {
  auto flags = ParseFlags(argc, argv, 2, TrainCommandSpec());
  if (!flags.ok()) {
    std::fprintf(stderr, "ge train: %s\n", flags.status().ToString().c_str());
    return 2;
  }
  if (!flags->Has("model")) {
    std::fprintf(stderr, "ge train: --model=M.onnx is required\n");
    return 2;
  }
  Status s = Train(*flags);
  if (!s.ok()) {
    std::fprintf(stderr, "ge train: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace ge::cli
