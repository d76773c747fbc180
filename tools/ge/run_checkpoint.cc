// ge run --model=M.onnx --checkpoint=CKPT on the public API: the model's inference graph in a session whose
// variables come from a checkpoint `ge train --save` wrote.
#include <sys/stat.h>

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

// ge run --model=M.onnx --checkpoint=CKPT: the model's inference graph in a session whose variables come from the
// checkpoint (a model with training info reads its trained initializers as variables).
Status RunWithCheckpoint(const Flags& flags) {
  GE_ASSIGN_OR_RETURN(Graph graph, Graph::FromOnnxFile(flags.Get("model")));
  if (graph.has_training_info()) {
    GE_ASSIGN_OR_RETURN(TrainingGraphs graphs, LowerTraining(graph));
    graph = std::move(graphs.inference);
  }
  std::vector<Tensor> inputs;
  std::map<std::string, std::string> files;
  std::vector<std::string> positional;
  for (const std::string& spec : flags.GetAll("input")) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      positional.push_back(spec);
    } else {
      files[spec.substr(0, eq)] = spec.substr(eq + 1);
    }
  }
  size_t next = 0;
  for (const std::string& name : graph.input_names()) {
    auto it = files.find(name);
    std::string file = it != files.end() ? it->second : next < positional.size() ? positional[next++] : "";
    if (file.empty()) return InvalidArgument("input '" + name + "' needs --input=" + name + "=FILE.npy");
    GE_ASSIGN_OR_RETURN(Tensor t, ReadNpy(file));
    inputs.push_back(std::move(t));
  }
  const std::vector<std::string> output_names = graph.output_names();

  GE_RETURN_IF_ERROR(GEInitialize());
  Session session;
  GE_RETURN_IF_ERROR(session.status());
  GE_RETURN_IF_ERROR(session.RestoreCheckpoint(flags.Get("checkpoint")));
  GE_RETURN_IF_ERROR(session.AddGraph(1, graph));
  std::vector<Tensor> outputs;
  GE_RETURN_IF_ERROR(session.RunGraph(1, inputs, outputs));
  const std::string dir = flags.Get("output_dir");
  if (!dir.empty()) ::mkdir(dir.c_str(), 0755);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::printf("%s\n", SummarizeTensor(output_names[i], outputs[i]).c_str());
    if (!dir.empty()) GE_RETURN_IF_ERROR(WriteNpy(dir + "/" + SanitizeFileName(output_names[i]) + ".npy", outputs[i]));
  }
  return Status::Ok();
}

}  // namespace

int RunWithCheckpointCommand(const Flags& flags) {
  Status s = RunWithCheckpoint(flags);
  if (!s.ok()) {
    std::fprintf(stderr, "ge run: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace ge::cli
