// GE's ge.exec.value_bins option: which file each FileConstant `file_id` names, as JSON:
//   {"value_bins":[{"value_bin_id":"ID","value_bin_file":"PATH"}, ...]}
// Strict: any other shape, a duplicate id, an empty id or path, or bytes after the object is an error naming it.
#pragma once
#include <map>
#include <string>

#include "base/status.h"

namespace ge::om {

// file_id → path.
StatusOr<std::map<std::string, std::string>> ParseValueBins(const std::string& json);

}  // namespace ge::om
