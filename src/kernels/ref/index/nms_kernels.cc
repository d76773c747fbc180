// NonMaxSuppression (opset 10, 11), following ONNX Runtime's reference behaviour: per batch and class, candidates
// with score > score_threshold are taken in descending score order (ties: lower box index first); a candidate is
// dropped when its IoU with an already selected box exceeds iou_threshold. Boxes with no area never suppress.
#include <algorithm>
#include <limits>
#include <numeric>

#include "kernels/ref/index/index_kernels.h"
#include "kernels/ref/index/index_util.h"

namespace ge::ref {
namespace {

// A box as (x_min, y_min, x_max, y_max) whatever its input encoding.
template <typename C>
struct Box {
  C x0, y0, x1, y1;
};

template <typename C>
Box<C> DecodeBox(const C* b, bool center_point) {
  if (center_point) {  // [x_center, y_center, width, height]
    const C hw = b[2] / 2, hh = b[3] / 2;
    return {b[0] - hw, b[1] - hh, b[0] + hw, b[1] + hh};
  }
  // [y1, x1, y2, x2]: any diagonal pair of corners.
  return {std::min(b[1], b[3]), std::min(b[0], b[2]), std::max(b[1], b[3]), std::max(b[0], b[2])};
}

template <typename C>
bool SuppressedByIou(const Box<C>& a, const Box<C>& b, C iou_threshold) {
  const C ix0 = std::max(a.x0, b.x0), ix1 = std::min(a.x1, b.x1);
  if (ix1 <= ix0) return false;
  const C iy0 = std::max(a.y0, b.y0), iy1 = std::min(a.y1, b.y1);
  if (iy1 <= iy0) return false;
  const C inter = (ix1 - ix0) * (iy1 - iy0);
  const C area_a = (a.x1 - a.x0) * (a.y1 - a.y0);
  const C area_b = (b.x1 - b.x0) * (b.y1 - b.y0);
  const C uni = area_a + area_b - inter;
  if (inter <= 0 || area_a <= 0 || area_b <= 0 || uni <= 0) return false;
  return inter / uni > iou_threshold;
}

template <typename T>
std::vector<typename ComputeTypeOf<T>::type> ToCompute(const Tensor& t) {
  using C = typename ComputeTypeOf<T>::type;
  const T* p = t.data<T>();
  std::vector<C> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<C>(p[i]);
  return v;
}

Status RefNonMaxSuppression(KernelContext& ctx) {
  const Tensor* boxes_t = ctx.input(0);
  const Tensor* scores_t = ctx.input(1);
  if (!boxes_t || !scores_t) return ctx.Error("boxes and scores must be tensors");
  if (boxes_t->rank() != 3 || boxes_t->dim(2) != 4) return ctx.Error("boxes must have shape [batches, boxes, 4]");
  if (scores_t->rank() != 3) return ctx.Error("scores must have shape [batches, classes, boxes]");
  const int64_t batches = boxes_t->dim(0), num_boxes = boxes_t->dim(1), classes = scores_t->dim(1);
  if (scores_t->dim(0) != batches || scores_t->dim(2) != num_boxes) {
    return ctx.Error("scores shape " + DimsToString(scores_t->dims()) + " does not match boxes shape " +
                     DimsToString(boxes_t->dims()));
  }
  if (boxes_t->dtype() != scores_t->dtype()) return ctx.Error("boxes and scores must have the same type");
  for (int i = 2; i < 5; ++i) {
    const Tensor* t = ctx.input(i);
    if (t && t->numel() != 1) return ctx.Error("input " + std::to_string(i) + " must hold one element");
    if (t && (t->dtype() == DataType::kString || t->dtype() == DataType::kBool)) {
      return ctx.Error("input " + std::to_string(i) + " must be numeric");
    }
  }
  const int64_t cpb = ctx.attr().GetInt("center_point_box", 0);
  if (cpb != 0 && cpb != 1) return ctx.Error("center_point_box must be 0 or 1");
  // Absent or negative max_output_boxes_per_class selects nothing.
  const int64_t max_out = ctx.input(2) ? std::max<int64_t>(ctx.input(2)->GetAsInt64(0), 0) : 0;
  const double iou = ctx.input(3) ? ctx.input(3)->GetAsDouble(0) : 0.0;
  if (!(iou >= 0.0 && iou <= 1.0)) return ctx.Error("iou_threshold must be in [0, 1]");
  const bool has_score_threshold = ctx.input(4) != nullptr;
  const double score_threshold = has_score_threshold ? ctx.input(4)->GetAsDouble(0) : 0.0;

  std::vector<int64_t> selected;  // (batch, class, box) triples
  Status st = VisitFloatType(boxes_t->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = typename ComputeTypeOf<T>::type;
    const std::vector<C> box_data = ToCompute<T>(*boxes_t);
    const std::vector<C> score_data = ToCompute<T>(*scores_t);
    const C iou_c = static_cast<C>(iou), thr_c = static_cast<C>(score_threshold);
    std::vector<Box<C>> decoded(static_cast<size_t>(num_boxes));
    std::vector<int64_t> cand, kept;
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < num_boxes; ++i) decoded[i] = DecodeBox(&box_data[(b * num_boxes + i) * 4], cpb == 1);
      for (int64_t c = 0; c < classes; ++c) {
        const C* s = &score_data[(b * classes + c) * num_boxes];
        cand.clear();
        for (int64_t i = 0; i < num_boxes; ++i)
          if (!has_score_threshold || s[i] > thr_c) cand.push_back(i);
        // NaN scores rank lowest so the ordering stays strict-weak.
        auto key = [&](int64_t i) { return s[i] != s[i] ? -std::numeric_limits<C>::infinity() : s[i]; };
        std::stable_sort(cand.begin(), cand.end(), [&](int64_t x, int64_t y) { return key(x) > key(y); });
        kept.clear();
        for (int64_t i : cand) {
          if (static_cast<int64_t>(kept.size()) >= max_out) break;
          bool keep = true;
          for (int64_t k : kept) {
            if (SuppressedByIou(decoded[i], decoded[k], iou_c)) {
              keep = false;
              break;
            }
          }
          if (!keep) continue;
          kept.push_back(i);
          selected.insert(selected.end(), {b, c, i});
        }
      }
    }
  });
  if (!st.ok()) return ctx.Error(std::string("boxes must be floating point, got ") + DataTypeName(boxes_t->dtype()));
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, {static_cast<int64_t>(selected.size() / 3), 3}, DataType::kInt64));
  std::copy(selected.begin(), selected.end(), out->data<int64_t>());
  return Status::Ok();
}

}  // namespace

void RegisterNmsRefKernels(KernelRegistry* r) { r->Add(OpId::kNonMaxSuppression, RefNonMaxSuppression); }

}  // namespace ge::ref
