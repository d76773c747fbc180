// Options of sessions and graphs, checked against ge's one option table (base/option_table.h).
#pragma once
#include <map>
#include <string>

#include "base/status.h"

namespace ge::session {

using Options = std::map<std::string, std::string>;

// InvalidArgument naming the first unknown key (and the closest known one), a key no session reads (GEInitialize's,
// single op's) or a bad value; `where` says whose options ("session", "graph 3").
Status CheckOptions(const Options& options, const std::string& where);
// Graph options over session options.
Options MergeOptions(const Options& session, const Options& graph);

}  // namespace ge::session
