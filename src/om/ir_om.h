// An .om of model type kIr: the IR itself (ir.proto in MODEL_DEF, constants in WEIGHTS_DATA). Used until the
// compiler writes its own ModelDef, and as the fuzzing and test vehicle for the container.
#pragma once
#include <memory>
#include <vector>

#include "ir/graph.h"
#include "om/om_reader.h"
#include "om/om_writer.h"

namespace ge::om {

// options.model_type kLowered is kept (the caller adds EXECUTE_PLAN); any other becomes kIr.
// Constants of fewer than `inline_below` bytes stay in MODEL_DEF; the rest go to WEIGHTS_DATA (deduplicated).
StatusOr<std::unique_ptr<OmWriter>> MakeIrOmWriter(const ir::Model& model, const OmWriteOptions& options,
                                                   size_t inline_below = 64);
StatusOr<std::vector<uint8_t>> WriteIrOm(const ir::Model& model, const OmWriteOptions& options,
                                         size_t inline_below = 64);
Status WriteIrOmFile(const ir::Model& model, const OmWriteOptions& options, const std::string& path,
                     size_t inline_below = 64);
// Weight constants borrow the reader's image.
StatusOr<std::unique_ptr<ir::Model>> ReadIrOm(const OmReader& reader);

}  // namespace ge::om
