#!/usr/bin/env bash
# Builds the concurrency-heavy tests with ThreadSanitizer in build-tsan/ and runs them: the device layer (streams,
# events, models) and runtime v1 (SinkModel multi-stream, Run loop, DataInputer, async from many threads).
# Not part of CI (a TSan build takes ~15 min on 2 cores); run it after touching rt/ or runtime/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGE_SANITIZE=thread >/dev/null
cmake --build build-tsan -j "$(nproc)" --target ge_rt_test ge_runtime_v1_test
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan_suppressions.txt"
build-tsan/bin/ge_rt_test
build-tsan/bin/ge_runtime_v1_test
