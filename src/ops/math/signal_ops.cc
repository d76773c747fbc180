// Inference for the signal-processing ops of opset 17: DFT, STFT, BlackmanWindow, HannWindow, HammingWindow and
// MelWeightMatrix.
#include "ops/math/math_ops_internal.h"

namespace ge::ops {
namespace {

using math::BadDtype;
using math::DtypeIn;
using math::KnownScalarInt;

constexpr std::initializer_list<DataType> kFloatTypes = {DataType::kFloat16, DataType::kFloat, DataType::kDouble,
                                                         DataType::kBFloat16};
constexpr std::initializer_list<DataType> kIndexTypes = {DataType::kInt32, DataType::kInt64};

StatusOr<DataType> OutputDatatype(const InferContext& ctx) {
  int64_t v = ctx.attr().GetInt("output_datatype", 1);
  if (!IsValidDataType(static_cast<int32_t>(v)) || v != static_cast<int32_t>(v)) {
    return ctx.Error("attribute output_datatype " + std::to_string(v) + " is not a data type");
  }
  DataType dt = static_cast<DataType>(v);
  if (!IsFloatingPoint(dt) && !IsInteger(dt)) {
    return ctx.Error(std::string("attribute output_datatype must be numeric, got ") + DataTypeName(dt));
  }
  return dt;
}

Status CheckScalarInput(const InferContext& ctx, int i, const char* what) {
  const Shape& s = ctx.input(i)->shape;
  if (!s.unknown_rank() && s.rank() > 1) return ctx.Error(std::string(what) + " must be a scalar, got " + s.ToString());
  if (!s.unknown_rank() && s.rank() == 1 && s.dim(0) >= 0 && s.dim(0) != 1) {
    return ctx.Error(std::string(what) + " must hold one value, got " + s.ToString());
  }
  return Status::Ok();
}

// DFT axis: attribute before opset 20, optional third input (default -2) from opset 20. Negative counts from the
// back; the last dim (real/imaginary) is never an axis.
StatusOr<int> DftAxis(const InferContext& ctx, int rank, bool* known) {
  int64_t axis = 1;
  *known = true;
  if (ctx.opset >= 20) {
    axis = -2;
    if (ctx.has_input(2) && !KnownScalarInt(ctx, 2, &axis)) {
      *known = false;
      return 0;
    }
  } else {
    axis = ctx.attr().GetInt("axis", 1);
  }
  if (axis < -rank || axis > rank - 2) {
    return ctx.Error("axis " + std::to_string(axis) + " is out of range for input rank " + std::to_string(rank));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Status InferDFT(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kFloatTypes)) return BadDtype(ctx, 0, "input");
  if (ctx.has_input(1)) {
    if (!DtypeIn(ctx, 1, kIndexTypes)) return BadDtype(ctx, 1, "dft_length");
    GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 1, "dft_length"));
  }
  const int64_t onesided = ctx.attr().GetInt("onesided", 0);
  const int64_t inverse = ctx.attr().GetInt("inverse", 0);
  if (onesided != 0 && onesided != 1) return ctx.Error("attribute onesided must be 0 or 1");
  if (inverse != 0 && inverse != 1) return ctx.Error("attribute inverse must be 0 or 1");
  const Shape& in = ctx.input(0)->shape;
  const DataType dt = ctx.input(0)->dtype;
  if (in.unknown_rank()) {
    ctx.output(0) = TensorDesc(dt, Shape::UnknownRank());
    return Status::Ok();
  }
  const int rank = in.rank();
  if (rank < 3) return ctx.Error("input must have rank >= 3 ([batch, signal dims..., 1 or 2]), got " + in.ToString());
  const int64_t last = in.dim(rank - 1);
  if (last >= 0 && last != 1 && last != 2) {
    return ctx.Error("the last dim of input must be 1 (real) or 2 (complex), got " + in.ToString());
  }
  bool axis_known = true;
  GE_ASSIGN_OR_RETURN(int axis, DftAxis(ctx, rank, &axis_known));
  Shape out = in;
  out.set_dim(rank - 1, 2);
  out.set_symbol(rank - 1, "");
  if (!axis_known) {
    for (int i = 0; i < rank - 1; ++i) {
      out.set_dim(i, kUnknownDim);
      out.set_symbol(i, "");
    }
    ctx.output(0) = TensorDesc(dt, out);
    return Status::Ok();
  }
  int64_t n = in.dim(axis);
  if (ctx.has_input(1)) {
    n = kUnknownDim;
    if (KnownScalarInt(ctx, 1, &n) && n <= 0) return ctx.Error("dft_length must be positive, got " + std::to_string(n));
    out.set_symbol(axis, "");
  }
  if (onesided && n >= 0) n = n / 2 + 1;
  if (onesided) out.set_symbol(axis, "");
  out.set_dim(axis, n);
  ctx.output(0) = TensorDesc(dt, out);
  return Status::Ok();
}

Status InferSTFT(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kFloatTypes)) return BadDtype(ctx, 0, "signal");
  if (!DtypeIn(ctx, 1, kIndexTypes)) return BadDtype(ctx, 1, "frame_step");
  GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 1, "frame_step"));
  if (ctx.has_input(2) && !DtypeIn(ctx, 2, kFloatTypes)) return BadDtype(ctx, 2, "window");
  if (ctx.has_input(3)) {
    if (!DtypeIn(ctx, 3, kIndexTypes)) return BadDtype(ctx, 3, "frame_length");
    GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 3, "frame_length"));
  }
  if (!ctx.has_input(2) && !ctx.has_input(3)) return ctx.Error("one of window and frame_length is required");
  const int64_t onesided = ctx.attr().GetInt("onesided", 1);
  if (onesided != 0 && onesided != 1) return ctx.Error("attribute onesided must be 0 or 1");
  const Shape& sig = ctx.input(0)->shape;
  if (!sig.unknown_rank() && sig.rank() != 3) {
    return ctx.Error("signal must be [batch, length, 1 or 2], got " + sig.ToString());
  }
  if (!sig.unknown_rank() && sig.dim(2) >= 0 && sig.dim(2) != 1 && sig.dim(2) != 2) {
    return ctx.Error("the last dim of signal must be 1 or 2, got " + sig.ToString());
  }
  int64_t frame_length = kUnknownDim;
  if (ctx.has_input(3)) {
    KnownScalarInt(ctx, 3, &frame_length);
  } else {
    const Shape& w = ctx.input(2)->shape;
    if (!w.unknown_rank()) {
      if (w.rank() != 1) return ctx.Error("window must be 1-D, got " + w.ToString());
      frame_length = w.dim(0);
    }
  }
  if (ctx.has_input(3) && frame_length != kUnknownDim && frame_length <= 0) {
    return ctx.Error("frame_length must be positive, got " + std::to_string(frame_length));
  }
  int64_t step = kUnknownDim;
  if (KnownScalarInt(ctx, 1, &step) && step <= 0) {
    return ctx.Error("frame_step must be positive, got " + std::to_string(step));
  }
  Shape out;
  int64_t frames = kUnknownDim;
  if (!sig.unknown_rank()) {
    out.AddDim(sig.dim(0), sig.symbol(0));
    int64_t len = sig.dim(1);
    if (len >= 0 && frame_length > 0 && step > 0) {
      if (len < frame_length) {
        return ctx.Error("signal length " + std::to_string(len) + " is shorter than frame length " +
                         std::to_string(frame_length));
      }
      frames = (len - frame_length) / step + 1;
    }
  } else {
    out.AddDim(kUnknownDim);
  }
  out.AddDim(frames);
  out.AddDim(frame_length < 0 ? kUnknownDim : onesided ? frame_length / 2 + 1 : frame_length);
  out.AddDim(2);
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, out);
  return Status::Ok();
}

Status InferWindow(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kIndexTypes)) return BadDtype(ctx, 0, "size");
  GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 0, "size"));
  GE_ASSIGN_OR_RETURN(DataType dt, OutputDatatype(ctx));
  int64_t periodic = ctx.attr().GetInt("periodic", 1);
  if (periodic != 0 && periodic != 1) return ctx.Error("attribute periodic must be 0 or 1");
  int64_t size = kUnknownDim;
  if (KnownScalarInt(ctx, 0, &size) && size < 0) return ctx.Error("size must be >= 0, got " + std::to_string(size));
  ctx.output(0) = TensorDesc(dt, Shape({size}));
  return Status::Ok();
}

Status InferMelWeightMatrix(InferContext& ctx) {
  const char* names[] = {"num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz", "upper_edge_hertz"};
  for (int i = 0; i < 5; ++i) {
    if (!DtypeIn(ctx, i, i < 3 ? kIndexTypes : kFloatTypes)) return BadDtype(ctx, i, names[i]);
    GE_RETURN_IF_ERROR(CheckScalarInput(ctx, i, names[i]));
  }
  GE_ASSIGN_OR_RETURN(DataType dt, OutputDatatype(ctx));
  int64_t mel = kUnknownDim, dft = kUnknownDim;
  if (KnownScalarInt(ctx, 0, &mel) && mel <= 0) return ctx.Error("num_mel_bins must be positive");
  if (KnownScalarInt(ctx, 1, &dft)) {
    if (dft <= 0) return ctx.Error("dft_length must be positive");
    dft = dft / 2 + 1;
  }
  ctx.output(0) = TensorDesc(dt, Shape({dft, mel}));
  return Status::Ok();
}

}  // namespace

void RegisterSignalOps(OpRegistry* r) {
  r->Add({OpId::kDFT, 1, 3, 1, 1, InferDFT});
  r->Add({OpId::kSTFT, 2, 4, 1, 1, InferSTFT});
  r->Add({OpId::kBlackmanWindow, 1, 1, 1, 1, InferWindow});
  r->Add({OpId::kHannWindow, 1, 1, 1, 1, InferWindow});
  r->Add({OpId::kHammingWindow, 1, 1, 1, 1, InferWindow});
  r->Add({OpId::kMelWeightMatrix, 5, 5, 1, 1, InferMelWeightMatrix});
}

}  // namespace ge::ops
