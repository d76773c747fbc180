#include "om/ir_om.h"

#include "om/weights.h"

namespace ge::om {

StatusOr<std::unique_ptr<OmWriter>> MakeIrOmWriter(const ir::Model& model, const OmWriteOptions& options,
                                                   size_t inline_below) {
  WeightsWriter weights(inline_below);
  GE_ASSIGN_OR_RETURN(std::string def, SerializeModel(model, &weights));
  OmWriteOptions o = options;
  if (!IsIrModelType(o.model_type)) o.model_type = OmModelType::kIr;
  auto w = std::make_unique<OmWriter>(o);
  GE_RETURN_IF_ERROR(w->AddPartition(PartitionType::kModelDef, std::move(def)));
  if (!weights.bytes().empty()) {
    GE_RETURN_IF_ERROR(w->AddPartition(PartitionType::kWeightsData, weights.Release()));
  }
  return w;
}

StatusOr<std::vector<uint8_t>> WriteIrOm(const ir::Model& model, const OmWriteOptions& options, size_t inline_below) {
  GE_ASSIGN_OR_RETURN(auto w, MakeIrOmWriter(model, options, inline_below));
  return w->WriteToMemory();
}

Status WriteIrOmFile(const ir::Model& model, const OmWriteOptions& options, const std::string& path,
                     size_t inline_below) {
  GE_ASSIGN_OR_RETURN(auto w, MakeIrOmWriter(model, options, inline_below));
  return w->WriteToFile(path);
}

StatusOr<std::unique_ptr<ir::Model>> ReadIrOm(const OmReader& reader) {
  if (!IsIrModelType(reader.header().model_type)) {
    return FailedPrecondition("the .om holds a compiled model, not IR");
  }
  if (!reader.has(PartitionType::kModelDef)) return DataLoss("the .om has no MODEL_DEF partition");
  ByteSpan def = reader.partition(PartitionType::kModelDef);
  auto weights = reader.weights();
  auto m = ParseModel(def.data, def.size, weights.get());
  if (!m.ok()) return m.status().WithContext("MODEL_DEF");
  return m;
}

}  // namespace ge::om
