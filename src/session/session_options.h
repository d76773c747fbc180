// GE's option keys for sessions and graphs: which exist, which values they take. An unknown key is an error.
#pragma once
#include <map>
#include <string>

#include "base/status.h"

namespace ge::session {

using Options = std::map<std::string, std::string>;

// InvalidArgument naming the first unknown key or bad value; `where` says whose options ("session", "graph 3").
Status CheckOptions(const Options& options, const std::string& where);
// Graph options over session options.
Options MergeOptions(const Options& session, const Options& graph);

}  // namespace ge::session
