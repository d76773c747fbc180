// The `ge` command line (DESIGN.md §9).
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.h"

namespace {

void Usage() {
  std::fprintf(stderr,
               "usage: ge <command> [flags]\n"
               "  ge compile --model=M.onnx --output=M.om [--input_shape=\"name:1,3,224,224;...\"]\n"
               "         [--precision_mode=fp32|allow_bf16] [--external_weight=0] [--threads=N]\n"
               "         [--option=KEY=VALUE ...] [--json]\n"
               "  ge inspect M.om [--json]\n"
               "  ge run --model=M.om|M.onnx [--input=FILE.npy | --input=NAME=FILE.npy ...] [--output_dir=DIR]\n"
               "         [--loop=N] [--warmup=N] [--threads=N] [--json]\n"
               "  ge test-onnx DIR...   run ONNX backend node-test cases\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    Usage();
    return argc < 2 ? 2 : 0;
  }
  std::string cmd = argv[1];
  if (cmd == "run") return ge::cli::RunCommand(argc, argv);
  if (cmd == "compile") return ge::cli::CompileCommand(argc, argv);
  if (cmd == "inspect") return ge::cli::InspectCommand(argc, argv);
  if (cmd == "test-onnx") return ge::cli::TestOnnxCommand(argc, argv);
  std::fprintf(stderr, "ge: unknown command '%s'\n", cmd.c_str());
  Usage();
  return 2;
}
