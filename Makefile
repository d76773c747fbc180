# ge: the two commands a new user needs are `make demo` and `make test` (see README.md).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build demo test clean fuzz bench bench-ort bench-ops bench-zoo bench-dynamic bench-kernels mutate mutate-known

all: build

deps:
	@scripts/install_deps.sh

configure:
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: deps build
	@scripts/demo.sh $(BUILD)

test: deps build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 1500

FUZZ_SECONDS ?= 60
fuzz: deps
	@scripts/fuzz.sh $(FUZZ_SECONDS)

# make mutate DIR=src/var [N=20] [SEED=1]: N small bugs put one at a time into DIR's production code, each rebuilt
# and run against the tests that cover DIR; KILLED or SURVIVED each, then the kill rate (tools/mutate/README.md).
# DIR may list several folders ("src/var src/om"). Not part of `make test`.
DIR ?=
N ?= 20
SEED ?= 1
mutate: deps configure
	@/usr/bin/python3 tools/mutate/mutate.py --build $(BUILD) --n $(N) --seed $(SEED) $(foreach d,$(DIR),--dir $(d))

# make mutate-known: the bugs in tools/mutate/known_bugs.txt, which once passed every test, must each be KILLED.
mutate-known: deps configure
	@/usr/bin/python3 tools/mutate/mutate.py --build $(BUILD) --known tools/mutate/known_bugs.txt

# make bench: compile and time the benchmark models (bench/README.md); ONNX Runtime side by side after `make bench-ort`.
BENCH_MODELS ?= resnet18 resnet50 mobilenet_v2 squeezenet tinybert mlp efficientnet_b0 densenet121 googlenet shufflenet_v2
BENCH_THREADS ?= 2
BENCH_ITERS ?= 30
BENCH_OPTIONS ?=
BENCH_CPU ?=
BENCH_NEIGHBOUR ?=
bench: deps build
	@$(if $(BENCH_CPU),BUILD=$(BUILD) scripts/as_cpu.sh $(BENCH_CPU)) /usr/bin/python3 bench/run_bench.py --ge $(BUILD)/bin/ge --out $(BUILD)/bench --models="$(BENCH_MODELS)" \
		--threads=$(BENCH_THREADS) --iters=$(BENCH_ITERS) --options="$(BENCH_OPTIONS)" $(if $(BENCH_NEIGHBOUR),--neighbour)
	@cmake --build $(BUILD) --target ge_python_overhead_benchmark >/dev/null && /usr/bin/python3 python/overhead/run_overhead.py $(BUILD)

# make bench-ops: one-node models of the ops real models use over real shapes, ge vs ONNX Runtime, worst first
# (bench/README.md); needs `make bench-ort`. BENCH_OPS_FILTER=Resize runs the cases whose family or name matches.
BENCH_OPS_FILTER ?=
bench-ops: deps build
	@/usr/bin/python3 bench/op_sweep.py --ge $(BUILD)/bin/ge --out $(BUILD)/bench --threads=$(BENCH_THREADS) \
		--filter="$(BENCH_OPS_FILTER)"

# make bench-zoo: 50 architectures (bench/zoo/models.py) exported from PyTorch, checked against it and timed beside ONNX
# Runtime; build/bench/zoo.md and .json (bench/README.md). BENCH_ZOO_MODELS="resnet50 rnn" picks names or families.
BENCH_ZOO_MODELS ?=
bench-zoo: deps build
	@/usr/bin/python3 bench/zoo/run_zoo.py --ge $(BUILD)/bin/ge --out $(BUILD)/bench --threads=$(BENCH_THREADS) \
		$(BENCH_ZOO_MODELS)

# make bench-dynamic: the zoo's decoder compiled once without fixed lengths vs compiled at lengths 1/16/128/512 vs ONNX
# Runtime, and RSS under shape churn; build/bench/dynamic.md and .json (bench/README.md).
bench-dynamic: deps build
	@/usr/bin/python3 bench/dynamic.py --ge $(BUILD)/bin/ge --out $(BUILD)/bench --threads=$(BENCH_THREADS)

# Kernel micro-benchmarks (Google Benchmark): every bin/*_benchmark of the build, one after another.
bench-kernels: deps build
	@cmake --build $(BUILD) --target ge_benchmarks -j $(JOBS) >/dev/null
	@set -e; for b in $(BUILD)/bin/*_benchmark; do echo "== $$b"; $$b $(BENCH_KERNEL_ARGS); done

# Opt-in: Node.js from Debian, then onnxruntime-node from npm without its install script (it fetches GPU packages).
bench-ort:
	@scripts/install_deps.sh --bench
	mkdir -p ~/.cache/ge-bench/ort && cd ~/.cache/ge-bench/ort && npm init -y >/dev/null && \
		npm install --ignore-scripts onnxruntime-node@1.30.0

clean:
	rm -rf $(BUILD)
