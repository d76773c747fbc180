// StringNormalizer (opset 10) and TfIdfVectorizer (opset 9).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/misc/misc_kernels.h"

namespace ge::ref::misc {
namespace {

// Case changes are ASCII-only: other bytes (UTF-8 sequences) pass through unchanged.
std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Status RefStringNormalizer(KernelContext& ctx) {
  const Tensor* in = ctx.input(0);
  if (!in || in->dtype() != DataType::kString) return ctx.Error("input must be a string tensor");
  const bool two_d = in->rank() == 2;
  if (!(in->rank() == 1 || (two_d && in->dim(0) == 1))) {
    return ctx.Error("input must have shape [C] or [1, C], got " + DimsToString(in->dims()));
  }
  const std::string action = ctx.attr().GetString("case_change_action", "NONE");
  const bool case_sensitive = ctx.attr().GetInt("is_case_sensitive", 0) != 0;
  std::set<std::string> stop;
  for (const std::string& w : ctx.attr().GetStrings("stopwords")) stop.insert(case_sensitive ? w : Lower(w));
  std::vector<std::string> kept;
  const std::string* src = in->data<std::string>();
  for (int64_t i = 0; i < in->numel(); ++i) {
    if (stop.count(case_sensitive ? src[i] : Lower(src[i]))) continue;
    kept.push_back(action == "LOWER" ? Lower(src[i]) : action == "UPPER" ? Upper(src[i]) : src[i]);
  }
  // Everything filtered out: a single empty string keeps the output non-empty (as ONNX Runtime does).
  if (kept.empty()) kept.emplace_back();
  const int64_t n = static_cast<int64_t>(kept.size());
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0, two_d ? Dims{1, n} : Dims{n}, DataType::kString));
  std::string* dst = out->data<std::string>();
  for (int64_t i = 0; i < n; ++i) dst[i] = std::move(kept[i]);
  return Status::Ok();
}

// The pool of n-grams: for each length n, a map from the n-gram to its position in the pool.
template <typename K>
using NgramPool = std::vector<std::map<std::vector<K>, int64_t>>;

template <typename K>
Status BuildPool(const KernelContext& ctx, const std::vector<K>& pool, const std::vector<int64_t>& starts,
                 NgramPool<K>* out, int64_t* total) {
  out->assign(starts.size() + 1, {});
  int64_t id = 0;
  const int64_t size = static_cast<int64_t>(pool.size());
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t n = static_cast<int64_t>(k) + 1;
    const int64_t begin = starts[k], end = k + 1 < starts.size() ? starts[k + 1] : size;
    if (begin < 0 || end < begin || end > size || (end - begin) % n != 0) {
      return ctx.Error("ngram_counts does not describe the pool (" + std::to_string(n) + "-grams span [" +
                       std::to_string(begin) + ", " + std::to_string(end) + ") of " + std::to_string(size) + ")");
    }
    for (int64_t p = begin; p < end; p += n) {
      (*out)[n].emplace(std::vector<K>(pool.begin() + p, pool.begin() + p + n), id++);
    }
  }
  *total = id;
  return Status::Ok();
}

// Counts, per pool n-gram, its occurrences in each row: every start position and skip (gap) count, where the
// n items are `skip + 1` apart. Unigrams are counted once per position.
template <typename K>
void CountNgrams(const std::vector<K>& items, int64_t rows, int64_t cols, const NgramPool<K>& pool, int64_t min_n,
                 int64_t max_n, int64_t max_skip, int64_t total, std::vector<int64_t>* counts) {
  counts->assign(rows * total, 0);
  std::vector<K> key;
  for (int64_t r = 0; r < rows; ++r) {
    const K* row = items.data() + r * cols;
    int64_t* cnt = counts->data() + r * total;
    for (int64_t n = min_n; n <= max_n; ++n) {
      if (pool[n].empty()) continue;
      for (int64_t skip = 0; skip <= (n == 1 ? 0 : max_skip); ++skip) {
        const int64_t step = skip + 1;
        for (int64_t s = 0; s + (n - 1) * step < cols; ++s) {
          key.clear();
          for (int64_t j = 0; j < n; ++j) key.push_back(row[s + j * step]);
          auto it = pool[n].find(key);
          if (it != pool[n].end()) ++cnt[it->second];
        }
      }
    }
  }
}

Status RefTfIdfVectorizer(KernelContext& ctx) {
  const Tensor* in = ctx.input(0);
  if (!in) return ctx.Error("input must be a tensor");
  const DataType dt = in->dtype();
  if (dt != DataType::kString && dt != DataType::kInt32 && dt != DataType::kInt64) {
    return ctx.Error("input must be string, int32 or int64");
  }
  if (in->rank() != 1 && in->rank() != 2) return ctx.Error("input must be 1-D or 2-D");
  const int64_t rows = in->rank() == 2 ? in->dim(0) : 1;
  const int64_t cols = in->rank() == 2 ? in->dim(1) : in->dim(0);
  const std::string mode = ctx.attr().GetString("mode", "");
  const int64_t min_n = ctx.attr().GetInt("min_gram_length", 0);
  const int64_t max_n = ctx.attr().GetInt("max_gram_length", 0);
  const int64_t max_skip = ctx.attr().GetInt("max_skip_count", 0);
  const std::vector<int64_t> starts = ctx.attr().GetInts("ngram_counts");
  const std::vector<int64_t> indexes = ctx.attr().GetInts("ngram_indexes");
  const std::vector<float> weights = ctx.attr().GetFloats("weights");
  if (min_n < 1 || max_n < min_n || max_n > static_cast<int64_t>(starts.size()) || max_skip < 0 || indexes.empty()) {
    return ctx.Error("invalid n-gram attributes");
  }
  int64_t total = 0;
  std::vector<int64_t> counts;
  if (dt == DataType::kString) {
    if (!ctx.attr().Has("pool_strings")) return ctx.Error("string input needs pool_strings");
    NgramPool<std::string> pool;
    GE_RETURN_IF_ERROR(BuildPool(ctx, ctx.attr().GetStrings("pool_strings"), starts, &pool, &total));
    std::vector<std::string> items(in->data<std::string>(), in->data<std::string>() + in->numel());
    if (static_cast<int64_t>(indexes.size()) == total) CountNgrams(items, rows, cols, pool, min_n, max_n, max_skip, total, &counts);
  } else {
    if (!ctx.attr().Has("pool_int64s")) return ctx.Error("integer input needs pool_int64s");
    NgramPool<int64_t> pool;
    GE_RETURN_IF_ERROR(BuildPool(ctx, ctx.attr().GetInts("pool_int64s"), starts, &pool, &total));
    std::vector<int64_t> items = in->ToInt64Vector();
    if (static_cast<int64_t>(indexes.size()) == total) CountNgrams(items, rows, cols, pool, min_n, max_n, max_skip, total, &counts);
  }
  if (static_cast<int64_t>(indexes.size()) != total) {
    return ctx.Error("ngram_indexes has " + std::to_string(indexes.size()) + " entries, the pool holds " +
                     std::to_string(total) + " n-grams");
  }
  if (!weights.empty() && static_cast<int64_t>(weights.size()) != total) {
    return ctx.Error("weights must have one entry per pool n-gram");
  }
  if (*std::min_element(indexes.begin(), indexes.end()) < 0) return ctx.Error("ngram_indexes must be >= 0");
  const int64_t width = *std::max_element(indexes.begin(), indexes.end()) + 1;
  Dims dims = in->rank() == 2 ? Dims{rows, width} : Dims{width};
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0, dims, DataType::kFloat));
  float* o = out->data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < total; ++i) {
      const int64_t c = counts[r * total + i];
      if (c == 0) continue;
      const float w = weights.empty() ? 1.0f : weights[i];
      float v = static_cast<float>(c);
      if (mode == "IDF") v = w;
      if (mode == "TFIDF") v = static_cast<float>(c) * w;
      o[r * width + indexes[i]] += v;
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterTextKernels(KernelRegistry* r) {
  r->Add(OpId::kStringNormalizer, RefStringNormalizer);
  r->Add(OpId::kTfIdfVectorizer, RefTfIdfVectorizer);
}

}  // namespace ge::ref::misc
