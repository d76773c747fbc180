// Sub-commands of the `ge` tool. Each returns the process exit code; each declares its flags once in a CommandSpec
// (flags.h) that its parser and `ge CMD --help` both read.
#pragma once

namespace ge::cli {

struct CommandSpec;
struct Flags;

int RunCommand(int argc, char** argv);             // ge run
int TestOnnxCommand(int argc, char** argv);        // ge test-onnx
int CompileCommand(int argc, char** argv);         // ge compile
int InspectCommand(int argc, char** argv);         // ge inspect
int TrainCommand(int argc, char** argv);           // ge train
int RunOpCommand(int argc, char** argv);           // ge run-op
int OptionsCommand(int argc, char** argv);         // ge options
int RunWithCheckpointCommand(const Flags& flags);  // ge run --checkpoint=CKPT (a session; train_command.cc)
// ge compile --dump_graph / --trace: the compiler's internals. In ge-dev compile_dev_command.cc; in ge it runs
// ge-dev (dev_forward.cc).
int CompileDevCommand(int argc, char** argv);

const CommandSpec& RunCommandSpec();
const CommandSpec& TestOnnxCommandSpec();
const CommandSpec& CompileCommandSpec();
const CommandSpec& InspectCommandSpec();
const CommandSpec& TrainCommandSpec();
const CommandSpec& RunOpCommandSpec();
const CommandSpec& OptionsCommandSpec();

}  // namespace ge::cli
