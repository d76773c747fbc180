#include "compiler/planning/model_builder.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "compiler/planning/buffer_lifetimes.h"
#include "compiler/planning/no_task_concat.h"
#include "kernels/exec/prepared_kernel.h"
#include "om/ir_proto.h"
#include "om/weights.h"
#include "ops/op_id.h"
#include "ops/variable/variable_ref.h"

namespace ge::compiler {

namespace {

std::string Describe(const ir::Value& v) { return "value '" + v.name() + "' (" + v.desc().ToString() + ")"; }

Status CheckStaticValue(const ir::Value& v) {
  const TensorDesc& d = v.desc();
  if (d.kind != ValueKind::kTensor) return FailedPrecondition(Describe(v) + " is not a tensor");
  if (d.dtype == DataType::kUndefined || d.dtype == DataType::kString) {
    return FailedPrecondition(Describe(v) + " has no fixed-size element type");
  }
  if (!d.shape.IsFullyKnown()) return FailedPrecondition(Describe(v) + " has unknown dims");
  return Status::Ok();
}

proto::TaskDefProto* AddTask(proto::TaskListProto* list, proto::TaskDefProto::Type type, int stream) {
  proto::TaskDefProto* t = list->add_tasks();
  t->set_type(type);
  t->set_stream(stream);
  return t;
}

}  // namespace

StatusOr<uint64_t> StaticTensorBytes(const TensorDesc& desc) {
  if (!desc.shape.IsFullyKnown()) return FailedPrecondition("tensor " + desc.ToString() + " has unknown dims");
  GE_ASSIGN_OR_RETURN(int64_t count, StorageNumElements(desc.shape.dims(), desc.format));
  const uint64_t elem = DataTypeSize(desc.dtype);
  if (count > 0 && elem > (uint64_t{1} << 62) / static_cast<uint64_t>(count)) {
    return ResourceExhausted("tensor " + desc.ToString() + " is too large");
  }
  return static_cast<uint64_t>(count) * elem;
}

std::string StaticModelBlocker(const ir::Model& model) {
  const ir::Graph& g = *model.graph;
  for (const ir::Value* v : g.values()) {
    Status s = CheckStaticValue(*v);
    if (!s.ok()) return s.message();
  }
  for (const ir::Node* n : g.nodes()) {
    if (!n->subgraphs().empty()) return "node '" + n->name() + "' (" + n->op_type() + ") owns subgraphs";
    if (!ops::IsOp(*n, ops::OpId::kGeVariable) && !exec::CanPrepare(*n)) {
      return "node '" + n->name() + "' (" + n->op_type() + ") has no kernel the static runtime can prepare";
    }
  }
  return "";
}

StatusOr<CompiledModel> BuildStaticModel(const ir::Model& model, const BuildOptions& options) {
  std::string blocker = StaticModelBlocker(model);
  if (!blocker.empty()) return FailedPrecondition("not a static model: " + blocker);
  const ir::Graph& g = *model.graph;
  std::optional<trace::TraceScope> phase(std::in_place, options.trace, "plan streams and memory", "compile");

  GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> topo, g.TopologicalOrder());
  std::vector<const ir::Node*> order(topo.begin(), topo.end());
  GE_ASSIGN_OR_RETURN(std::vector<NoTaskConcat> concats, FindNoTaskConcats(g));
  std::unordered_set<const ir::Node*> no_task;
  for (const NoTaskConcat& c : concats) no_task.insert(c.node);
  // The lower bound of the order itself: live bytes per step with plain lifetimes (one stream).
  uint64_t order_lower_bound = 0;
  {
    StreamAllocOptions one = options.streams;
    one.max_streams = 1;
    GE_ASSIGN_OR_RETURN(StreamPlan serial, AllocateStreams(g, order, one));
    GE_ASSIGN_OR_RETURN(FeatureMapBuffers serial_fm, CollectFeatureMapBuffers(g, order, serial, concats));
    MemoryPlanOptions bound_only = options.memory;
    bound_only.strategies = {PlanStrategy::kGreedyBySize};
    GE_ASSIGN_OR_RETURN(MemoryPlan serial_plan, PlanMemory(serial_fm.buffers, bound_only));
    order_lower_bound = serial_plan.feature_map_lower_bound_bytes;
  }
  // Memory first: concurrent streams lengthen lifetimes (a buffer cannot be reused while another stream may still
  // read it). With automatic stream counts, halve the stream budget until the plan fits the memory budget.
  StreamAllocOptions stream_options = options.streams;
  StreamPlan streams;
  FeatureMapBuffers fm;
  MemoryPlan plan;
  while (true) {
    GE_ASSIGN_OR_RETURN(streams, AllocateStreams(g, order, stream_options));
    GE_RETURN_IF_ERROR(VerifyStreamPlan(g, order, streams));
    GE_ASSIGN_OR_RETURN(fm, CollectFeatureMapBuffers(g, order, streams, concats));
    GE_ASSIGN_OR_RETURN(plan, PlanMemory(fm.buffers, options.memory));
    const double budget = options.stream_memory_budget * static_cast<double>(order_lower_bound);
    if (!options.auto_streams || stream_options.max_streams <= 1 || options.memory.disable_reuse ||
        static_cast<double>(plan.feature_map_bytes) <= budget) {
      break;
    }
    stream_options.max_streams /= 2;
  }
  GE_RETURN_IF_ERROR(plan.Verify(fm.buffers));
  phase.emplace(options.trace, "IR and weights to MODEL_DEF; placements; tasks", "compile");

  CompiledModel out;
  proto::ModelDefProto& def = out.def;
  om::WeightsWriter weights(kInlineWeightBytes);
  {
    GE_ASSIGN_OR_RETURN(proto::IrModelProto ir, om::ModelToProto(model, &weights));
    *def.mutable_ir() = std::move(ir);
  }
  out.weights = weights.Release();

  // Indices as ModelToProto numbers them: creation order of values and nodes.
  std::unordered_map<const ir::Value*, int> value_index;
  {
    std::vector<ir::Value*> values = g.values();
    for (size_t i = 0; i < values.size(); ++i) value_index[values[i]] = static_cast<int>(i);
  }
  std::unordered_map<const ir::Node*, int> node_index;
  {
    std::vector<ir::Node*> nodes = g.nodes();
    for (size_t i = 0; i < nodes.size(); ++i) node_index[nodes[i]] = static_cast<int>(i);
  }

  // IO descriptions.
  for (const ir::Value* v : g.inputs()) {
    proto::IoProto* io = def.add_inputs();
    io->set_name(v->name());
    GE_ASSIGN_OR_RETURN(uint64_t bytes, StaticTensorBytes(v->desc()));
    io->set_size(bytes);
    io->set_value(value_index.at(v));
    *io->mutable_desc() = def.ir().graph().values(value_index.at(v)).desc();
  }
  std::unordered_map<const ir::Value*, int> output_slot;  // the output position a producer writes in place
  std::vector<int> copied_outputs;                         // positions filled by a MEMCPY task
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    const ir::Value* v = g.outputs()[i];
    proto::IoProto* io = def.add_outputs();
    io->set_name(v->name());
    GE_ASSIGN_OR_RETURN(uint64_t bytes, StaticTensorBytes(v->desc()));
    io->set_size(bytes);
    io->set_value(value_index.at(v));
    *io->mutable_desc() = def.ir().graph().values(value_index.at(v)).desc();
    const bool produced = v->producer() != nullptr && !v->is_constant() && !v->is_graph_input() &&
                          ops::RefVariable(v) == nullptr;
    if (produced && output_slot.emplace(v, static_cast<int>(i)).second) continue;
    copied_outputs.push_back(static_cast<int>(i));
  }

  // Placements.
  std::unordered_map<const ir::Value*, size_t> fm_index;
  for (size_t k = 0; k < fm.values.size(); ++k) fm_index[fm.values[k]] = k;
  for (const ir::Value* v : g.values()) {
    proto::PlacementProto* p = def.add_placements();
    p->set_value(value_index.at(v));
    GE_ASSIGN_OR_RETURN(uint64_t bytes, StaticTensorBytes(v->desc()));
    p->set_size(bytes);
    if (const ir::Node* var = ops::RefVariable(v)) {
      auto a = options.variable_addresses.find(var->name());
      if (a == options.variable_addresses.end()) {
        return FailedPrecondition("variable '" + var->name() + "' has no address in the session's variable memory");
      }
      p->set_segment(proto::SEG_VARIABLE);
      p->set_offset(a->second);
    } else if (v->is_constant()) {
      p->set_segment(proto::SEG_CONSTANT);
    } else if (v->is_graph_input()) {
      p->set_segment(proto::SEG_INPUT);
      auto it = std::find(g.inputs().begin(), g.inputs().end(), v);
      p->set_io_index(static_cast<int>(it - g.inputs().begin()));
    } else if (auto o = output_slot.find(v); o != output_slot.end()) {
      p->set_segment(proto::SEG_OUTPUT);
      p->set_io_index(o->second);
    } else if (auto f = fm_index.find(v); f != fm_index.end()) {
      p->set_segment(proto::SEG_FEATURE_MAP);
      p->set_offset(plan.offsets[f->second]);
    } else {
      p->set_segment(proto::SEG_NONE);  // produced by nobody and read by nobody
    }
  }

  // Memory summary.
  proto::MemoryPlanProto* mem = def.mutable_memory();
  mem->set_feature_map_bytes(plan.feature_map_bytes);
  mem->set_feature_map_lower_bound_bytes(order_lower_bound);
  mem->set_concurrent_lower_bound_bytes(plan.feature_map_lower_bound_bytes);
  mem->set_weights_bytes(out.weights.size());
  mem->set_alignment(plan.alignment);
  mem->set_strategy(plan.strategy);
  mem->set_reuse_disabled(options.memory.disable_reuse);
  for (const StrategyResult& r : plan.tried) {
    proto::StrategyResultProto* t = mem->add_tried();
    t->set_name(r.strategy);
    t->set_feature_map_bytes(r.feature_map_bytes);
  }
  uint64_t inplace = 0;
  for (int64_t s : plan.inplace_of) inplace += s >= 0 ? 1 : 0;
  mem->set_inplace_pairs(inplace);
  mem->set_elided_concats(concats.size());
  for (const proto::IoProto& io : def.inputs()) mem->set_graph_input_bytes(mem->graph_input_bytes() + io.size());
  for (const proto::IoProto& io : def.outputs()) mem->set_graph_output_bytes(mem->graph_output_bytes() + io.size());

  // Tasks: per stream, each node's event waits, its kernel, its event records.
  const int num_streams = std::max(1, streams.num_streams);
  def.set_num_streams(num_streams);
  def.set_num_events(streams.num_event_ids);
  def.set_pruned_events(streams.pruned_events);
  def.set_seed(options.seed);
  std::unordered_map<const ir::Node*, std::vector<int>> waits_before, records_after;
  for (const StreamEvent& e : streams.events) {
    std::vector<int>& w = waits_before[e.wait_node];
    if (std::find(w.begin(), w.end(), e.id) == w.end()) w.push_back(e.id);
    std::vector<int>& r = records_after[e.record_node];
    if (std::find(r.begin(), r.end(), e.id) == r.end()) r.push_back(e.id);
  }
  proto::TaskListProto& tasks = out.tasks;
  for (int s = 0; s < num_streams; ++s) {
    const std::vector<const ir::Node*> empty;
    const auto& nodes = s < static_cast<int>(streams.stream_nodes.size()) ? streams.stream_nodes[s] : empty;
    for (const ir::Node* n : nodes) {
      for (int id : waits_before[n]) AddTask(&tasks, proto::TaskDefProto::EVENT_WAIT, s)->set_event(id);
      // A Variable runs nothing: its value is the variable's memory; a no-task Concat's producers wrote it.
      if (!ops::IsOp(*n, ops::OpId::kGeVariable) && !no_task.count(n)) {
        AddTask(&tasks, proto::TaskDefProto::KERNEL, s)->set_node(node_index.at(n));
      }
      for (int id : records_after[n]) AddTask(&tasks, proto::TaskDefProto::EVENT_RECORD, s)->set_event(id);
    }
  }
  // Output copies run on the stream of the value's producer, after it (graph inputs and constants: stream 0).
  // Streams other than 0 end with them; stream 0's end-graph goes last.
  for (int pos : copied_outputs) {
    const ir::Value* v = g.outputs()[pos];
    int s = v->producer() != nullptr && !v->is_constant() ? std::max(0, streams.StreamOf(v->producer())) : 0;
    proto::TaskDefProto* t = AddTask(&tasks, proto::TaskDefProto::MEMCPY, s);
    t->set_src_value(value_index.at(v));
    t->set_dst_output(pos);
  }
  AddTask(&tasks, proto::TaskDefProto::END_GRAPH, 0);
  return out;
}

Status UpdateForFileConstants(const ir::Model& model, CompiledModel* cm) {
  const ir::Graph& g = *model.graph;
  const std::vector<ir::Value*> values = g.values();
  const std::vector<ir::Node*> nodes = g.nodes();
  const proto::GraphProto& built = cm->def.ir().graph();
  bool same = values.size() == static_cast<size_t>(built.values_size()) &&
              values.size() == static_cast<size_t>(cm->def.placements_size()) &&
              nodes.size() >= static_cast<size_t>(built.nodes_size());
  for (int i = 0; same && i < built.nodes_size(); ++i) same = nodes[i]->name() == built.nodes(i).name();
  for (size_t i = built.nodes_size(); same && i < nodes.size(); ++i) {
    same = ops::IsOp(*nodes[i], ops::OpId::kGeFileConstant);
  }
  if (!same) return Internal("the graph changed after planning beyond FileConstant nodes appended");
  om::WeightsWriter weights(kInlineWeightBytes);
  {
    GE_ASSIGN_OR_RETURN(proto::IrModelProto ir, om::ModelToProto(model, &weights));
    *cm->def.mutable_ir() = std::move(ir);
  }
  cm->weights = weights.Release();
  uint64_t external = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!ops::IsOp(values[i]->producer(), ops::OpId::kGeFileConstant)) continue;
    proto::PlacementProto* p = cm->def.mutable_placements(static_cast<int>(i));
    if (p->value() != static_cast<int>(i) || p->segment() != proto::SEG_CONSTANT) {
      return Internal("FileConstant output '" + values[i]->name() + "' was not planned as a constant");
    }
    p->set_segment(proto::SEG_FILE_CONSTANT);
    p->set_offset(0);
    external += p->size();
  }
  cm->def.mutable_memory()->set_weights_bytes(cm->weights.size());
  cm->def.mutable_memory()->set_external_weights_bytes(external);
  return Status::Ok();
}

}  // namespace ge::compiler
