#include "runtime/v2/lowering/static_island.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "kernels/exec/prepared_kernel.h"
#include "om/execute_plan.pb.h"
#include "om/om_reader.h"
#include "ops/op_id.h"
#include "ops/variable/variable_ref.h"
#include "runtime/v2/lowering/extract_subgraph.h"

namespace ge::runtime::v2 {
namespace {

constexpr char kIslandDomain[] = "ge.v2";
constexpr char kIslandOp[] = "StaticIsland";
constexpr char kIslandAttr[] = "island";
constexpr uint32_t kStaticIslandsVersion = 1;

bool StaticTensor(const ir::Value* v) {
  return v != nullptr && IsPlainTensorDesc(v->desc()) && v->desc().shape.IsFullyKnown();
}

// Values computed from shapes only: Shape/Size outputs, then outputs of nodes whose every non-constant input is
// one. Runtime v2 memoizes such nodes (recomputed only when a shape changes: free at a repeated length); in an
// island they would run on every execution behind a v1 call (GPT at length 1: +6 us per island of shape arithmetic).
std::unordered_set<const ir::Value*> ShapeDerivedValues(const std::vector<ir::Node*>& order) {
  std::unordered_set<const ir::Value*> derived;
  for (const ir::Node* n : order) {
    const ops::OpId id = ops::OpIdOf(*n);
    bool from_shapes = id == ops::OpId::kShape || id == ops::OpId::kSize;
    if (!from_shapes && n->subgraphs().empty()) {
      bool any = false, all = true;
      for (const ir::Value* v : n->inputs()) {
        if (v == nullptr || v->is_constant()) continue;
        any = true;
        all = all && derived.count(v) != 0;
      }
      from_shapes = any && all;
    }
    if (from_shapes) derived.insert(n->outputs().begin(), n->outputs().end());
  }
  return derived;
}

// Whether runtime v1 can run |n| inside an island: a prepared kernel, every value a tensor of known shape, no
// control edges either way (|ordered|: nodes other nodes must wait for), no state — a session variable read
// (its reads are ordered against its writes) — no randomness (the oracle would differ), and not computed from
// shapes only (|shape_derived|).
bool Candidate(const ir::Node& n, const std::unordered_set<const ir::Node*>& ordered,
               const std::unordered_set<const ir::Value*>& shape_derived) {
  if (n.num_inputs() == 0 || !n.subgraphs().empty() || !n.control_inputs().empty()) return false;
  if (ordered.count(&n) != 0) return false;
  if (!n.outputs().empty() && n.outputs()[0] != nullptr && shape_derived.count(n.outputs()[0]) != 0) return false;
  for (const ir::Value* v : n.inputs()) {
    if (v != nullptr && ops::RefVariable(v) != nullptr) return false;
  }
  if (n.domain() == kIslandDomain) return false;
  const std::string& op = n.op_type();
  if (op.find("Random") != std::string::npos || op.find("Variable") != std::string::npos ||
      op.find("Assign") != std::string::npos || op == "Dropout" || op == "Multinomial" || op == "Bernoulli") {
    return false;
  }
  for (const ir::Value* v : n.inputs()) {
    if (v != nullptr && !StaticTensor(v)) return false;
  }
  for (const ir::Value* v : n.outputs()) {
    if (!StaticTensor(v)) return false;
  }
  return exec::CanPrepare(n);
}

int Find(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// No path leaves the group and comes back (else one node could not run it).
bool Convex(const std::unordered_set<const ir::Node*>& members) {
  std::vector<const ir::Node*> stack;
  std::unordered_set<const ir::Node*> seen;
  for (const ir::Node* m : members) {
    for (const ir::Value* o : m->outputs()) {
      for (const ir::Use& u : o->uses()) {
        if (!members.count(u.node) && seen.insert(u.node).second) stack.push_back(u.node);
      }
    }
  }
  while (!stack.empty()) {
    const ir::Node* n = stack.back();
    stack.pop_back();
    for (const ir::Value* o : n->outputs()) {
      if (o == nullptr) continue;
      for (const ir::Use& u : o->uses()) {
        if (members.count(u.node)) return false;
        if (seen.insert(u.node).second) stack.push_back(u.node);
      }
    }
  }
  return true;
}

// Loads a compiled island image on |device| (null: a default one of its own).
StatusOr<std::shared_ptr<StaticIsland>> LoadIsland(std::shared_ptr<const std::vector<uint8_t>> image,
                                                   rt::Device* device) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmReader> reader,
                      om::OmReader::FromMemory(image->data(), image->size(), image));
  if (reader->header().model_type != om::OmModelType::kStandard) {
    return DataLoss("a static island is not a compiled model");
  }
  auto island = std::make_shared<StaticIsland>();
  island->image = std::move(image);
  if (device == nullptr) {
    rt::DeviceOptions o;
    o.intra_op_threads = 1;
    GE_ASSIGN_OR_RETURN(island->owned_device, rt::CreateDefaultDevice(o));
    device = island->owned_device.get();
  }
  GE_ASSIGN_OR_RETURN(island->model, SinkModel::Load(std::shared_ptr<const om::OmReader>(std::move(reader)), device));
  return island;
}

// Compiles and loads one group; null (the group stays as it was) when v1 cannot take it.
std::shared_ptr<StaticIsland> Build(ExtractedSubgraph& e, const StaticIslandOptions& options, size_t num_nodes) {
  StatusOr<std::vector<uint8_t>> bytes = options.compile(*e.model);
  if (!bytes.ok()) return nullptr;
  StatusOr<std::shared_ptr<StaticIsland>> loaded =
      LoadIsland(std::make_shared<const std::vector<uint8_t>>(std::move(*bytes)), options.device);
  if (!loaded.ok()) return nullptr;
  std::shared_ptr<StaticIsland> island = std::move(*loaded);
  const auto& ins = island->model->inputs();
  const auto& outs = island->model->outputs();
  if (ins.size() != e.inputs.size() || outs.size() != e.outputs.size()) return nullptr;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].name != e.inputs[i]->name()) return nullptr;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].name != e.outputs[i]->name()) return nullptr;
  }
  island->num_nodes = num_nodes;
  return island;
}

}  // namespace

bool IsStaticIslandNode(const ir::Node& n) { return n.domain() == kIslandDomain && n.op_type() == kIslandOp; }

StatusOr<std::unique_ptr<StaticIslands>> FormStaticIslands(ir::Model& model, const StaticIslandOptions& options) {
  auto out = std::make_unique<StaticIslands>();
  if (!options.compile || options.min_nodes == 0 || model.graph == nullptr) return out;
  ir::Graph& g = *model.graph;
  GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
  std::unordered_map<const ir::Node*, int> index;
  std::vector<int> parent(order.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::unordered_set<const ir::Node*> ordered;
  for (const ir::Node* n : order) ordered.insert(n->control_inputs().begin(), n->control_inputs().end());
  const std::unordered_set<const ir::Value*> shape_derived = ShapeDerivedValues(order);
  for (size_t i = 0; i < order.size(); ++i) {
    if (Candidate(*order[i], ordered, shape_derived)) index[order[i]] = static_cast<int>(i);
  }
  for (const auto& [n, i] : index) {
    for (const ir::Value* v : n->inputs()) {
      if (v == nullptr || v->producer() == nullptr) continue;
      auto it = index.find(v->producer());
      if (it != index.end()) parent[Find(parent, i)] = Find(parent, it->second);
    }
  }
  std::unordered_map<int, std::vector<ir::Node*>> groups;
  std::vector<int> roots;
  for (size_t i = 0; i < order.size(); ++i) {
    if (!index.count(order[i])) continue;
    const int r = Find(parent, static_cast<int>(i));
    if (groups[r].empty()) roots.push_back(r);
    groups[r].push_back(order[i]);  // topological order within the group
  }
  for (int r : roots) {
    std::vector<ir::Node*>& members = groups[r];
    if (members.size() < options.min_nodes) continue;
    if (!Convex(std::unordered_set<const ir::Node*>(members.begin(), members.end()))) continue;
    const int id = static_cast<int>(out->islands.size());
    ExtractedSubgraph e = ExtractSubgraph(model, g, members, g.name() + "_island" + std::to_string(id));
    std::shared_ptr<StaticIsland> island = Build(e, options, members.size());
    if (island == nullptr) continue;
    const std::string name = members.front()->name() + "/StaticIsland";
    for (auto it = members.rbegin(); it != members.rend(); ++it) g.RemoveNode(*it);
    ir::Node* node = g.AddNode(kIslandOp, name, e.inputs, e.outputs, kIslandDomain);
    node->attrs().Set(kIslandAttr, ir::AttrValue::Int(id));
    out->islands.push_back(std::move(island));
  }
  if (!out->islands.empty()) g.RemoveDeadValues();
  return out;
}

StatusOr<std::string> FormStaticIslandsForOm(ir::Model& model, const StaticIslandCompiler& compile, size_t min_nodes) {
  StaticIslandOptions o;
  o.compile = compile;
  o.min_nodes = min_nodes;
  GE_ASSIGN_OR_RETURN(std::unique_ptr<StaticIslands> islands, FormStaticIslands(model, o));
  if (islands->islands.empty()) return std::string();
  proto::StaticIslandsProto p;
  p.set_version(kStaticIslandsVersion);
  for (const auto& island : islands->islands) {
    proto::StaticIslandProto* ip = p.add_islands();
    ip->set_om(island->image->data(), island->image->size());
    ip->set_num_nodes(island->num_nodes);
  }
  std::string out;
  if (!p.SerializeToString(&out)) return Internal("cannot serialize the static islands");
  return out;
}

StatusOr<std::unique_ptr<StaticIslands>> LoadStaticIslands(const void* data, size_t size, rt::Device* device) {
  proto::StaticIslandsProto p;
  if (size > static_cast<size_t>(INT32_MAX) || !p.ParseFromArray(data, static_cast<int>(size))) {
    return DataLoss("corrupt STATIC_ISLANDS partition");
  }
  if (p.version() != kStaticIslandsVersion) {
    return DataLoss("STATIC_ISLANDS version " + std::to_string(p.version()) + ", this runtime reads " +
                    std::to_string(kStaticIslandsVersion));
  }
  auto out = std::make_unique<StaticIslands>();
  for (int i = 0; i < p.islands_size(); ++i) {
    // A copy of its own (the protobuf field is not aligned for the weights the kernels read in place).
    const std::string& bytes = p.islands(i).om();
    auto image = std::make_shared<const std::vector<uint8_t>>(bytes.begin(), bytes.end());
    StatusOr<std::shared_ptr<StaticIsland>> island = LoadIsland(std::move(image), device);
    if (!island.ok()) return DataLoss("static island " + std::to_string(i) + ": " + island.status().ToString());
    (*island)->num_nodes = p.islands(i).num_nodes();
    out->islands.push_back(std::move(*island));
  }
  return out;
}

Status ConvertStaticIsland(NodeLowering& ctx) {
  const StaticIslands* all = ctx.model().options().islands;
  const int64_t id = ctx.node().attrs().GetInt(kIslandAttr, -1);
  if (ctx.model().options().plan_only && (all == nullptr || id < 0 || static_cast<size_t>(id) >= all->islands.size())) {
    // The same kernel, without its island (never run): outputs as the IR describes them.
    auto data = std::make_shared<StaticIslandNode>();
    for (const ValueRef& r : ctx.inputs()) data->in.push_back(r.slot);
    for (ValueSlot* s : ctx.outputs()) data->out.push_back(s);
    LoweringStats& stats = ctx.model().out().stats;
    ++stats.static_islands;
    const uint32_t node = ctx.AddMain(StaticIslandKernel, "StaticIsland", ctx.InputChains(false), 1, data);
    ctx.AddReader(node);
    for (int i = 0; i < static_cast<int>(data->out.size()); ++i) ctx.SetOutput(i, ChainRef{node, 0}, true);
    return Status::Ok();
  }
  if (all == nullptr || id < 0 || static_cast<size_t>(id) >= all->islands.size()) {
    return DataLoss("static island node '" + ctx.node().name() + "' names island " + std::to_string(id) +
                    ", which the model does not have");
  }
  auto data = std::make_shared<StaticIslandNode>();
  data->island = all->islands[static_cast<size_t>(id)];
  const auto& ins = data->island->model->inputs();
  const auto& outs = data->island->model->outputs();
  // The node's values must be the island model's inputs and outputs, in order (a corrupt .om could pair others).
  const ir::Node& n = ctx.node();
  bool same = ins.size() == static_cast<size_t>(n.num_inputs()) && outs.size() == static_cast<size_t>(n.num_outputs());
  for (size_t i = 0; same && i < ins.size(); ++i) same = n.input(i) != nullptr && n.input(i)->name() == ins[i].name;
  for (size_t i = 0; same && i < outs.size(); ++i) same = n.output(i) != nullptr && n.output(i)->name() == outs[i].name;
  if (!same) {
    return DataLoss("static island node '" + n.name() + "' does not match the inputs and outputs of island " +
                    std::to_string(id));
  }
  for (const ValueRef& r : ctx.inputs()) data->in.push_back(r.slot);
  for (size_t i = 0; i < ctx.outputs().size(); ++i) {
    ValueSlot* s = ctx.outputs()[i];
    RtShape shape;
    if (s == nullptr || !RtShape::FromDims(outs[i].desc.shape.dims(), &shape)) {
      return InvalidArgument("static island output '" + outs[i].name + "' has no static tensor slot");
    }
    s->t.SetDesc(outs[i].desc.dtype, shape);
    data->out.push_back(s);
    data->out_bytes.push_back(outs[i].size_bytes);
  }
  data->in_buffers.resize(data->in.size());
  data->out_buffers.resize(data->out.size());
  LoweringStats& stats = ctx.model().out().stats;
  ++stats.static_islands;
  stats.static_island_nodes += data->island->num_nodes;
  const uint32_t node = ctx.AddMain(StaticIslandKernel, "StaticIsland", ctx.InputChains(false), 1, data);
  ctx.AddReader(node);
  for (int i = 0; i < static_cast<int>(data->out.size()); ++i) ctx.SetOutput(i, ChainRef{node, 0}, true);
  return Status::Ok();
}

}  // namespace ge::runtime::v2
