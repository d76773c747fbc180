// Sub-commands of the `ge` tool. Each returns the process exit code.
#pragma once

namespace ge::cli {

int RunCommand(int argc, char** argv);       // ge run
int TestOnnxCommand(int argc, char** argv);  // ge test-onnx

}  // namespace ge::cli
