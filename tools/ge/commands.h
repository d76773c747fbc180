// Sub-commands of the `ge` tool. Each returns the process exit code.
#pragma once

namespace ge::cli {

int RunCommand(int argc, char** argv);       // ge run
int TestOnnxCommand(int argc, char** argv);  // ge test-onnx
int CompileCommand(int argc, char** argv);   // ge compile
int InspectCommand(int argc, char** argv);   // ge inspect
int TrainCommand(int argc, char** argv);     // ge train
int RunOpCommand(int argc, char** argv);     // ge run-op
struct Flags;
int RunWithCheckpointCommand(const Flags& flags);  // ge run --checkpoint=CKPT (a session; train_command.cc)

}  // namespace ge::cli
