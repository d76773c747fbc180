// TrainingInfoProto → ir::TrainingInfo. What a training graph reads from the main graph (its initializers; for the
// algorithm also the inference graph's inputs and node outputs) are captures; a binding assigns an output of a
// training graph to a main-graph initializer.
#include "parser/onnx/training_info.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "parser/onnx/graph_importer.h"

namespace ge::onnx_parser {

namespace {

using Bindings = std::vector<std::pair<std::string, std::string>>;
using BindingProtos = google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>;

// The main graph's initializers as the training graphs see them. Each is decoded from the proto on first use
// (the main graph's import may have dropped or folded it) into `loaded`, the model's training_initializers.
class RootInitializers {
 public:
  RootInitializers(const onnx::GraphProto& root, const std::string& base_dir, std::map<std::string, Tensor>* loaded)
      : base_dir_(base_dir), loaded_(loaded) {
    for (const auto& tp : root.initializer()) protos_.emplace(tp.name(), &tp);
  }

  // The initializer `name`; nullptr when the main graph has none by that name.
  StatusOr<const Tensor*> Load(const std::string& name) {
    auto loaded = loaded_->find(name);
    if (loaded != loaded_->end()) return &loaded->second;
    auto proto = protos_.find(name);
    if (proto == protos_.end()) return nullptr;
    GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(*proto->second, base_dir_, "initializer '" + name + "'"));
    return &loaded_->emplace(name, std::move(t)).first->second;
  }

 private:
  std::map<std::string, const onnx::TensorProto*> protos_;
  std::string base_dir_;
  std::map<std::string, Tensor>* loaded_;
};

// The main-graph values a training graph may read: the initializers (loaded into `root`'s map on first use) and,
// with `inference` (for the algorithm, which per onnx.proto runs as the inference graph followed by the algorithm
// graph), the inference graph's inputs and node outputs.
OuterValueLookup MainGraphValues(RootInitializers* root, const ir::Graph* inference) {
  return [root, inference](const std::string& name) -> StatusOr<std::optional<TensorDesc>> {
    GE_ASSIGN_OR_RETURN(const Tensor* initial, root->Load(name));
    if (initial) return std::optional<TensorDesc>(TensorDesc(initial->dtype(), Shape(initial->dims())));
    const ir::Value* computed = inference ? inference->FindValue(name) : nullptr;
    if (computed) return std::optional<TensorDesc>(computed->desc());
    return std::optional<TensorDesc>();
  };
}

// How errors name a training graph: "training_info[0] algorithm graph 'sgd'".
std::string TrainingGraphWhat(const std::string& where, const char* role, const onnx::GraphProto& gp) {
  std::string what = where + " " + role;
  if (!gp.name().empty()) what += " graph '" + gp.name() + "'";
  return what;
}

// Puts `what` in front of an error about graph `gp`, in place of the importer's "graph 'sgd': ".
Status InTrainingGraph(const Status& s, const std::string& what, const onnx::GraphProto& gp) {
  const std::string graph_prefix = "graph '" + GraphImporter::GraphName(gp) + "': ";
  if (s.message().compare(0, graph_prefix.size(), graph_prefix) == 0) {
    return Status(s.code(), what + ": " + s.message().substr(graph_prefix.size()));
  }
  return s.WithContext(what);
}

// A training graph; an unnamed one is called after its role.
StatusOr<std::unique_ptr<ir::Graph>> ImportTrainingGraph(const onnx::GraphProto& gp, const std::string& what,
                                                         const char* role, GraphImporter* importer) {
  auto g = importer->Import(gp, {}, 0);
  if (!g.ok()) return InTrainingGraph(g.status(), what, gp);
  if (gp.name().empty()) (*g)->set_name(role);
  Status valid = (*g)->Validate();
  if (!valid.ok()) return valid.WithContext(what);
  return std::move(*g);
}

bool HasOutputNamed(const ir::Graph& g, const std::string& name) {
  for (const ir::Value* v : g.outputs()) {
    if (v->name() == name) return true;
  }
  return false;
}

// Checks each binding: its key a main-graph initializer bound only once (`bound_keys` holds the keys bound so
// far), its value an output of `source`, the `role` graph (null: the TrainingInfoProto has none).
StatusOr<Bindings> ImportBindings(const BindingProtos& entries, const std::string& where, const char* role,
                                  const ir::Graph* source, std::set<std::string>* bound_keys,
                                  RootInitializers* root) {
  Bindings bindings;
  for (const auto& entry : entries) {
    const std::string& key = entry.key();
    const std::string& value = entry.value();
    const std::string binding = where + " '" + key + "' -> '" + value + "'";
    if (key.empty() || value.empty()) return InvalidArgument(binding + ": a binding needs a key and a value");
    if (!bound_keys->insert(key).second) return InvalidArgument(binding + ": '" + key + "' is bound more than once");
    GE_ASSIGN_OR_RETURN(const Tensor* initial, root->Load(key));
    if (!initial) return InvalidArgument(binding + ": '" + key + "' is not an initializer of the main graph");
    if (!source) {
      return InvalidArgument(binding + ": '" + value + "' is not an output of the " + role +
                             " graph (there is none: it has no nodes and no outputs)");
    }
    if (!HasOutputNamed(*source, value)) {
      return InvalidArgument(binding + ": '" + value + "' is not an output of the " + role + " graph '" +
                             source->name() + "'");
    }
    bindings.emplace_back(key, value);
  }
  return bindings;
}

bool HasContent(const onnx::GraphProto& gp) { return gp.node_size() > 0 || gp.output_size() > 0; }

// `update_keys`: the update_binding keys of the TrainingInfoProtos before this one (a variable is updated by at
// most one binding in the whole model).
StatusOr<ir::TrainingInfo> ImportOne(const onnx::TrainingInfoProto& tp, const std::string& where,
                                     GraphImporter* init_importer, GraphImporter* algo_importer,
                                     RootInitializers* root, std::set<std::string>* update_keys) {
  ir::TrainingInfo info;
  const std::string init_what = TrainingGraphWhat(where, "initialization", tp.initialization());
  if (HasContent(tp.initialization())) {
    GE_ASSIGN_OR_RETURN(info.initialization,
                        ImportTrainingGraph(tp.initialization(), init_what, "initialization", init_importer));
    if (!info.initialization->inputs().empty()) {
      return InvalidArgument(init_what + ": input '" + info.initialization->inputs()[0]->name() +
                             "': an initialization graph takes no inputs");
    }
  }
  const std::string algo_what = TrainingGraphWhat(where, "algorithm", tp.algorithm());
  GE_ASSIGN_OR_RETURN(info.algorithm, ImportTrainingGraph(tp.algorithm(), algo_what, "algorithm", algo_importer));

  std::set<std::string> init_keys;
  GE_ASSIGN_OR_RETURN(info.initialization_binding,
                      ImportBindings(tp.initialization_binding(), where + " initialization_binding", "initialization",
                                     info.initialization.get(), &init_keys, root));
  GE_ASSIGN_OR_RETURN(info.update_binding, ImportBindings(tp.update_binding(), where + " update_binding",
                                                          "algorithm", info.algorithm.get(), update_keys, root));
  return info;
}

}  // namespace

Status ImportTrainingInfo(const onnx::ModelProto& proto, const ParseOptions& options, ir::Model* model) {
  RootInitializers root(proto.graph(), options.base_dir, &model->training_initializers);
  GraphImporter init_importer(options, MainGraphValues(&root, nullptr));
  GraphImporter algo_importer(options, MainGraphValues(&root, model->graph.get()));
  std::set<std::string> update_keys;
  for (int i = 0; i < proto.training_info_size(); ++i) {
    const std::string where = "training_info[" + std::to_string(i) + "]";
    GE_ASSIGN_OR_RETURN(ir::TrainingInfo info, ImportOne(proto.training_info(i), where, &init_importer,
                                                         &algo_importer, &root, &update_keys));
    model->training_info.push_back(std::move(info));
  }
  return Status::Ok();
}

}  // namespace ge::onnx_parser
