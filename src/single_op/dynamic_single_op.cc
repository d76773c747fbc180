// The public dynamic form (include/ge/single_op.h): a PreparedOp per distinct set of input descs, kept in a bounded
// LRU cache owned by the object.
#include "ge/single_op.h"

#include "single_op/kernel_cache.h"
#include "single_op/op_def.h"
#include "single_op/prepared_op.h"

namespace ge {

struct DynamicSingleOp::Impl {
  explicit Impl(single_op::OpDef d) : def(std::move(d)), cache(def.cache_capacity) {}

  // After a miss on `key` (built by the caller from `descs`): prepares the op for `descs` and caches it there.
  StatusOr<single_op::PreparedOp*> PrepareAndCache(const std::vector<OpTensorDesc>& descs) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<single_op::PreparedOp> op, single_op::PreparedOp::Create(def, descs));
    return cache.Insert(key, std::move(op));
  }

  single_op::OpDef def;
  std::unique_ptr<rt::ThreadPool> pool;  // null: kernels run on the calling thread alone
  single_op::KernelCache cache;
  std::string key;                  // reused by every call: a cache hit allocates nothing
  std::vector<OpTensorDesc> descs;  // the Tensor form's descs on a miss
};

DynamicSingleOp::DynamicSingleOp(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DynamicSingleOp::~DynamicSingleOp() = default;

StatusOr<std::unique_ptr<DynamicSingleOp>> DynamicSingleOp::Create(const std::string& op_type, const Attrs& attrs,
                                                                   const SingleOpOptions& options) {
  GE_ASSIGN_OR_RETURN(single_op::OpDef def, single_op::MakeOpDef(op_type, attrs, options));
  auto impl = std::make_unique<Impl>(std::move(def));
  GE_ASSIGN_OR_RETURN(impl->pool, single_op::MakePool(impl->def));
  return std::unique_ptr<DynamicSingleOp>(new DynamicSingleOp(std::move(impl)));
}

const std::string& DynamicSingleOp::op_type() const { return impl_->def.op_type; }

StatusOr<std::vector<OpTensorDesc>> DynamicSingleOp::InferOutputs(const std::vector<OpTensorDesc>& input_descs) {
  Impl& m = *impl_;
  m.key.clear();
  for (const OpTensorDesc& d : input_descs) single_op::AppendKey(d, &m.key);
  single_op::PreparedOp* op = m.cache.Find(m.key);
  if (op == nullptr) {
    GE_ASSIGN_OR_RETURN(op, m.PrepareAndCache(input_descs));
  }
  return op->outputs();
}

Status DynamicSingleOp::Run(const std::vector<OpTensorDesc>& input_descs, const std::vector<InputBuffer>& inputs,
                            const std::vector<OutputBuffer>& outputs) {
  Impl& m = *impl_;
  m.key.clear();
  for (const OpTensorDesc& d : input_descs) single_op::AppendKey(d, &m.key);
  single_op::PreparedOp* op = m.cache.Find(m.key);
  if (op == nullptr) {
    GE_ASSIGN_OR_RETURN(op, m.PrepareAndCache(input_descs));
  }
  return op->Run(inputs.data(), inputs.size(), outputs.data(), outputs.size(), m.pool.get());
}

Status DynamicSingleOp::Run(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  Impl& m = *impl_;
  m.key.clear();
  for (const Tensor& t : inputs) single_op::AppendKey(t, &m.key);
  single_op::PreparedOp* op = m.cache.Find(m.key);
  if (op == nullptr) {
    m.descs.clear();
    for (const Tensor& t : inputs) m.descs.push_back(t.valid() ? OpTensorDesc(t.dtype(), t.dims()) : OpTensorDesc());
    GE_ASSIGN_OR_RETURN(op, m.PrepareAndCache(m.descs));
  }
  return op->Run(inputs, /*all_op_inputs=*/true, outputs, m.pool.get());
}

size_t DynamicSingleOp::cache_size() const { return impl_->cache.size(); }
size_t DynamicSingleOp::cache_capacity() const { return impl_->cache.capacity(); }
uint64_t DynamicSingleOp::cache_hits() const { return impl_->cache.hits(); }
uint64_t DynamicSingleOp::cache_misses() const { return impl_->cache.misses(); }

}  // namespace ge
