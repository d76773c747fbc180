#!/usr/bin/env bash
# Builds the concurrency-heavy tests with ThreadSanitizer in build-tsan/ and runs them: the device layer (streams,
# events, models), runtime v1 (SinkModel multi-stream, concurrent executions of one model), the runtime above it
# (Run loop, DataInputer, async from many threads, the recording device), sessions (RunGraphAsync worker, graphs
# sharing variables), runtime v2's concurrent executions of one model (execution contexts) and, when the model zoo has been exported
# (`make test` does it into build/model_zoo), tests/concurrency on resnet18: 2 threads, 1 intra-op thread each.
# Not part of CI (a TSan build takes ~20 min on 2 cores); run it after touching rt/, kernels' bindings or runtime/.
# usage: scripts/tsan.sh [REQUESTS]   (requests of the resnet18 run; default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
requests="${1:-1000}"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGE_SANITIZE=thread >/dev/null
cmake --build build-tsan -j "$(nproc)" --target ge_rt_test ge_runtime_v1_test ge_runtime_test ge_session_test \
  ge_runtime_v2_test concurrent_execute
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan_suppressions.txt"
build-tsan/bin/ge_rt_test
build-tsan/bin/ge_runtime_v1_test
build-tsan/bin/ge_runtime_test
build-tsan/bin/ge_session_test
build-tsan/bin/ge_runtime_v2_test --gtest_filter='*Concurrency*:ContextPool*:StreamExecutor*'
om=build/model_zoo/resnet18.dnnl_nhwc.om
if [ -f "$om" ]; then
  build-tsan/bin/concurrent_execute "$om" --threads=2 --requests="$requests" --baseline_requests=10
else
  echo "tsan.sh: $om not found (run make test first): concurrent resnet18 run skipped"
fi
