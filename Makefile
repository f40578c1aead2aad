# The front door: `make` builds, `make test` runs every test, `make bench` measures.
# It drives CMake; `SANITIZE=1` builds with ASan + UBSan in a separate folder.

BUILD_TYPE ?= RelWithDebInfo
ifeq ($(SANITIZE),1)
BUILD ?= build-asan
CMAKE_FLAGS += -DCLEAVE_SANITIZE=ON
else
BUILD ?= build
endif
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEPS = sh cmake/install-deps.sh

.PHONY: all build test bench clean deps

all: build

build:
	@$(DEPS) build
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

test:
	@$(DEPS) build test demo love
	@$(MAKE) --no-print-directory build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# BENCH_BUILD and BENCH_OUT move the Release build and the figures elsewhere.
BENCH_BUILD ?= build-bench
BENCH_OUT ?= build
# Box2D v3 is not packaged: BOX2D3_DIR=<its source or install folder> adds it as a peer.
BOX2D3_DIR ?=
bench:
	@$(DEPS) build bench
	@cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DCLEAVE_TESTS=ON \
		-DCLEAVE_BOX2D3_DIR="$(BOX2D3_DIR)" >/dev/null
	@cmake --build $(BENCH_BUILD) -j $(JOBS) --target cleave_bench
	@mkdir -p $(BENCH_OUT)
	@echo "load average: $$(cat /proc/loadavg 2>/dev/null)"
	@$(BENCH_BUILD)/tests/bench/cleave_bench --json $(BENCH_OUT)/bench.jsonl
	@cmake --build $(BENCH_BUILD) -j $(JOBS) --target cleave_bench_arena cleave_bench_lua_arena
	@$(BENCH_BUILD)/tests/bench/cleave_bench_arena --json $(BENCH_OUT)/bench.jsonl
	@$(BENCH_BUILD)/tests/bench/cleave_bench_lua_arena --json $(BENCH_OUT)/bench.jsonl
	@if cmake --build $(BENCH_BUILD) -j $(JOBS) --target cleave_bench_ffi_arena >/dev/null 2>&1; \
	then $(BENCH_BUILD)/tests/shared/cleave_bench_ffi_arena --json $(BENCH_OUT)/bench.jsonl; \
	else echo "ffi arena: skipped (needs LuaJIT and its headers: sh cmake/install-deps.sh love)"; fi
	@echo "load average: $$(cat /proc/loadavg 2>/dev/null)"
	@echo "figures: $(BENCH_OUT)/bench.jsonl"

clean:
	rm -rf build build-asan build-bench build-ci

# libFuzzer targets under ASan + UBSan, built with clang in build-fuzz; each runs FUZZ_SECONDS.
FUZZ_SECONDS ?= 30
.PHONY: fuzz
fuzz:
	@$(DEPS) build fuzz
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCLEAVE_FUZZ=ON -DCLEAVE_SANITIZE=ON -DCLEAVE_WERROR=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target cleave_fuzz
	@sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# `make demo`: builds the app and starts the SDL demo with the mods in mods/. Without a display
# the app says so and prints the headless command (its exit status 2 is not a build failure).
.PHONY: demo
demo:
	@$(DEPS) build demo
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target cleave
	@$(BUILD)/cleave demo --mods mods; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 2 ]
