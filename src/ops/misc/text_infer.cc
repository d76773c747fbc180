// Inference of StringNormalizer (opset 10) and TfIdfVectorizer (opset 9).
#include <algorithm>
#include <string>

#include "ops/infer_util.h"
#include "ops/misc/misc_ops.h"

namespace ge::ops::misc {
namespace {

Status InferStringNormalizer(InferContext& ctx) {
  const TensorDesc* in = ctx.input(0);
  if (in->dtype != DataType::kUndefined && in->dtype != DataType::kString) return ctx.Error("input must be string");
  const std::string action = ctx.attr().GetString("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER") {
    return ctx.Error("case_change_action must be NONE, LOWER or UPPER, got '" + action + "'");
  }
  const int64_t cs = ctx.attr().GetInt("is_case_sensitive", 0);
  if (cs != 0 && cs != 1) return ctx.Error("is_case_sensitive must be 0 or 1");
  Shape out;
  if (in->shape.unknown_rank()) {
    out = Shape::UnknownRank();
  } else if (in->shape.rank() == 1) {
    out.AddDim(kUnknownDim);
  } else if (in->shape.rank() == 2 && (in->shape.dim(0) == 1 || in->shape.dim(0) == kUnknownDim)) {
    out.AddDim(1);
    out.AddDim(kUnknownDim);
  } else {
    return ctx.Error("input must have shape [C] or [1, C], got " + in->shape.ToString());
  }
  ctx.output(0) = TensorDesc(DataType::kString, out);
  return Status::Ok();
}

Status InferTfIdfVectorizer(InferContext& ctx) {
  const TensorDesc* in = ctx.input(0);
  const DataType dt = in->dtype;
  if (dt != DataType::kUndefined && dt != DataType::kString && dt != DataType::kInt32 && dt != DataType::kInt64) {
    return ctx.Error("input must be string, int32 or int64");
  }
  const std::string mode = ctx.attr().GetString("mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") return ctx.Error("mode must be TF, IDF or TFIDF");
  const int64_t min_n = ctx.attr().GetInt("min_gram_length", 0);
  const int64_t max_n = ctx.attr().GetInt("max_gram_length", 0);
  const int64_t skip = ctx.attr().GetInt("max_skip_count", 0);
  if (min_n < 1 || max_n < min_n) return ctx.Error("need 1 <= min_gram_length <= max_gram_length");
  if (skip < 0) return ctx.Error("max_skip_count must be >= 0");
  std::vector<int64_t> counts = ctx.attr().GetInts("ngram_counts");
  std::vector<int64_t> indexes = ctx.attr().GetInts("ngram_indexes");
  if (indexes.empty()) return ctx.Error("ngram_indexes is required");
  if (static_cast<int64_t>(counts.size()) < max_n) {
    return ctx.Error("ngram_counts has " + std::to_string(counts.size()) + " entries, max_gram_length is " +
                     std::to_string(max_n));
  }
  const int64_t width = *std::max_element(indexes.begin(), indexes.end()) + 1;
  if (*std::min_element(indexes.begin(), indexes.end()) < 0) return ctx.Error("ngram_indexes must be >= 0");
  Shape out;
  if (in->shape.unknown_rank()) {
    out = Shape::UnknownRank();
  } else if (in->shape.rank() == 1) {
    out.AddDim(width);
  } else if (in->shape.rank() == 2) {
    out.AddDim(in->shape.dim(0), in->shape.symbol(0));
    out.AddDim(width);
  } else {
    return ctx.Error("input must be 1-D or 2-D, got " + in->shape.ToString());
  }
  ctx.output(0) = TensorDesc(DataType::kFloat, out);
  return Status::Ok();
}

}  // namespace

void RegisterTextOps(OpRegistry* r) {
  r->Add({OpId::kStringNormalizer, 1, 1, 1, 1, InferStringNormalizer});
  r->Add({OpId::kTfIdfVectorizer, 1, 1, 1, 1, InferTfIdfVectorizer});
}

}  // namespace ge::ops::misc
