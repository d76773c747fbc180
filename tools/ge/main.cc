// The `ge` command line (DESIGN.md §9).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include "commands.h"

namespace {

void Usage() {
  std::fprintf(stderr,
               "usage: ge <command> [flags]\n"
               "  ge compile --model=M.onnx|M.geir --output=M.om [--input_shape=\"name:1,3,224,224;...\"]\n"
               "         [--precision_mode=fp32|allow_bf16] [--external_weight=0] [--threads=N]\n"
               "         [--option=KEY=VALUE ...] [--target=native|x86-64-v2|v3|v4] [--tune] [--runtime=auto|v1|v2] [--json]\n"
               "  ge inspect M.om [--json]\n"
               "  ge run --model=M.om|M.onnx [--input=FILE.npy | --input=NAME=FILE.npy ...] [--output_dir=DIR]\n"
               "         [--loop=N] [--warmup=N] [--threads=N] [--json] [--checkpoint=CKPT (M.onnx in a session)]\n"
               "         [--vary=NAME:AXIS:LO~HI] [--pipeline_stages=N (IR .om: the --loop requests through N stages)]\n"
               "  ge test-onnx DIR...   run ONNX backend node-test cases\n"
               "  ge train --model=M.onnx --steps=N [--input=NAME=FILE.npy ...] [--restore=CKPT] [--save=CKPT]\n"
               "         [--save_variables=DIR]\n"
               "  ge run-op --op=Add --input=a.npy --input=b.npy [--attr=NAME=VALUE ...] [--output_dir=DIR]\n"
               "         [--loop=N] [--warmup=N] [--json] [--threads=N] [--opset=N] [--domain=D] [--num_outputs=N]\n"
               "         [--option=KEY=VALUE ...]   (--input=const:FILE.npy a constant, --input= an omitted input)\n");
}

}  // namespace

// oneDNN runs on OpenMP, whose threads busy-wait between parallel regions by default; on a machine shared with
// other work (or with ge's own stream workers) that spinning costs more than it saves. Sleeping at once is as
// bad the other way: every primitive then pays a futex wake-up per thread (squeezenet 3.47 ms vs 2.72 ms with a
// short spin, mobilenet_v2 3.98 vs 2.87, 2 threads). So the threads spin briefly (GOMP_SPINCOUNT 10000 pause
// iterations, well under a millisecond) and then sleep: nothing spins while the model is idle. libgomp reads its
// environment when it is loaded, before main, so the policy is set by re-executing once. Values the user set are
// respected.
void EnsureShortOpenMpSpin(char** argv) {
  bool changed = false;
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) changed |= ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) == 0;
  if (std::getenv("GOMP_SPINCOUNT") == nullptr) changed |= ::setenv("GOMP_SPINCOUNT", "10000", 1) == 0;
  if (changed) ::execv("/proc/self/exe", argv);  // returns only on failure: then run as we are
}

int main(int argc, char** argv) {
  EnsureShortOpenMpSpin(argv);
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
