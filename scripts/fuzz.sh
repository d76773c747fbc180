#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + coverage) in build-fuzz/ and runs each for a bounded time.
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/.."
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGE_BUILD_FUZZERS=ON \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build build-fuzz --target onnx_import_fuzz om_reader_fuzz weight_file_fuzz value_bins_fuzz sink_model_fuzz lowered_model_fuzz var_info_fuzz checkpoint_fuzz model_cache_fuzz option_table_fuzz model_format_fuzz ir_text_fuzz -j "$(nproc)"

# fuzz NAME: runs build-fuzz/bin/NAME_fuzz on build-fuzz/corpus/NAME for $seconds.
fuzz() {
  echo "fuzzing $1 for ${seconds}s"
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "build-fuzz/bin/$1_fuzz" "build-fuzz/corpus/$1" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
    -max_len=65536 -print_final_stats=1 2>&1 | tail -n 15
}

corpus=build-fuzz/corpus/onnx_import
mkdir -p "$corpus"
cp samples/*.onnx "$corpus/" 2>/dev/null || true
# Small models from the conformance suite make good seeds when it has been generated.
if [ -d build/onnx_node_tests/node ]; then
  # No `head` here: under pipefail its early exit would SIGPIPE find and fail the script (exit 141).
  seeds=0
  while read -r f; do
    [ "$seeds" -lt 200 ] || continue
    cp "$f" "$corpus/$(basename "$(dirname "$f")").onnx"
    seeds=$((seeds + 1))
  done < <(find build/onnx_node_tests/node -name model.onnx -size -4k | sort)
fi
fuzz onnx_import

# These targets write their own seeds (valid images) when asked.
mkdir -p build-fuzz/corpus/om_reader build-fuzz/corpus/sink_model
GE_OM_FUZZ_WRITE_SEEDS=build-fuzz/corpus/om_reader build-fuzz/bin/om_reader_fuzz
fuzz om_reader
mkdir -p build-fuzz/corpus/weight_file
GE_WF_FUZZ_WRITE_SEEDS=build-fuzz/corpus/weight_file build-fuzz/bin/weight_file_fuzz
fuzz weight_file
mkdir -p build-fuzz/corpus/value_bins
GE_VB_FUZZ_WRITE_SEEDS=build-fuzz/corpus/value_bins build-fuzz/bin/value_bins_fuzz
fuzz value_bins
mkdir -p build-fuzz/corpus/model_format
GE_MF_FUZZ_WRITE_SEEDS=build-fuzz/corpus/model_format build-fuzz/bin/model_format_fuzz
fuzz model_format
GE_SINK_FUZZ_WRITE_SEEDS=build-fuzz/corpus/sink_model build-fuzz/bin/sink_model_fuzz
fuzz sink_model
mkdir -p build-fuzz/corpus/lowered_model
GE_LOWERED_FUZZ_WRITE_SEEDS=build-fuzz/corpus/lowered_model build-fuzz/bin/lowered_model_fuzz
fuzz lowered_model
mkdir -p build-fuzz/corpus/ir_text
GE_IRT_FUZZ_WRITE_SEEDS=build-fuzz/corpus/ir_text build-fuzz/bin/ir_text_fuzz
fuzz ir_text
mkdir -p build-fuzz/corpus/option_table
GE_OPT_FUZZ_WRITE_SEEDS=build-fuzz/corpus/option_table build-fuzz/bin/option_table_fuzz
fuzz option_table
mkdir -p build-fuzz/corpus/var_info
GE_VAR_FUZZ_WRITE_SEEDS=build-fuzz/corpus/var_info build-fuzz/bin/var_info_fuzz
fuzz var_info
mkdir -p build-fuzz/corpus/checkpoint
GE_CKPT_FUZZ_WRITE_SEEDS=build-fuzz/corpus/checkpoint build-fuzz/bin/checkpoint_fuzz
fuzz checkpoint
mkdir -p build-fuzz/corpus/model_cache
GE_MC_FUZZ_WRITE_SEEDS=build-fuzz/corpus/model_cache build-fuzz/bin/model_cache_fuzz
fuzz model_cache
