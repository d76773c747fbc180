// The `ge` command line (DESIGN.md §9).
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.h"

namespace {

void Usage() {
  std::fprintf(stderr,
               "usage: ge <command> [flags]\n"
               "  ge compile --model=M.onnx|M.geir --output=M.om [--input_shape=\"name:1,3,224,224;...\"]\n"
               "         [--precision_mode=fp32|allow_bf16] [--external_weight=0] [--threads=N (default: as ge run)]\n"
               "         [--option=KEY=VALUE ...] [--target=native|x86-64-v2|v3|v4] [--tune] [--runtime=auto|v1|v2] [--json]\n"
               "  ge inspect M.om [--json]\n"
               "  ge run --model=M.om|M.onnx [--input=FILE.npy | --input=NAME=FILE.npy ...] [--output_dir=DIR]\n"
               "         [--loop=N] [--warmup=N] [--threads=N (default: the CPUs this process may use)] [--json]\n"
               "         [--contention=adaptive|full|one (other processes on the CPU: one thread while they preempt us)]\n"
               "         [--checkpoint=CKPT (M.onnx in a session)]\n"
               "         [--vary=NAME:AXIS:LO~HI] [--pipeline_stages=N (IR .om: the --loop requests through N stages)]\n"
               "  ge test-onnx DIR...   run ONNX backend node-test cases\n"
               "  ge train --model=M.onnx --steps=N [--input=NAME=FILE.npy ...] [--restore=CKPT] [--save=CKPT]\n"
               "         [--save_variables=DIR]\n"
               "  ge run-op --op=Add --input=a.npy --input=b.npy [--attr=NAME=VALUE ...] [--output_dir=DIR]\n"
               "         [--loop=N] [--warmup=N] [--json] [--threads=N] [--opset=N] [--domain=D] [--num_outputs=N]\n"
               "         [--option=KEY=VALUE ...]   (--input=const:FILE.npy a constant, --input= an omitted input)\n");
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
  if (cmd == "train") return ge::cli::TrainCommand(argc, argv);
  if (cmd == "run-op") return ge::cli::RunOpCommand(argc, argv);
  std::fprintf(stderr, "ge: unknown command '%s'\n", cmd.c_str());
  Usage();
  return 2;
}
