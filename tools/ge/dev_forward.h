// The developer binary ge-dev (every command, on ge's internal libraries) run from `ge` (on libge.so alone) for
// what `ge` does not do itself: the commands not yet built on the public API and the developer tools.
#pragma once

namespace ge::cli {

// Replaces this process with ge-dev from the directory of the running executable, with the same arguments; returns
// (127, after saying why) only when it cannot.
int RunDevBinary(int argc, char** argv);

}  // namespace ge::cli
