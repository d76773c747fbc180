#include "compiler/model_compiler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "compiler/variable_trans.h"
#include "compiler/planning/model_builder.h"
#include "compiler/passes/kernel_request.h"
#include "compiler/passes/passes.h"
#include "om/execute_plan.pb.h"
#include "om/ir_om.h"
#include "om/om_writer.h"
#include "ops/variable/variable_ref.h"
#include "var/var_info.h"

namespace ge::compiler {

namespace {

// "native": the highest level this machine runs the engines' kernels at (its CPU, capped for oneDNN by
// ONEDNN_MAX_CPU_ISA).
StatusOr<IsaLevel> ResolveTarget(const std::string& target, const kernels::EngineList& engines, CompileReport* r) {
  const IsaLevel here = kernels::EnginesMaxIsaLevel(engines);
  if (target == "native" || target.empty()) {
    if (here == IsaLevel::kNone) return IsaLevel::kX86_64_V2;  // below v2 (or not x86): the generic kernels
    return here;
  }
  IsaLevel level;
  if (!ParseIsaLevel(target, &level)) {
    return InvalidArgument("--target must be native, x86-64-v2, x86-64-v3 or x86-64-v4, got '" + target + "'");
  }
  if (static_cast<int>(level) > static_cast<int>(here)) {
    r->notes.push_back(std::string("target ") + IsaLevelName(level) + " is above what this machine runs (" +
                       IsaLevelName(here) + "): kernels and weight layouts are chosen among those available here " +
                       "and chosen again at load on a " + IsaLevelName(level) + " CPU");
  }
  return level;
}

Status FixInputShapes(ir::Model& model, const CompileOptions& options, CompileReport* report) {
  ir::Graph& g = *model.graph;
  for (const auto& [name, ranges] : options.input_ranges) {
    if (options.input_shapes.count(name) == 0) return Internal("a dim range for '" + name + "' without its shape");
  }
  for (const auto& [name, dims] : options.input_shapes) {
    bool found = false;
    for (const ir::Value* v : g.inputs()) found = found || v->name() == name;
    if (!found) return InvalidArgument("--input_shape names '" + name + "', which is not a graph input");
  }
  for (ir::Value* v : g.inputs()) {
    TensorDesc& d = v->desc();
    auto it = options.input_shapes.find(v->name());
    if (it != options.input_shapes.end()) {
      const auto ranges = options.input_ranges.find(v->name());
      const std::vector<DimRange>* range = ranges == options.input_ranges.end() ? nullptr : &ranges->second;
      if (range != nullptr && range->size() != it->second.size()) {
        return Internal("--input_shape for '" + v->name() + "': dims and ranges disagree");
      }
      for (size_t i = 0; i < it->second.size(); ++i) {
        const bool ranged = range != nullptr && !((*range)[i] == DimRange{});
        if (it->second[i] < 0 && !ranged) {
          return InvalidArgument("--input_shape for '" + v->name() + "' has a negative dim");
        }
      }
      Shape shape(it->second);
      if (!d.shape.unknown_rank()) {
        const Dims& declared = d.shape.dims();
        if (declared.size() != it->second.size()) {
          return InvalidArgument("--input_shape for '" + v->name() + "' has rank " +
                                 std::to_string(it->second.size()) + " but the model declares " + d.ToString());
        }
        for (size_t i = 0; i < declared.size(); ++i) {
          if (declared[i] < 0) {
            if (it->second[i] < 0) shape.set_symbol(static_cast<int>(i), d.shape.symbol(static_cast<int>(i)));
            continue;
          }
          const bool fits = it->second[i] < 0 ? (*range)[i].Contains(declared[i]) : declared[i] == it->second[i];
          if (!fits) {
            return InvalidArgument("--input_shape for '" + v->name() + "' contradicts the declared " + d.ToString());
          }
          shape.set_dim(static_cast<int>(i), declared[i]);
        }
      }
      d.shape = shape;
      if (range != nullptr) model.input_ranges[v->name()] = *range;
      continue;
    }
    // Unknown dims stay symbolic: the model compiles dynamic (runtime v2) and runs at any size.
    if (d.kind != ValueKind::kTensor || d.shape.unknown_rank()) continue;
    for (int i = 0; i < d.shape.rank(); ++i) {
      if (d.shape.dim(i) >= 0) continue;
      report->notes.push_back("input " + v->name() + ": dim " + std::to_string(i) +
                              " is symbolic: the model is dynamic (runtime v2); fix it with --input_shape");
    }
  }
  return Status::Ok();
}

// Every Variable of the root graph gets its logical address from the session's manager (same name and desc:
// the address an earlier graph got); `_init_value` attributes become the variables' initial values.
bool HasSourcedConstants(const ir::Graph& g) {
  for (const ir::Value* v : g.values()) {
    if (v->const_source() != nullptr) return true;
  }
  return false;
}

// Places the graph's variables in the session's manager, records the trans roads variable acceleration made
// (|roads|), and sets init values — converted along the variable's road when given in its declared desc.
// A variable the session already has must be declared with as many bytes as it holds (a reshape of the same bytes
// is GE's RenewCurVarDesc and allowed): a graph declaring `w` float32[4] where the session's `w` is float32[3]
// would otherwise re-key the variable, and graphs compiled for the old desc would read part of the new one. The
// logical descs are compared: before a trans road (variable acceleration) of either side.
Status CheckSameVariableBytes(const ir::Node& n, const std::map<std::string, std::vector<var::TransStep>>& roads,
                              const var::VarManager& manager) {
  auto current = manager.GetCurVarDesc(n.name());
  if (!current.ok()) return Status::Ok();  // a new variable
  // Read in its stored desc (the variable format pass follows another graph's road): the same variable.
  if (n.output(0)->desc().dtype == current->dtype && n.output(0)->desc().format == current->format &&
      n.output(0)->desc().shape.dims() == current->shape.dims()) {
    return Status::Ok();
  }
  const std::vector<var::TransStep> existing_road = manager.GetTransRoad(n.name());
  const TensorDesc existing = existing_road.empty() ? *current : existing_road.front().input;
  auto road = roads.find(n.name());
  const TensorDesc declared = road != roads.end() && !road->second.empty() ? road->second.front().input
                                                                           : n.output(0)->desc();
  auto existing_bytes = var::VarBytes(existing), declared_bytes = var::VarBytes(declared);
  if (!existing_bytes.ok() || !declared_bytes.ok() || *existing_bytes == *declared_bytes) return Status::Ok();
  return InvalidArgument("variable '" + n.name() + "' is " + existing.ToString() + " (" +
                         std::to_string(*existing_bytes) + " bytes) in this session; this graph declares it " +
                         declared.ToString() + " (" + std::to_string(*declared_bytes) + " bytes)");
}

Status AssignVariables(ir::Graph& g, const std::map<std::string, std::vector<var::TransStep>>& roads,
                       const kernels::EngineList& engines, var::VarManager* manager,
                       std::map<std::string, uint64_t>* addresses) {
  for (ir::Node* n : g.nodes()) {
    if (!ops::IsOp(*n, ops::OpId::kGeVariable)) continue;
    const std::string what = "variable '" + n->name() + "'";
    GE_RETURN_IF_ERROR(CheckSameVariableBytes(*n, roads, *manager));
    var::VarRequest req;
    req.name = n->name();
    req.desc = n->output(0)->desc();
    auto logical = manager->AssignVarMem(req);
    if (!logical.ok()) return logical.status().WithContext(what);
    (*addresses)[n->name()] = *logical;
    if (auto road = roads.find(n->name()); road != roads.end()) {
      GE_RETURN_IF_ERROR(manager->SetTransRoad(n->name(), road->second));
      manager->BumpWriteVersion(n->name());
      // An init value an earlier graph gave in the old desc: converted (this graph's own comes below).
      if (std::optional<Tensor> old = manager->InitValue(n->name(), road->second.front().input)) {
        auto converted = ApplyTransRoad(*old, road->second, /*inverse=*/false, engines);
        if (!converted.ok()) return converted.status().WithContext(what + " init value");
        GE_RETURN_IF_ERROR(manager->SetInitValue(n->name(), *converted));
      }
    }
    if (const Tensor* init = n->attrs().GetTensor("_init_value")) {
      Tensor value = *init;
      const std::vector<var::TransStep> road = manager->GetTransRoad(n->name());
      if (!road.empty() && init->dtype() == road.front().input.dtype &&
          init->dims() == road.front().input.shape.dims()) {
        auto converted = ApplyTransRoad(*init, road, /*inverse=*/false, engines);
        if (!converted.ok()) return converted.status().WithContext(what + " _init_value");
        value = std::move(*converted);
        n->attrs().Set("_init_value", ir::AttrValue::TensorValue(value));  // what the loader sets again
      }
      Status s = manager->SetInitValue(n->name(), value);
      if (!s.ok()) return s.WithContext(what);
    }
  }
  return Status::Ok();
}

// A dynamic graph (runtime v2) reads its variables in the descs it declares: a variable an earlier graph's variable
// acceleration stored in another desc cannot be read there (a static graph would read it through the road).
Status RequireDeclaredVariableDescs(const ir::Graph& g, const var::VarManager& manager) {
  for (const ir::Node* n : g.nodes()) {
    if (!ops::IsOp(*n, ops::OpId::kGeVariable)) continue;
    auto current = manager.GetCurVarDesc(n->name());
    const TensorDesc& declared = n->output(0)->desc();
    if (!current.ok() || (current->dtype == declared.dtype && current->format == declared.format &&
                          current->shape.dims() == declared.shape.dims())) {
      continue;
    }
    return FailedPrecondition("variable '" + n->name() + "' is stored as " + current->ToString() +
                              " (variable acceleration of an earlier static graph changed it); this graph has dynamic "
                              "shapes and reads it as declared, " + declared.ToString() +
                              ": compile the session's graphs with ge.exec.variable_acc=0");
  }
  return Status::Ok();
}

// The VAR_INFO partition (where the model's variables live in the session's space), when it has variables; later
// graphs of the session may count on what this one writes (VarIsInitializedOp folding).
Status AddVarInfo(const ir::Graph& g, const std::map<std::string, uint64_t>& addresses, var::VarManager* variables,
                  om::OmWriter* writer) {
  if (addresses.empty()) return Status::Ok();
  GE_ASSIGN_OR_RETURN(std::string var_info, var::SerializeVarInfo(*variables));
  GE_RETURN_IF_ERROR(writer->AddPartition(om::PartitionType::kVarInfo, std::move(var_info)));
  for (const ir::Node* n : g.nodes()) {
    if (!ops::IsAssignOp(*n)) continue;
    if (const ir::Node* var = ops::RefVariable(n->input(0))) variables->SetVarInitialized(var->name());
  }
  return Status::Ok();
}

// Hybrid execution at compile time: the static islands of a dynamic model, each compiled by this compiler with the
// model's options (no symbolic dims, no lowering), as the STATIC_ISLANDS partition's bytes ("" when none formed).
StatusOr<std::string> FormStaticIslands(ir::Model& model, const CompileOptions& options, const PassContext& ctx,
                                        CompileReport* r) {
  const std::string min_text = ctx.Option("ge.exec.v2StaticIslandMinNodes", "8");
  char* end = nullptr;
  const long long min_nodes = std::strtoll(min_text.c_str(), &end, 10);
  if (min_text.empty() || *end != '\0' || min_nodes < 0) {
    return InvalidArgument("option ge.exec.v2StaticIslandMinNodes must be >= 0, got '" + min_text + "'");
  }
  if (min_nodes == 0) return std::string();
  CompileOptions island = options;
  island.lower_for_runtime_v2 = nullptr;
  island.form_static_islands = nullptr;
  island.force_dynamic = false;
  island.input_shapes.clear();
  island.input_ranges.clear();
  island.model_name.clear();
  island.variables = nullptr;  // islands never hold variables
  auto compile = [island](ir::Model& m) { return CompileToOm(m, island); };
  GE_ASSIGN_OR_RETURN(std::string bytes, options.form_static_islands(model, compile, static_cast<size_t>(min_nodes)));
  if (bytes.empty()) return bytes;
  proto::StaticIslandsProto parsed;
  if (!parsed.ParseFromString(bytes)) return Internal("the static islands do not parse back");
  r->static_islands = parsed.islands_size();
  for (const proto::StaticIslandProto& i : parsed.islands()) r->static_island_nodes += i.num_nodes();
  r->notes.push_back(std::to_string(r->static_islands) + " static island(s) of " +
                     std::to_string(r->static_island_nodes) + " nodes compiled into the .om (each runs as one sunk "
                     "task list inside the dynamic model)");
  return bytes;
}

// The whole pipeline, up to an OmWriter holding the partitions (written to memory or to a file by the caller).
// |om_path|: where the .om will be written; empty when it goes to memory.
StatusOr<std::unique_ptr<om::OmWriter>> CompileToWriter(ir::Model& model, const CompileOptions& options,
                                                        const std::string& om_path, CompileReport* report) {
  CompileReport local;
  CompileReport* r = report != nullptr ? report : &local;
  *r = CompileReport();
  if (model.graph == nullptr) return InvalidArgument("the model has no graph");
  r->nodes_before = static_cast<size_t>(model.graph->num_nodes());
  trace::TraceRecorder* tr = options.trace;
  trace::TraceScope whole(tr, "compile " + model.graph->name(), "compile");
  std::optional<trace::TraceScope> phase(std::in_place, tr, "input shapes", "compile");
  GE_RETURN_IF_ERROR(FixInputShapes(model, options, r));

  std::unique_ptr<var::VarManager> private_variables;
  var::VarManager* variables = options.variables;
  if (variables == nullptr) {
    private_variables = std::make_unique<var::VarManager>(/*session_id=*/0, /*device=*/nullptr);
    GE_RETURN_IF_ERROR(private_variables->Init(var::VarManagerOptions()));
    variables = private_variables.get();
  }
  PassContext ctx;
  ctx.options = options.ge_options;
  ctx.variable_initialized = [variables](const std::string& name) { return variables->IsVarInitialized(name); };
  ctx.variables = variables;
  ctx.engines = options.engines;
  ctx.trace = tr;
  GE_ASSIGN_OR_RETURN(ctx.target, ResolveTarget(options.target, ctx.engines, r));
  r->target = IsaLevelName(ctx.target);
  for (const char* key : {"ge.exec.variable_acc", "ge.AllowMultiGraphParallelCompile"}) {
    const std::string v = ctx.Option(key, "0");
    if (v != "0" && v != "1") return InvalidArgument(std::string("option ") + key + " must be 0 or 1, got '" + v + "'");
  }
  const std::string precision = ctx.Option("ge.exec.precision_mode", "fp32");
  if (precision != "fp32" && precision != "allow_bf16") {
    return InvalidArgument("option ge.exec.precision_mode must be fp32 or allow_bf16, got '" + precision + "'");
  }
  GE_ASSIGN_OR_RETURN(ExternalWeightsOptions external,
                      ExternalWeightsOptionsFor(options.ge_options, om_path,
                                                options.model_name.empty() ? model.graph->name() : options.model_name));
  external.min_bytes = kInlineWeightBytes;
  external.embed_sources = options.embed_external_data;
  phase.emplace(tr, "prepare: inference, folding, fusions, engines", "compile");
  {
    PassManager files;
    files.Add(CreateFileConstantPreparePass());
    GE_RETURN_IF_ERROR(files.Run(model, ctx));
  }
  GE_RETURN_IF_ERROR(RunPreparePipeline(model, ctx));
  {
    PassManager order;
    order.Add(CreateVariablePreparePass());
    GE_RETURN_IF_ERROR(order.Run(model, ctx));
  }
  r->nodes_after = static_cast<size_t>(model.graph->num_nodes());

  om::OmWriteOptions wo;
  wo.model_name = options.model_name.empty() ? model.graph->name() : options.model_name;
  // What a CPU needs to run the kernels and weight layouts chosen for the target.
  wo.isa_features = IsaLevelFeatures(ctx.target);

  r->dynamic_reason = StaticModelBlocker(model);
  if (options.force_dynamic && r->dynamic_reason.empty()) r->dynamic_reason = "runtime v2 requested";
  if (!r->dynamic_reason.empty()) {
    if (precision != "fp32") r->notes.push_back("precision_mode " + precision + " has no effect on a dynamic model");
    if (external.mode != 0) {
      r->notes.push_back("ge.externalWeight applies to static models: this dynamic model keeps its weights in the .om");
    }
    if (!external.embed_sources && HasSourcedConstants(*model.graph)) {
      r->notes.push_back("this dynamic model keeps its ONNX external data in the .om (static models reference it)");
    }
    wo.dynamic = true;
    phase.emplace(tr, "variables, static islands, lowering for runtime v2", "compile");
    // Runtime v2 reads and writes the session's variables in their declared descs (no variable acceleration).
    std::map<std::string, uint64_t> variable_addresses;
    GE_RETURN_IF_ERROR(RequireDeclaredVariableDescs(*model.graph, *variables));
    GE_RETURN_IF_ERROR(AssignVariables(*model.graph, {}, ctx.engines, variables, &variable_addresses));
    std::unique_ptr<om::OmWriter> writer;
    if (!options.lower_for_runtime_v2) {
      GE_ASSIGN_OR_RETURN(writer, om::MakeIrOmWriter(model, wo));
    } else {
      std::string islands;
      if (options.form_static_islands) {
        GE_ASSIGN_OR_RETURN(islands, FormStaticIslands(model, options, ctx, r));
      }
      auto plan = options.lower_for_runtime_v2(model);
      if (!plan.ok()) return plan.status().WithContext("lowering for runtime v2");
      wo.model_type = om::OmModelType::kLowered;
      GE_ASSIGN_OR_RETURN(writer, om::MakeIrOmWriter(model, wo));
      GE_RETURN_IF_ERROR(writer->AddPartition(om::PartitionType::kExecutePlan, std::move(*plan)));
      if (!islands.empty()) {
        GE_RETURN_IF_ERROR(writer->AddPartition(om::PartitionType::kStaticIslands, std::move(islands)));
      }
    }
    GE_RETURN_IF_ERROR(AddVarInfo(*model.graph, variable_addresses, variables, writer.get()));
    for (const auto& [name, address] : variable_addresses) r->variables.push_back(name);
    return writer;
  }
  // The activation layout of convolution chains (DESIGN.md §3 format selection); NCHW leaves every value plain.
  const std::string layout_name = ctx.Option("ge.format.activation", "NHWC");
  Format layout = Format::kND;
  if (!ParseFormat(layout_name, &layout) ||
      (layout != Format::kNHWC && layout != Format::kNC1HWC0 && layout != Format::kNCHW)) {
    return InvalidArgument("option ge.format.activation must be NHWC, NC1HWC0 or NCHW, got '" + layout_name + "'");
  }
  // NC1HWC0's channel block is what the engine of the chains wants at the target (its float32 vector width for
  // the dnnl engine: 16 with AVX-512, 8 with AVX2).
  const kernels::Engine* blocked_engine = BlockedLayoutEngine(ctx);
  if (layout == Format::kNC1HWC0 && blocked_engine != nullptr &&
      blocked_engine->BlockedChannels(ctx.target) != FormatC0(layout)) {
    layout = WithC0(layout, blocked_engine->BlockedChannels(ctx.target));
  }
  const std::string prepack = ctx.Option("ge.weights.prepack", "1");
  if (prepack != "0" && prepack != "1") {
    return InvalidArgument("option ge.weights.prepack must be 0 or 1, got '" + prepack + "'");
  }
  phase.emplace(tr, "formats, tuning, kernel selection", "compile");
  KernelSelectionReport kernels;
  TuneReport tune;
  std::map<std::string, std::vector<var::TransStep>> roads;  // variables whose stored desc this compile changed
  {
    PassManager formats;
    if (layout != Format::kNCHW) formats.Add(CreateFormatSelectionPass(layout));
    if (options.tune) {
      std::function<void(int64_t, int64_t)> progress;
      if (options.progress) progress = [&](int64_t done, int64_t total) { options.progress("tune", done, total); };
      formats.Add(CreateTunePass(options.threads, &tune, std::move(progress)));
    }
    formats.Add(CreateVariableFormatPass(&roads));
    formats.Add(CreateKernelSelectionPass(options.threads, prepack == "1", !external.embed_sources, &kernels));
    formats.Add(CreateVariablePreparePass());  // readers the format passes added
    GE_RETURN_IF_ERROR(formats.Run(model, ctx));
    r->impls = kernels.impls;
    if (options.tune) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "tuned %d nodes on this machine for %d thread(s) (--threads; run it so): %d run "
                    "another variant than the default, %.3f ms per run faster", tune.nodes, options.threads,
                    tune.changed, tune.seconds_saved * 1e3);
      r->notes.push_back(buf);
    }
    for (const std::string& n : kernels.reference_nodes) {
      r->notes.push_back("warning: node " + n + " runs a oneDNN reference implementation (slow) on target " +
                         IsaLevelName(ctx.target));
    }
  }
  BuildOptions bo;
  bo.auto_streams = options.ge_options.count("ge.streamMaxParallelNum") == 0;
  for (const auto& [key, value] : options.ge_options) {
    GE_RETURN_IF_ERROR(ApplyMemoryPlanOption(key, value, &bo.memory));
    GE_RETURN_IF_ERROR(ApplyStreamAllocOption(key, value, &bo.streams));
  }
  // Engine kernels that already use every intra-op thread (oneDNN's) only compete for the cores on concurrent
  // streams (squeezenet: 4 streams 10.8 ms, 1 stream 7.9 ms at 2 threads). The automatic count is then one stream.
  if (bo.auto_streams) {
    for (const ir::Node* n : model.graph->nodes()) {
      const kernels::Engine* e = kernels::FindEngine(ctx.engines, n->engine());
      if (e != nullptr && e->UsesAllThreads()) bo.streams.max_streams = 1;
    }
  }
  phase.emplace(tr, "assign variables", "compile");
  GE_RETURN_IF_ERROR(AssignVariables(*model.graph, roads, ctx.engines, variables, &bo.variable_addresses));
  for (const auto& [name, road] : roads) r->changed_variables.push_back(name);
  phase.emplace(tr, "build: planning, tasks", "compile");
  bo.trace = tr;
  GE_ASSIGN_OR_RETURN(CompiledModel cm, BuildStaticModel(model, bo));
  phase.emplace(tr, "external weights", "compile");
  {
    ExternalWeightsReport ext;
    PassManager files;
    files.Add(CreateExternalWeightsPass(external, &ext));
    GE_RETURN_IF_ERROR(files.Run(model, ctx));
    if (ext.tensors > 0) GE_RETURN_IF_ERROR(UpdateForFileConstants(model, &cm));
    r->external_weight_tensors = ext.tensors;
    r->external_weights_bytes = ext.bytes;
    r->external_weight_files = ext.files;
    r->external_data_tensors = ext.source_tensors;
    r->external_data_bytes = ext.source_bytes;
    r->external_data_files = ext.source_files;
  }
  cm.def.set_precision_mode(precision);
  cm.def.set_variable_acc_off(!VariableAccelerationOn(ctx));
  cm.def.set_target_isa(IsaLevelName(ctx.target));
  if (precision == "allow_bf16" && static_cast<int>(ctx.target) < static_cast<int>(IsaLevel::kX86_64_V4)) {
    r->notes.push_back(std::string("precision_mode allow_bf16: target ") + IsaLevelName(ctx.target) +
                       " has no bfloat16 kernels, so the model computes in fp32");
  } else if (precision == "allow_bf16" &&
             std::none_of(ctx.engines.begin(), ctx.engines.end(), [](const auto& e) { return e->RunsBf16(); })) {
    r->notes.push_back("precision_mode allow_bf16: this CPU has no AVX-512 BF16, so the model computes in fp32 here "
                       "(on a CPU with it, convolutions and matmuls compute in bf16)");
  }
  r->static_model = true;
  r->feature_map_bytes = cm.def.memory().feature_map_bytes();
  r->feature_map_lower_bound_bytes = cm.def.memory().feature_map_lower_bound_bytes();
  r->weights_bytes = cm.weights.size();
  r->memory_strategy = cm.def.memory().strategy();
  r->num_streams = cm.def.num_streams();
  r->num_events = cm.def.num_events();
  r->num_tasks = static_cast<size_t>(cm.tasks.tasks_size());
  r->elided_concats = cm.def.memory().elided_concats();

  phase.emplace(tr, "serialize MODEL_DEF, TASK_INFO, WEIGHTS_DATA", "compile");
  wo.model_type = om::OmModelType::kStandard;
  auto writer = std::make_unique<om::OmWriter>(wo);
  std::string def, tasks;
  if (!cm.def.SerializeToString(&def) || !cm.tasks.SerializeToString(&tasks)) {
    return ResourceExhausted("the compiled model is too large to serialize (protobuf limit 2 GiB)");
  }
  GE_RETURN_IF_ERROR(writer->AddPartition(om::PartitionType::kModelDef, std::move(def)));
  GE_RETURN_IF_ERROR(writer->AddPartition(om::PartitionType::kTaskInfo, std::move(tasks)));
  if (!cm.weights.empty()) {
    GE_RETURN_IF_ERROR(writer->AddPartition(om::PartitionType::kWeightsData, std::move(cm.weights)));
  }
  GE_RETURN_IF_ERROR(AddVarInfo(*model.graph, bo.variable_addresses, variables, writer.get()));
  for (const auto& [name, address] : bo.variable_addresses) r->variables.push_back(name);
  return writer;
}

}  // namespace

StatusOr<std::vector<uint8_t>> CompileToOm(ir::Model& model, const CompileOptions& options, CompileReport* report) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmWriter> writer, CompileToWriter(model, options, "", report));
  return writer->WriteToMemory();
}

Status CompileToOmFile(ir::Model& model, const CompileOptions& options, const std::string& path,
                       CompileReport* report) {
  if (path.empty()) return InvalidArgument("CompileToOmFile: no output path");
  GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmWriter> writer, CompileToWriter(model, options, path, report));
  trace::TraceScope write(options.trace, "write the .om", "compile");
  return writer->WriteToFile(path);
}

}  // namespace ge::compiler
