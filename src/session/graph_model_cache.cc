#include "session/graph_model_cache.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <set>

#include "om/ir_om.h"
#include "om/ir_proto.h"
#include "om/model_def.pb.h"
#include "ops/op_id.h"
#include "ops/variable/variable_ref.h"
#include "session/variable_io.h"
#include "var/var_info.h"

namespace ge::session {
namespace {

// Constants go into the key by their bytes' hash; the IR proto keeps only a reference (no copy of the weights).
class HashingWeightSink final : public om::WeightSink {
 public:
  explicit HashingWeightSink(CacheKeyBuilder* key) : key_(key) {}
  StatusOr<std::optional<om::WeightRef>> Put(const ir::Value& value, const Tensor& tensor) override {
    key_->AddBytes("constant", tensor.raw_data(), tensor.nbytes());
    if (const ir::ConstSource* source = value.const_source()) {  // the cached model may read it there (FileConstant)
      key_->Add("constant source", source->path + ":" + std::to_string(source->offset) + ":" + source->file_id);
    }
    return std::optional<om::WeightRef>(om::WeightRef{count_++, tensor.nbytes()});
  }

 private:
  CacheKeyBuilder* key_;
  uint64_t count_ = 0;
};

StatusOr<std::string> DeterministicBytes(const google::protobuf::MessageLite& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);  // map fields in key order, the same in every process
    if (!message.SerializeToCodedStream(&coded)) return Internal("the graph does not serialize");
  }
  return out;
}

std::string DescText(const TensorDesc& d) { return d.ToString(); }

std::vector<const ir::Node*> Variables(const ir::Model& model) {
  std::vector<const ir::Node*> out;
  for (const ir::Node* n : model.graph->nodes()) {
    if (ops::IsOp(*n, ops::OpId::kGeVariable)) out.push_back(n);
  }
  return out;
}

// Seed 000's model-cache check, as part of the key: the session's variables as the compile would find them.
std::string VariableState(const var::VarManager& variables) {
  const var::VarResource r = variables.resource();
  std::string text;
  for (const auto& [key, addr] : r.var_addr_mgr_map) {
    text += "addr " + key + " " + DescText(addr.desc) + " @" + std::to_string(addr.logical) + "+" +
            std::to_string(addr.size) + " m" + std::to_string(static_cast<int>(addr.mem_type)) + " k" +
            std::to_string(static_cast<int>(addr.kind)) + "\n";
  }
  for (const auto& [name, desc] : r.cur_var_tensor_desc_map) {
    text += "cur " + name + " " + DescText(desc) + (variables.IsVarInitialized(name) ? " init" : "") + "\n";
  }
  for (const auto& [name, road] : r.var_to_trans_road) {
    text += "road " + name;
    for (const var::TransStep& s : road) text += " " + s.node_type + ":" + DescText(s.input) + ">" + DescText(s.output);
    text += "\n";
  }
  for (const auto& [file, key] : r.file_constant_var_map) text += "file " + file + " " + key + "\n";
  for (const auto& [batch, key] : r.batch_var_name_map) text += "batch " + batch + " " + key + "\n";
  text += "used " + std::to_string(variables.GetVarMemSize(rt::MemType::kDevice)) + "\n";
  return text;
}

StatusOr<std::vector<TensorInfo>> InfoOf(const google::protobuf::RepeatedPtrField<proto::IoProto>& io) {
  std::vector<TensorInfo> out;
  for (const proto::IoProto& p : io) {
    GE_ASSIGN_OR_RETURN(TensorDesc d, om::DescFromProto(p.desc(), "MODEL_DEF io '" + p.name() + "'"));
    out.push_back(TensorInfo{p.name(), d.dtype, d.shape.dims()});
  }
  return out;
}

std::vector<TensorInfo> InfoOf(const std::vector<ir::Value*>& values) {
  std::vector<TensorInfo> out;
  for (const ir::Value* v : values) {
    const TensorDesc& d = v->desc();
    out.push_back(TensorInfo{v->name(), d.dtype, d.shape.unknown_rank() ? Dims{} : d.shape.dims()});
  }
  return out;
}

// The summary a compile gives, read back from the cached .om (session.cc builds the same from the compile).
Status Summarize(const om::OmReader& om, CompiledGraph* compiled) {
  CompiledGraphSummary& s = compiled->summary;
  if (compiled->dynamic) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> ir, om::ReadIrOm(om));
    s.is_static = false;
    s.inputs = InfoOf(ir->graph->inputs());
    s.outputs = InfoOf(ir->graph->outputs());
    return Status::Ok();
  }
  proto::ModelDefProto def;
  const om::ByteSpan bytes = om.partition(om::PartitionType::kModelDef);
  if (bytes.size > INT32_MAX || !def.ParseFromArray(bytes.data, static_cast<int>(bytes.size))) {
    return DataLoss("MODEL_DEF does not parse");
  }
  GE_ASSIGN_OR_RETURN(s.inputs, InfoOf(def.inputs()));
  GE_ASSIGN_OR_RETURN(s.outputs, InfoOf(def.outputs()));
  s.is_static = true;
  s.feature_memory_size = def.memory().feature_map_bytes();
  s.const_memory_size = def.memory().weights_bytes();
  s.stream_num = static_cast<size_t>(def.num_streams());
  s.event_num = static_cast<size_t>(def.num_events());
  return Status::Ok();
}

// What the compile would have done to the session's variables (compiler's AssignVariables and AddVarInfo).
Status ApplyVariables(const om::OmReader& om, const ir::Model& graph, var::VarManager* variables, rt::Device* device,
                      CompiledGraph* compiled) {
  const std::vector<const ir::Node*> vars = Variables(graph);
  if (vars.empty()) return Status::Ok();
  std::map<std::string, TensorDesc> before;
  for (const ir::Node* n : vars) {
    if (auto d = variables->GetCurVarDesc(n->name()); d.ok()) before[n->name()] = *d;
  }
  const om::ByteSpan var_info = om.partition(om::PartitionType::kVarInfo);
  if (!var_info.empty()) GE_RETURN_IF_ERROR(var::RestoreVarInfo(var_info.data, var_info.size, variables));
  for (const ir::Node* n : vars) {
    auto now = variables->GetCurVarDesc(n->name());
    if (!now.ok()) continue;  // the compile dropped it (unused): not the model's variable
    compiled->variables[n->name()] = *now;
    compiled->summary.variables.push_back(n->name());
    if (const Tensor* init = n->attrs().GetTensor("_init_value")) {
      // Declared desc: set it as the compile did; a stored desc of its own (a trans road): the loader sets the
      // converted value the cached model carries, and the variable counts as initialized meanwhile.
      if (variables->GetTransRoad(n->name()).empty()) {
        GE_RETURN_IF_ERROR(variables->SetInitValue(n->name(), *init));
      } else {
        variables->SetVarInitialized(n->name());
      }
    }
    auto old = before.find(n->name());
    if (old != before.end() &&
        DescText(old->second) != DescText(*now)) {  // variable acceleration changed a variable it had
      variables->BumpWriteVersion(n->name());
      GE_RETURN_IF_ERROR(ConvertVariableMemory(variables, device, n->name()));
    }
  }
  for (const ir::Node* n : graph.graph->nodes()) {
    if (!ops::IsAssignOp(*n) || n->num_inputs() == 0) continue;
    if (const ir::Node* var = ops::RefVariable(n->input(0))) variables->SetVarInitialized(var->name());
  }
  return Status::Ok();
}

}  // namespace

GraphModelCache::GraphModelCache(const GraphEntry& entry, const std::string& model_name, int threads,
                                 const var::VarManager& variables, CacheWarningSink warn)
    : cache_(ModelCache::FromOptions(entry.options, std::move(warn))) {
  if (!cache_.has_value()) return;
  CacheKeyBuilder key;
  key.Add("kind", "session graph").AddEnvironment();
  HashingWeightSink weights(&key);
  auto proto = om::ModelToProto(*entry.model, &weights);
  StatusOr<std::string> graph = proto.ok() ? DeterministicBytes(*proto) : StatusOr<std::string>(proto.status());
  if (!graph.ok()) {
    cache_->Warn("the graph cannot be keyed (" + graph.status().message() + "); it is compiled and not cached");
    return;
  }
  key.Add("graph", *graph).AddCompileOptions(entry.options).Add("model_name", model_name).AddInt("threads", threads);
  key.Add("target", "native");
  if (!Variables(*entry.model).empty()) key.Add("variables", VariableState(variables));
  key_ = key.Key();
}

std::shared_ptr<const CompiledGraph> GraphModelCache::Find(const GraphEntry& entry, var::VarManager* variables,
                                                           rt::Device* device) const {
  if (!enabled()) return nullptr;
  std::optional<CachedModel> hit = cache_->Lookup(key_);
  if (!hit.has_value()) return nullptr;
  auto compiled = std::make_shared<CompiledGraph>();
  compiled->dynamic = om::IsIrModelType(hit->reader->header().model_type);
  Status s = Summarize(*hit->reader, compiled.get());
  if (s.ok()) s = ApplyVariables(*hit->reader, *entry.model, variables, device, compiled.get());
  if (!s.ok()) {
    cache_->Warn("'" + hit->path + "' cannot be used (" + s.message() + "); compiling it again");
    return nullptr;
  }
  compiled->om = std::move(hit->reader);
  return compiled;
}

void GraphModelCache::Store(const CompiledGraph& compiled) const {
  if (!enabled() || compiled.om == nullptr) return;
  const om::ByteSpan image = compiled.om->image();
  (void)cache_->Store(key_, image.data, image.size);
}

}  // namespace ge::session
