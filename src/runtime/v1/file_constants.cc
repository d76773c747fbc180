#include "runtime/v1/file_constants.h"

#include <algorithm>

#include "om/weight_file.h"
#include "om/weight_file_cache.h"
#include "ops/op_id.h"

namespace ge::runtime {

std::string ExternalWeightBaseDir(const std::string& om_path, const std::string& option_dir) {
  if (!option_dir.empty() || om_path.empty()) return option_dir;
  const size_t slash = om_path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : om_path.substr(0, slash);
}

Status MaterializeFileConstants(ir::Graph& graph, const proto::ModelDefProto& def, const std::string& base_dir,
                                const std::map<std::string, std::string>& value_bins, FileConstantStats* stats) {
  const std::vector<ir::Value*> values = graph.values();
  std::vector<bool> from_file(values.size(), false);
  for (const proto::PlacementProto& p : def.placements()) {
    if (p.segment() != proto::SEG_FILE_CONSTANT) continue;
    if (p.value() < 0 || static_cast<size_t>(p.value()) >= values.size()) {
      return DataLoss("MODEL_DEF: placement of value index " + std::to_string(p.value()) + " is invalid");
    }
    from_file[p.value()] = true;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    ir::Value* v = values[i];
    if (!from_file[i]) continue;
    const ir::Node* n = v->producer();
    if (!ops::IsOp(n, ops::OpId::kGeFileConstant) || n->num_inputs() != 0 || n->num_outputs() != 1) {
      return DataLoss("MODEL_DEF: value '" + v->name() + "' is placed as a FileConstant output, but no input-less "
                      "FileConstant produces it");
    }
    const std::string what = "FileConstant '" + n->name() + "'";
    GE_ASSIGN_OR_RETURN(om::FileConstantRef ref, om::ReadFileConstantRef(*n));
    const TensorDesc& d = v->desc();
    if (d.dtype != ref.dtype || d.shape.unknown_rank() || d.shape.dims() != ref.dims) {
      return DataLoss(what + " reads a " + DataTypeName(ref.dtype) + DimsToString(ref.dims) +
                      " tensor, but its output is declared " + d.ToString());
    }
    std::string path = ref.file_path;
    if (path.empty()) {
      auto bin = value_bins.find(ref.file_id);
      if (bin == value_bins.end()) {
        return NotFound(what + " reads file_id '" + ref.file_id + "', which option ge.exec.value_bins does not name");
      }
      path = bin->second;
    } else if (path[0] != '/') {
      if (base_dir.empty()) {
        return FailedPrecondition(what + " reads '" + path + "', a path relative to the .om's directory, but the "
                                  "model was loaded from memory: name the directory (SinkModelOptions::"
                                  "external_weight_dir)");
      }
      path = base_dir + "/" + path;
    }
    auto file = om::WeightFileCache::Global().Open(path);
    if (!file.ok()) return file.status().WithContext(what);
    GE_ASSIGN_OR_RETURN(Tensor t, (*file)->Read(ref, what));
    v->set_const_value(std::move(t));
    ++stats->tensors;
    stats->bytes += ref.length;
    if (std::find(stats->files.begin(), stats->files.end(), path) == stats->files.end()) stats->files.push_back(path);
  }
  return Status::Ok();
}

}  // namespace ge::runtime
