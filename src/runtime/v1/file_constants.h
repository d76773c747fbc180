// FileConstant materialization (external weights, om/weight_file.h; GE's PreProcessFileConstants): before
// SinkModel places values, every ge::FileConstant node whose output MODEL_DEF places in SEG_FILE_CONSTANT gets its
// bytes. The file is mapped through the process-wide om::WeightFileCache (one mapping per file, however many
// models or loads name it), the node's range is checked against the file (and its CRC32C, once per mapping), and
// the output value becomes a constant whose tensor borrows the mapping and keeps it alive. Kernels then see it
// exactly as an embedded constant: prepacked weights are not repacked. Such a node runs no task. A FileConstant
// placed elsewhere (a graph's own op, compiled as a kernel) is left to its kernel.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"
#include "om/model_def.pb.h"

namespace ge::runtime {

struct FileConstantStats {
  size_t tensors = 0;              // FileConstant outputs materialized
  uint64_t bytes = 0;              // their bytes
  std::vector<std::string> files;  // the weight files, as resolved, in first-use order
};

// The directory relative FileConstant paths are relative to: |option_dir| when set, else the directory of the .om
// at |om_path|; empty when both are (a model loaded from memory).
std::string ExternalWeightBaseDir(const std::string& om_path, const std::string& option_dir);

// |base_dir|: the directory relative file paths are relative to (the .om's, or SinkModelOptions::
// external_weight_dir); empty: a relative path is an error (a model loaded from memory). Errors name the node and
// the file: a missing file (NotFound), a file too short for the range or with other bytes (DataLoss).
// |value_bins|: file_id → path (ge.exec.value_bins) for FileConstants that name their file by id.
Status MaterializeFileConstants(ir::Graph& graph, const proto::ModelDefProto& def, const std::string& base_dir,
                                const std::map<std::string, std::string>& value_bins, FileConstantStats* stats);

}  // namespace ge::runtime
