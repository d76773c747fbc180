#include "kernels/ref/index/index_util.h"

namespace ge::ref::index_util {

StatusOr<std::vector<int64_t>> ReadIndices(const KernelContext& ctx, const Tensor& t, const std::string& what) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  if (t.dtype() == DataType::kInt64) {
    if (!v.empty()) std::memcpy(v.data(), t.data<int64_t>(), v.size() * sizeof(int64_t));
  } else if (t.dtype() == DataType::kInt32) {
    const int32_t* p = t.data<int32_t>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else {
    return ctx.Error(what + " must be int32 or int64, got " + DataTypeName(t.dtype()));
  }
  return v;
}

Status NormalizeIndices(const KernelContext& ctx, std::vector<int64_t>* idx, int64_t n, const std::string& what) {
  for (int64_t& i : *idx) {
    if (i < -n || i >= n) {
      return ctx.Error(what + " value " + std::to_string(i) + " is out of range [" + std::to_string(-n) + ", " +
                       std::to_string(n) + ")");
    }
    if (i < 0) i += n;
  }
  return Status::Ok();
}

int64_t DimProduct(const Dims& dims, int begin, int end) {
  int64_t p = 1;
  for (int i = begin; i < end; ++i) p *= dims[i];
  return p;
}

}  // namespace ge::ref::index_util
