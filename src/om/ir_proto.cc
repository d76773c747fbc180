#include "om/ir_proto.h"

#include <climits>
#include <cstring>
#include <unordered_map>

namespace ge::om {

namespace {

constexpr int kMaxGraphDepth = 64;

using AttrType = ir::AttrValue::Type;

// ---- writing ----

Status TensorToProto(const Tensor& t, proto::TensorProto* p, WeightSink* sink = nullptr,
                     const ir::Value* value = nullptr) {
  if (!t.valid()) {
    p->set_null(true);
    return Status::Ok();
  }
  p->set_dtype(static_cast<int32_t>(t.dtype()));
  for (int64_t d : t.dims()) p->add_dims(d);
  if (t.dtype() == DataType::kString) {
    const std::string* s = t.data<std::string>();
    for (int64_t i = 0; i < t.numel(); ++i) p->add_strings(s[i]);
    return Status::Ok();
  }
  if (sink != nullptr && value != nullptr) {
    GE_ASSIGN_OR_RETURN(std::optional<WeightRef> ref, sink->Put(*value, t));
    if (ref) {
      p->mutable_external()->set_offset(ref->offset);
      p->mutable_external()->set_size(ref->size);
      return Status::Ok();
    }
  }
  p->set_raw(t.raw_data(), t.nbytes());
  return Status::Ok();
}

}  // namespace

void DescToProto(const TensorDesc& d, proto::TensorDescProto* p) {
  p->set_kind(static_cast<int32_t>(d.kind));
  p->set_elem_kind(static_cast<int32_t>(d.elem_kind));
  p->set_dtype(static_cast<int32_t>(d.dtype));
  p->set_format(static_cast<int32_t>(d.format));
  proto::ShapeProto* s = p->mutable_shape();
  s->set_unknown_rank(d.shape.unknown_rank());
  bool any_symbol = false;
  for (int i = 0; i < d.shape.rank(); ++i) {
    s->add_dims(d.shape.dim(i));
    any_symbol |= !d.shape.symbol(i).empty();
  }
  if (any_symbol)
    for (int i = 0; i < d.shape.rank(); ++i) s->add_symbols(d.shape.symbol(i));
}

namespace {


Status AttrToProto(const std::string& name, const ir::AttrValue& a, proto::AttrProto* p) {
  p->set_name(name);
  p->set_type(static_cast<proto::AttrProto::Type>(a.type));
  switch (a.type) {
    case AttrType::kInt: p->set_i(a.i); break;
    case AttrType::kFloat: p->set_f(a.f); break;
    case AttrType::kString: p->set_s(a.s); break;
    case AttrType::kTensor: return TensorToProto(a.t, p->mutable_t());
    case AttrType::kInts: p->mutable_ints()->Add(a.ints.begin(), a.ints.end()); break;
    case AttrType::kFloats: p->mutable_floats()->Add(a.floats.begin(), a.floats.end()); break;
    case AttrType::kStrings:
      for (const std::string& s : a.strings) p->add_strings(s);
      break;
    case AttrType::kTensors:
      for (const Tensor& t : a.tensors) GE_RETURN_IF_ERROR(TensorToProto(t, p->add_tensors()));
      break;
    case AttrType::kUndefined:
    case AttrType::kGraph:
    case AttrType::kGraphs: break;
  }
  return Status::Ok();
}

Status GraphToProto(const ir::Graph& g, proto::GraphProto* p, WeightSink* sink) {
  p->set_name(g.name());
  std::unordered_map<const ir::Value*, int> value_index;
  for (const ir::Value* v : g.values()) {
    value_index[v] = p->values_size();
    proto::ValueProto* vp = p->add_values();
    vp->set_name(v->name());
    DescToProto(v->desc(), vp->mutable_desc());
    vp->set_is_capture(v->is_capture());
    if (v->is_constant()) {
      GE_RETURN_IF_ERROR(TensorToProto(*v->const_value(), vp->mutable_const_value(), sink, v)
                             .WithContext("constant '" + v->name() + "'"));
    }
  }
  auto index_of = [&](const ir::Value* v, const std::string& what) -> StatusOr<int> {
    if (v == nullptr) return -1;
    auto it = value_index.find(v);
    if (it == value_index.end()) {
      return InvalidArgument(what + " refers to value '" + v->name() + "' that is not in graph '" + g.name() + "'");
    }
    return it->second;
  };
  for (const ir::Value* v : g.inputs()) {
    GE_ASSIGN_OR_RETURN(int i, index_of(v, "graph input"));
    p->add_inputs(i);
  }
  for (const ir::Value* v : g.outputs()) {
    GE_ASSIGN_OR_RETURN(int i, index_of(v, "graph output"));
    p->add_outputs(i);
  }
  std::vector<ir::Node*> nodes = g.nodes();
  std::unordered_map<const ir::Node*, int> node_index;
  for (size_t i = 0; i < nodes.size(); ++i) node_index[nodes[i]] = static_cast<int>(i);
  for (const ir::Node* n : nodes) {
    proto::NodeProto* np = p->add_nodes();
    const std::string what = "node '" + n->name() + "'";
    np->set_name(n->name());
    np->set_op_type(n->op_type());
    np->set_domain(n->domain());
    np->set_engine(n->engine());
    for (const ir::Value* v : n->inputs()) {
      GE_ASSIGN_OR_RETURN(int i, index_of(v, what + " input"));
      np->add_inputs(i);
    }
    for (const ir::Value* v : n->outputs()) {
      GE_ASSIGN_OR_RETURN(int i, index_of(v, what + " output"));
      np->add_outputs(i);
    }
    for (const auto& [name, a] : n->attrs().all()) GE_RETURN_IF_ERROR(AttrToProto(name, a, np->add_attrs()));
    for (const ir::Node* c : n->control_inputs()) {
      auto it = node_index.find(c);
      if (it == node_index.end()) return InvalidArgument(what + " has a control input from another graph");
      np->add_control_inputs(it->second);
    }
    for (const auto& [attr, sub] : n->subgraphs()) {
      proto::SubgraphProto* sp = np->add_subgraphs();
      sp->set_attr_name(attr);
      GE_RETURN_IF_ERROR(GraphToProto(*sub, sp->mutable_graph(), sink));
    }
  }
  return Status::Ok();
}

// ---- reading ----

StatusOr<DataType> DataTypeFromProto(int32_t v, bool allow_undefined, const std::string& what) {
  if (!(allow_undefined && v == 0) && !IsValidDataType(v)) {
    return DataLoss(what + ": invalid data type " + std::to_string(v));
  }
  return static_cast<DataType>(v);
}

StatusOr<Tensor> TensorFromProto(const proto::TensorProto& p, WeightSource* source, const std::string& what) {
  if (p.null()) return Tensor();
  GE_ASSIGN_OR_RETURN(DataType dt, DataTypeFromProto(p.dtype(), false, what));
  Dims dims(p.dims().begin(), p.dims().end());
  auto numel_or = CheckedNumElements(dims);
  if (!numel_or.ok()) return DataLoss(what + ": " + numel_or.status().message());
  const int64_t numel = *numel_or;
  const int64_t elem = static_cast<int64_t>(DataTypeSize(dt));
  if (numel > kMaxTensorBytes / elem) return DataLoss(what + ": tensor " + DimsToString(dims) + " is too large");
  const uint64_t nbytes = static_cast<uint64_t>(numel * elem);
  if (dt == DataType::kString) {
    if (p.strings_size() != numel) {
      return DataLoss(what + ": string tensor " + DimsToString(dims) + " has " + std::to_string(p.strings_size()) +
                      " strings");
    }
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, dims));
    std::string* s = t.data<std::string>();
    for (int64_t i = 0; i < numel; ++i) s[i] = p.strings(static_cast<int>(i));
    return t;
  }
  if (p.has_external()) {
    if (source == nullptr) return DataLoss(what + ": refers to external weights, but none were given");
    WeightRef ref{p.external().offset(), p.external().size()};
    if (ref.size != nbytes) {
      return DataLoss(what + ": weight reference of " + std::to_string(ref.size) + " bytes for a " +
                      DataTypeName(dt) + DimsToString(dims) + " tensor of " + std::to_string(nbytes) + " bytes");
    }
    GE_ASSIGN_OR_RETURN(Tensor t, source->Get(ref, dt, dims));
    if (!t.valid() || t.dtype() != dt || t.dims() != dims) return Internal(what + ": weight source returned a wrong tensor");
    return t;
  }
  if (p.raw().size() != nbytes) {
    return DataLoss(what + ": " + std::to_string(p.raw().size()) + " data bytes for a " + DataTypeName(dt) +
                    DimsToString(dims) + " tensor of " + std::to_string(nbytes) + " bytes");
  }
  GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, dims));
  if (dt == DataType::kBool) {
    bool* b = t.data<bool>();
    for (int64_t i = 0; i < numel; ++i) b[i] = p.raw()[i] != 0;
  } else if (nbytes > 0) {
    std::memcpy(t.raw_data(), p.raw().data(), nbytes);
  }
  return t;
}

}  // namespace

StatusOr<TensorDesc> DescFromProto(const proto::TensorDescProto& p, const std::string& what) {
  auto kind_ok = [](int32_t k) { return k >= 0 && k <= static_cast<int32_t>(ValueKind::kUnknown); };
  if (!kind_ok(p.kind()) || !kind_ok(p.elem_kind())) return DataLoss(what + ": invalid value kind");
  if (!IsValidFormat(static_cast<Format>(p.format()))) {
    return DataLoss(what + ": invalid format " + std::to_string(p.format()));
  }
  TensorDesc d;
  d.kind = static_cast<ValueKind>(p.kind());
  d.elem_kind = static_cast<ValueKind>(p.elem_kind());
  d.format = static_cast<Format>(p.format());
  GE_ASSIGN_OR_RETURN(d.dtype, DataTypeFromProto(p.dtype(), true, what));
  const proto::ShapeProto& s = p.shape();
  if (s.symbols_size() != 0 && s.symbols_size() != s.dims_size()) return DataLoss(what + ": symbols do not match dims");
  if (s.unknown_rank()) {
    if (s.dims_size() != 0) return DataLoss(what + ": a shape of unknown rank has dims");
    d.shape = Shape::UnknownRank();
    return d;
  }
  d.shape = Shape();
  for (int i = 0; i < s.dims_size(); ++i) {
    if (s.dims(i) < kUnknownDim) return DataLoss(what + ": invalid dim " + std::to_string(s.dims(i)));
    d.shape.AddDim(s.dims(i), s.symbols_size() ? s.symbols(i) : std::string());
  }
  return d;
}

namespace {


StatusOr<ir::AttrValue> AttrFromProto(const proto::AttrProto& p, const std::string& what) {
  if (p.type() < proto::AttrProto::UNDEFINED || p.type() > proto::AttrProto::GRAPHS) {
    return DataLoss(what + ": invalid attribute type " + std::to_string(p.type()));
  }
  ir::AttrValue a;
  a.type = static_cast<AttrType>(p.type());
  switch (a.type) {
    case AttrType::kInt: a.i = p.i(); break;
    case AttrType::kFloat: a.f = p.f(); break;
    case AttrType::kString: a.s = p.s(); break;
    case AttrType::kTensor: {
      GE_ASSIGN_OR_RETURN(a.t, TensorFromProto(p.t(), nullptr, what));
      break;
    }
    case AttrType::kInts: a.ints.assign(p.ints().begin(), p.ints().end()); break;
    case AttrType::kFloats: a.floats.assign(p.floats().begin(), p.floats().end()); break;
    case AttrType::kStrings: a.strings.assign(p.strings().begin(), p.strings().end()); break;
    case AttrType::kTensors:
      for (const proto::TensorProto& tp : p.tensors()) {
        GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(tp, nullptr, what));
        a.tensors.push_back(std::move(t));
      }
      break;
    case AttrType::kUndefined:
    case AttrType::kGraph:
    case AttrType::kGraphs: break;
  }
  return a;
}

Status GraphFromProto(const proto::GraphProto& p, ir::Graph* g, WeightSource* source, int depth) {
  const std::string gwhat = "graph '" + p.name() + "'";
  if (depth > kMaxGraphDepth) return DataLoss(gwhat + ": subgraphs nest deeper than " + std::to_string(kMaxGraphDepth));
  const int nv = p.values_size();
  std::vector<bool> is_input(nv, false);
  for (int k = 0; k < p.inputs_size(); ++k) {
    int i = p.inputs(k);
    if (i < 0 || i >= nv || (k > 0 && i <= p.inputs(k - 1))) return DataLoss(gwhat + ": invalid input list");
    is_input[i] = true;
  }
  std::vector<ir::Value*> values;
  values.reserve(nv);
  for (int i = 0; i < nv; ++i) {
    const proto::ValueProto& vp = p.values(i);
    const std::string what = gwhat + " value '" + vp.name() + "'";
    GE_ASSIGN_OR_RETURN(TensorDesc desc, DescFromProto(vp.desc(), what));
    ir::Value* v = nullptr;
    if (is_input[i] && vp.is_capture()) return DataLoss(what + " is both a graph input and a capture");
    if (is_input[i]) {
      v = g->AddInput(vp.name(), desc);
    } else if (vp.is_capture()) {
      v = g->AddCapture(vp.name());
      v->desc() = desc;
    } else {
      v = g->AddValue(vp.name(), desc);
    }
    if (vp.has_const_value()) {
      GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(vp.const_value(), source, what));
      v->set_const_value(std::move(t));
    }
    values.push_back(v);
  }
  auto value_at = [&](int32_t i, const std::string& what) -> StatusOr<ir::Value*> {
    if (i == -1) return static_cast<ir::Value*>(nullptr);
    if (i < 0 || i >= nv) return DataLoss(what + ": value index " + std::to_string(i) + " out of range");
    return values[i];
  };
  for (int32_t i : p.outputs()) {
    GE_ASSIGN_OR_RETURN(ir::Value* v, value_at(i, gwhat + " output"));
    g->AddOutput(v);
  }
  std::vector<ir::Node*> nodes;
  nodes.reserve(p.nodes_size());
  for (const proto::NodeProto& np : p.nodes()) {
    const std::string what = gwhat + " node '" + np.name() + "'";
    std::vector<ir::Value*> ins, outs;
    for (int32_t i : np.inputs()) {
      GE_ASSIGN_OR_RETURN(ir::Value* v, value_at(i, what));
      ins.push_back(v);
    }
    for (int32_t i : np.outputs()) {
      GE_ASSIGN_OR_RETURN(ir::Value* v, value_at(i, what));
      outs.push_back(v);
    }
    ir::Node* n = g->AddNode(np.op_type(), np.name(), ins, outs, np.domain());
    n->set_engine(np.engine());
    for (const proto::AttrProto& ap : np.attrs()) {
      GE_ASSIGN_OR_RETURN(ir::AttrValue a, AttrFromProto(ap, what + " attribute '" + ap.name() + "'"));
      n->attrs().Set(ap.name(), std::move(a));
    }
    for (const proto::SubgraphProto& sp : np.subgraphs()) {
      ir::Graph* sub = n->AddSubgraph(sp.attr_name(), std::make_unique<ir::Graph>(sp.graph().name()));
      GE_RETURN_IF_ERROR(GraphFromProto(sp.graph(), sub, source, depth + 1));
    }
    nodes.push_back(n);
  }
  for (int k = 0; k < p.nodes_size(); ++k) {
    for (int32_t c : p.nodes(k).control_inputs()) {
      if (c < 0 || c >= static_cast<int32_t>(nodes.size())) {
        return DataLoss(gwhat + " node '" + p.nodes(k).name() + "': control input index out of range");
      }
      nodes[k]->AddControlInput(nodes[c]);
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<proto::IrModelProto> ModelToProto(const ir::Model& model, WeightSink* sink) {
  proto::IrModelProto p;
  p.set_ir_version(model.ir_version);
  p.set_producer(model.producer);
  for (const auto& [domain, version] : model.opsets) {
    proto::OpsetProto* o = p.add_opsets();
    o->set_domain(domain);
    o->set_version(version);
  }
  if (model.graph) GE_RETURN_IF_ERROR(GraphToProto(*model.graph, p.mutable_graph(), sink));
  for (const auto& [input, ranges] : model.input_ranges) {
    proto::InputRangeProto* r = p.add_input_ranges();
    r->set_input(input);
    for (const DimRange& d : ranges) {
      r->add_lo(d.lo);
      r->add_hi(d.hi);
    }
  }
  return p;
}

StatusOr<std::unique_ptr<ir::Model>> ModelFromProto(const proto::IrModelProto& p, WeightSource* source) {
  auto m = std::make_unique<ir::Model>();
  m->ir_version = p.ir_version();
  m->producer = p.producer();
  for (const proto::OpsetProto& o : p.opsets()) m->opsets[o.domain()] = o.version();
  if (p.has_graph()) {
    m->graph = std::make_unique<ir::Graph>(p.graph().name());
    GE_RETURN_IF_ERROR(GraphFromProto(p.graph(), m->graph.get(), source, 0));
  }
  for (const proto::InputRangeProto& r : p.input_ranges()) {
    const std::string what = "dim ranges of input '" + r.input() + "'";
    if (r.lo_size() != r.hi_size() || r.lo_size() > 64) return DataLoss(what + ": malformed");
    if (m->input_ranges.count(r.input()) != 0) return DataLoss(what + ": given twice");
    std::vector<DimRange>& dims = m->input_ranges[r.input()];
    for (int i = 0; i < r.lo_size(); ++i) {
      if (r.lo(i) < 0 || (r.hi(i) >= 0 && r.hi(i) < r.lo(i))) {
        return DataLoss(what + ": dim " + std::to_string(i) + " has an empty or negative range");
      }
      dims.push_back(DimRange{r.lo(i), r.hi(i) < 0 ? -1 : r.hi(i)});
    }
  }
  return m;
}

StatusOr<std::string> SerializeModel(const ir::Model& model, WeightSink* sink) {
  GE_ASSIGN_OR_RETURN(proto::IrModelProto p, ModelToProto(model, sink));
  if (p.ByteSizeLong() > static_cast<size_t>(INT_MAX)) {
    return ResourceExhausted("the model definition exceeds protobuf's 2 GiB limit; store constants as weights");
  }
  std::string out;
  if (!p.SerializeToString(&out)) return Internal("serializing the model definition failed");
  return out;
}

StatusOr<std::unique_ptr<ir::Model>> ParseModel(const void* data, size_t size, WeightSource* source) {
  if (size > static_cast<size_t>(INT_MAX)) return DataLoss("model definition of " + std::to_string(size) + " bytes is too large");
  proto::IrModelProto p;
  if (!p.ParseFromArray(data, static_cast<int>(size))) return DataLoss("model definition is not a valid IR protobuf");
  return ModelFromProto(p, source);
}

}  // namespace ge::om
