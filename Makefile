# ge: the two commands a new user needs are `make demo` and `make test` (see README.md).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build demo test clean fuzz

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

clean:
	rm -rf $(BUILD)
