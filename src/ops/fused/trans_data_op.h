// ge::TransData(X) -> Y: the layout change the compiler inserts at format boundaries (DESIGN.md §3, format
// selection). Attributes src_format and dst_format name formats (base/format.h); Y holds X's values with X's
// logical shape and dtype, stored in dst_format. NHWC and NC1HWC0 need rank 3 to 5 ([N, C, spatial...]).
#pragma once
#include "ops/op_schema.h"

namespace ge::ops {

Status InferTransData(InferContext& ctx);

}  // namespace ge::ops
