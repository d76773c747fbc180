#include "ops/fused/trans_data_op.h"

#include <string>

namespace ge::ops {
namespace {

Status ParseFormatAttr(const InferContext& ctx, const char* name, Format* f) {
  const std::string s = ctx.attr().GetString(name, "");
  if (!ParseFormat(s, f)) return ctx.Error(std::string(name) + " '" + s + "' is not a known format");
  if (*f == Format::kFractalZ) return ctx.Error(std::string(name) + " " + s + " is a weight format");
  return Status::Ok();
}

bool Plain(Format f) { return !IsNonPlainLayout(f); }

}  // namespace

Status InferTransData(InferContext& ctx) {
  Format src, dst;
  GE_RETURN_IF_ERROR(ParseFormatAttr(ctx, "src_format", &src));
  GE_RETURN_IF_ERROR(ParseFormatAttr(ctx, "dst_format", &dst));
  const TensorDesc* x = ctx.input(0);
  if (x->kind != ValueKind::kTensor) return ctx.Error("X must be a tensor");
  if (x->format != src && !(Plain(x->format) && Plain(src))) {
    return ctx.Error(std::string("X is stored as ") + FormatName(x->format) + ", not src_format " + FormatName(src));
  }
  if ((!Plain(src) || !Plain(dst)) && !x->shape.unknown_rank() && (x->shape.rank() < 3 || x->shape.rank() > 5)) {
    return ctx.Error("NHWC and NC1HWC0 need a tensor of rank 3 to 5, X is " + x->shape.ToString());
  }
  TensorDesc& y = ctx.output(0);
  y = *x;
  y.format = dst;
  return Status::Ok();
}

}  // namespace ge::ops
