# Thin wrapper over CMake presets (CMakePresets.json) so that a fresh Debian 12
# machine needs only `make demo` or `make test`. All the real build logic is in
# CMakeLists.txt; the presets cap builds at 2 parallel jobs.

RELEASE_DIR := build/release
SAMPLE_DIR  := $(RELEASE_DIR)/sample

# The command line `make demo` scores the sample pair with. Override it with
# `make demo DEMO_ARGS="..."`.
DEMO_ARGS ?= -r $(SAMPLE_DIR)/ref.y4m -d $(SAMPLE_DIR)/dis.y4m \
             --feature psnr --json -o -

# The tests read ../shared/fixtures unless TWINVMAF_FIXTURES says otherwise;
# pass it on explicitly (also when given as `make test TWINVMAF_FIXTURES=...`).
ifdef TWINVMAF_FIXTURES
export TWINVMAF_FIXTURES
endif

# CMake looks for nvcc on PATH only; our GPU machines install it in
# /usr/local/cuda/bin, so add that when nvcc is not already on PATH. Without
# nvcc the CUDA backend is simply not built.
ifeq ($(shell command -v nvcc),)
ifneq ($(wildcard /usr/local/cuda/bin/nvcc),)
export PATH := $(PATH):/usr/local/cuda/bin
endif
endif

# Configure only when the build tree is missing (re-running `cmake --preset`
# would be slow and is not needed: Ninja re-runs CMake itself when a
# CMakeLists.txt changes), then build.
# Each stage runs under scripts/timed_stage.sh, which logs its wall-clock and
# CPU seconds to build/stage-times.tsv (.ci/run prints them).
STAGE := bash scripts/timed_stage.sh
define configure-and-build
$(STAGE) configure-$(1) bash -c 'test -f build/$(1)/build.ninja || cmake --preset $(1)'
$(STAGE) build-$(1) cmake --build --preset $(1)
endef

# make install PREFIX=...: the CLI, libvmaf.so.3 (the libvmaf-compatible C
# API, include/libvmaf/, libvmaf.pc), the C++ API (include/twinvmaf/,
# libtwinvmaf.a, twinvmaf.pc), the Python package twinvmaf (into
# PREFIX/lib/python3.X/dist-packages, on Debian's sys.path for /usr/local) and
# twinvmaf-report.
PREFIX ?= /usr/local

# PYTHON=/path/to/python (or a name on PATH): build the Python package for
# that interpreter and install it where it finds it (a venv's own
# site-packages; else PREFIX's, as above), twinvmaf-report running with it.
# Without it: Debian's /usr/bin/python3 (cmake/python_install.cmake).
ifneq ($(strip $(PYTHON)),)
PYTHON_EXE := $(shell $(PYTHON) -c 'import sys; print(sys.executable)' 2>/dev/null)
ifeq ($(PYTHON_EXE),)
$(error PYTHON=$(PYTHON) does not run as a Python interpreter)
endif
endif

.PHONY: build deps demo test debug-test fuzz bench clean install ffmpeg-check aarch64-test aarch64-test-ci

build: deps
ifneq ($(PYTHON_EXE),)
	$(STAGE) configure-python cmake --preset release -DPython_EXECUTABLE=$(PYTHON_EXE)
endif
	$(call configure-and-build,release)

# Scripts run through bash so a lost executable bit cannot break a clone.
deps:
	$(STAGE) deps bash scripts/install-deps.sh

demo: build
	$(RELEASE_DIR)/twinvmaf_make_sample $(SAMPLE_DIR)
	$(RELEASE_DIR)/twinvmaf $(DEMO_ARGS)

# The tests also compile every kernel for AMD GPUs (tools/hip_check.sh), which
# needs Debian's hipcc, and open the HTML report in Chromium: installed here,
# not for a plain build. hipcc's clang 15 builds the sanitizer tree
# (build/debug: ASan, UBSan and libFuzzer's coverage, -O1), which holds both
# the tests and the fuzzers, so the library is compiled once for both; under
# the sanitizers run the unit, CLI and tiny-fixture golden tests and every
# fuzzer for 10 s from its seeds and grown corpus with a fixed seed (the debug-ci test preset;
# README, Tests).
test: build
	$(STAGE) deps-test bash scripts/install-deps.sh --hip --browser --fuzz
	$(STAGE) test-release ctest --preset release
	$(call configure-and-build,debug)
	$(STAGE) test-debug-ci ctest --preset debug-ci

debug-test: deps
	bash scripts/install-deps.sh --fuzz
	$(call configure-and-build,debug)
	ctest --preset debug

# Every fuzzer for FUZZ_SECONDS each, one after the other, with a summary
# line per fuzzer (tests/fuzz/README.md). The fuzzers live in the sanitizer
# tree (build/debug).
FUZZ_SECONDS ?= 600
fuzz: deps
	bash scripts/install-deps.sh --fuzz
	$(call configure-and-build,debug)
	bash tests/fuzz/run_all.sh $(FUZZ_SECONDS)

bench: build
	bash bench/run_benchmarks.sh

install: build
	TWINVMAF_PYTHON=$(PYTHON_EXE) cmake --install $(RELEASE_DIR) --prefix $(PREFIX)

# Builds a minimal FFmpeg 5.1 (Debian's source package) on our libvmaf.so and
# checks its libvmaf filter's logs against the CLI (tools/ffmpeg_check.sh).
# Slow (it builds FFmpeg once, under build/ffmpeg), so not part of `test`.
ffmpeg-check: build
	bash tools/ffmpeg_check.sh

# 64-bit Arm: cross-built (build/aarch64) and run under qemu-user-static for
# NEON and for SVE at 128, 256 and 512 bits (scripts/aarch64-test.sh; README,
# "aarch64"). aarch64-test runs every unit and golden test under NEON and
# 512-bit SVE; aarch64-test-ci the subset CI runs.
aarch64-test:
	$(STAGE) deps-aarch64 bash scripts/install-deps.sh --aarch64
	bash scripts/aarch64-test.sh

aarch64-test-ci:
	$(STAGE) deps-aarch64 bash scripts/install-deps.sh --aarch64
	$(STAGE) configure-aarch64 bash -c 'test -f build/aarch64/build.ninja || cmake --preset aarch64'
	$(STAGE) build-aarch64 cmake --build --preset aarch64 --target unit_tests cli_tests twinvmaf
	$(STAGE) test-aarch64 bash scripts/aarch64-test.sh --ci

clean:
	rm -rf build
