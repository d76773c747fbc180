#include "compiler/variable_trans.h"

#include <cstring>

#include "base/format.h"
#include "kernels/exec/prepared_kernel.h"
#include "ops/op_id.h"
#include "rt/task.h"

namespace ge::compiler {
namespace {

using ops::OpId;

bool ReshapeLike(const ir::Node& n) {
  return ops::IsOp(n, OpId::kReshape) || ops::IsOp(n, OpId::kSqueeze) || ops::IsOp(n, OpId::kUnsqueeze) ||
         ops::IsOp(n, OpId::kFlatten);
}

// Bytes a tensor of |d| holds in memory (a blocked format: its padded storage).
StatusOr<int64_t> StoredElements(const TensorDesc& d) { return StorageNumElements(d.shape.dims(), d.format); }

// The tensor ApplyTransRoad hands around for |d|: logical dims when the storage is plain, else 1-D storage.
StatusOr<Tensor> NewStored(const TensorDesc& d) {
  if (d.format == Format::kND || d.format == Format::kNCHW) return Tensor::Create(d.dtype, d.shape.dims());
  GE_ASSIGN_OR_RETURN(int64_t n, StoredElements(d));
  return Tensor::Create(d.dtype, {n});
}

// One kernel step: a one-node graph prepared and run on this thread.
StatusOr<Tensor> RunStep(const Tensor& in, const var::TransStep& step, bool inverse,
                         const kernels::EngineList& engines) {
  const TensorDesc& from = inverse ? step.output : step.input;
  const TensorDesc& to = inverse ? step.input : step.output;
  ir::Model model;
  model.graph = std::make_unique<ir::Graph>("trans_road");
  ir::Value* x = model.graph->AddInput("x", from);
  GE_ASSIGN_OR_RETURN(ir::Value * y, AddTransStepNode(model, step, inverse, x));
  ir::Node* node = y->producer();
  if (ops::IsOp(*node, OpId::kGeTransData)) node->set_engine("dnnl");
  exec::RequestSettings settings;
  settings.opset = model.opsets.count(node->domain()) ? model.opsets.at(node->domain()) : 17;
  GE_ASSIGN_OR_RETURN(std::unique_ptr<exec::PreparedKernel> kernel,
                      exec::PrepareKernel(exec::MakeRequest(*node, settings), engines));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<exec::KernelBinding> binding, kernel->NewBinding());
  GE_ASSIGN_OR_RETURN(Tensor out, NewStored(to));
  binding->io.inputs[0] = const_cast<void*>(in.raw_data());  // only read
  for (int i = 1; i < node->num_inputs(); ++i) {
    binding->io.inputs[i] = const_cast<void*>(node->input(i)->const_value()->raw_data());
  }
  binding->io.outputs[0] = out.raw_data();
  rt::TaskContext ctx;
  GE_RETURN_IF_ERROR(kernel->fn()(binding.get(), ctx));
  return out;
}

}  // namespace

bool IsVariableTransOp(const ir::Node& n) {
  if (n.num_inputs() < 1 || n.num_outputs() != 1 || n.output(0) == nullptr || !n.subgraphs().empty()) return false;
  if (ops::IsOp(n, OpId::kCast) || ops::IsOp(n, OpId::kGeTransData)) return n.num_inputs() == 1;
  if (!ReshapeLike(n)) return false;
  for (int i = 1; i < n.num_inputs(); ++i) {  // shape / axes operands: constants only
    if (n.input(i) != nullptr && !n.input(i)->is_constant()) return false;
  }
  return true;
}

var::TransStep TransStepOf(const ir::Node& n) {
  var::TransStep s;
  s.node_type = ReshapeLike(n) ? "Reshape" : n.op_type();
  s.input = n.input(0)->desc();
  s.output = n.output(0)->desc();
  return s;
}

bool SameStoredDesc(const TensorDesc& a, const TensorDesc& b) {
  return a.kind == b.kind && a.dtype == b.dtype && a.format == b.format && a.shape.IsFullyKnown() &&
         b.shape.IsFullyKnown() && a.shape.dims() == b.shape.dims();
}

StatusOr<ir::Value*> AddTransStepNode(ir::Model& model, const var::TransStep& step, bool inverse, ir::Value* in) {
  ir::Graph& g = *model.graph;
  const TensorDesc& to = inverse ? step.input : step.output;
  const TensorDesc& from = inverse ? step.output : step.input;
  ir::Value* out = g.AddValue(g.UniqueValueName(in->name() + "_" + step.node_type), to);
  const std::string name = g.UniqueValueName(in->name() + "_" + step.node_type + "_node");
  if (step.node_type == "Reshape") {
    const Dims& dims = to.shape.dims();
    ir::Value* shape = g.AddConstant(g.UniqueValueName(name + "_shape"),
                                     Tensor::FromVector<int64_t>(std::vector<int64_t>(dims.begin(), dims.end()),
                                                                 {static_cast<int64_t>(dims.size())}));
    g.AddNode(ops::OpName(OpId::kReshape), name, {in, shape}, {out});
    return out;
  }
  if (step.node_type == ops::OpName(OpId::kCast)) {
    ir::Node* n = g.AddNode(ops::OpName(OpId::kCast), name, {in}, {out});
    n->attrs().Set("to", ir::AttrValue::Int(static_cast<int64_t>(to.dtype)));
    return out;
  }
  if (step.node_type == ops::OpName(OpId::kGeTransData)) {
    ir::Node* n = g.AddNode(ops::OpName(OpId::kGeTransData), name, {in}, {out}, ops::OpDomain(OpId::kGeTransData));
    n->attrs().Set("src_format", ir::AttrValue::String(FormatName(from.format)));
    n->attrs().Set("dst_format", ir::AttrValue::String(FormatName(to.format)));
    model.opsets.emplace(ops::OpDomain(OpId::kGeTransData), 1);
    return out;
  }
  return InvalidArgument("a variable's trans road holds an unknown step '" + step.node_type + "'");
}

StatusOr<Tensor> ApplyTransRoad(const Tensor& value, const std::vector<var::TransStep>& road, bool inverse,
                                const kernels::EngineList& engines) {
  if (road.empty()) return value;
  const TensorDesc& first = inverse ? road.back().output : road.front().input;
  GE_ASSIGN_OR_RETURN(int64_t want, StoredElements(first));
  if (value.dtype() != first.dtype || value.numel() != want) {
    return InvalidArgument("a " + std::string(DataTypeName(value.dtype())) + DimsToString(value.dims()) +
                           " tensor does not hold a variable stored as " + first.ToString());
  }
  Tensor cur = value;
  for (size_t k = 0; k < road.size(); ++k) {
    const var::TransStep& step = inverse ? road[road.size() - 1 - k] : road[k];
    const TensorDesc& to = inverse ? step.input : step.output;
    if (step.node_type == "Reshape") {
      GE_ASSIGN_OR_RETURN(Tensor next, NewStored(to));
      if (next.nbytes() != cur.nbytes()) return Internal("a reshape step of a trans road changes the byte count");
      std::memcpy(next.raw_data(), cur.raw_data(), cur.nbytes());
      cur = std::move(next);
      continue;
    }
    auto next = RunStep(cur, step, inverse, engines);
    if (!next.ok()) return next.status().WithContext("converting a variable along its trans road");
    cur = std::move(*next);
  }
  return cur;
}

}  // namespace ge::compiler
