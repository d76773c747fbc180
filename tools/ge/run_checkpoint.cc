// ge run --model=M.onnx --checkpoint=CKPT (ge-dev): the model's inference graph in a session whose variables come
// from a checkpoint `ge train --save` wrote.
#include <sys/stat.h>

#include <cstdio>
#include <map>

#include "base/npy.h"
#include "commands.h"
#include "flags.h"
#include "ge/session.h"
#include "io_util.h"
#include "parser/onnx/onnx_parser.h"
#include "session/graph_access.h"
#include "session/training_graphs.h"

namespace ge::cli {
namespace {

// ge run --model=M.onnx --checkpoint=CKPT: the model's inference graph in a session whose variables come from the
// checkpoint (a model with training info reads its trained initializers as variables).
Status RunWithCheckpoint(const Flags& flags) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, onnx_parser::ParseModelFile(flags.Get("model")));
  if (!model->training_info.empty()) {
    GE_ASSIGN_OR_RETURN(session::TrainingGraphs graphs, session::LowerTraining(*model));
    model = std::move(graphs.inference);
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
  for (const ir::Value* in : model->graph->inputs()) {
    auto it = files.find(in->name());
    std::string file = it != files.end() ? it->second : next < positional.size() ? positional[next++] : "";
    if (file.empty()) return InvalidArgument("input '" + in->name() + "' needs --input=" + in->name() + "=FILE.npy");
    GE_ASSIGN_OR_RETURN(Tensor t, ReadNpy(file));
    inputs.push_back(std::move(t));
  }
  std::vector<std::string> output_names;
  for (const ir::Value* o : model->graph->outputs()) output_names.push_back(o->name());

  GE_RETURN_IF_ERROR(GEInitialize());
  Session session;
  GE_RETURN_IF_ERROR(session.status());
  GE_RETURN_IF_ERROR(session.RestoreCheckpoint(flags.Get("checkpoint")));
  GE_RETURN_IF_ERROR(session.AddGraph(1, session::GraphAccess::FromModel(std::move(model))));
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
