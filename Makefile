# libskmd: one build for everything.
#
#   make            build the library, the tools and the examples
#   make demo       install what is missing, build, run an example under libskmd
#   make test       install what is missing, build, run the whole test suite
#   make bench      native vs. libskmd timings of the examples (bench/)
#   make coverage   which kernels of a corpus split, and why not (docs/coverage.md)
#   make SAN=1 ...  the same with AddressSanitizer + UBSan, built under build-san/
#
# Each directory adds its own rules in its module.mk: outputs go to ALL_TARGETS, test
# targets to TEST_TARGETS (each one a phony target that fails when its test fails).

.DEFAULT_GOAL := all
SHELL := /bin/bash

# The LLVM/Clang whose version matches the LLVM that the installed PoCL links (so the
# bitcode libskmd hands PoCL is never newer than what PoCL reads).
LLVM_VERSION ?= $(shell tools/pocl-llvm-version.sh)
LLVM_CONFIG ?= llvm-config-$(LLVM_VERSION)
CLANG ?= clang-$(LLVM_VERSION)

CC ?= cc
CXX ?= c++
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 $(WARN) -fPIC -D_GNU_SOURCE -DCL_TARGET_OPENCL_VERSION=300
CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=c++17 $(WARN) -fPIC
LDFLAGS ?=

# Build outputs live next to their sources; a sanitizer build lives under build-san/.
O :=
ifeq ($(SAN),1)
O := build-san/
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
CFLAGS += $(SANFLAGS)
CXXFLAGS += $(SANFLAGS)
LDFLAGS += $(SANFLAGS)
endif

ALL_TARGETS :=
TEST_TARGETS :=
BENCH_TARGETS :=
CLEAN_FILES :=
# Tools the tests' rules name as prerequisites, known before those rules are read (a
# prerequisite is expanded then, and tests/ is included before tools/).
SKMD_OPT := $(O)tools/skmd-opt
SKMD_PROFILE_BIN := $(O)tools/skmd-profile

include $(sort $(wildcard */module.mk))

.PHONY: all deps test demo bench clean help
all: $(ALL_TARGETS)

deps:
	@tools/install-deps.sh

# `make test` works alone on a fresh machine: deps first, then the build, then every test.
test: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -k $(TEST_TARGETS) && echo "ALL TESTS PASSED"

demo: deps
	@$(MAKE) --no-print-directory all
	@tools/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory $(BENCH_TARGETS)

# Generic rules: every C/C++ source compiles to $(O)<same path>.o
$(O)%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

$(O)%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

# Header dependencies: those of an out-of-tree build (O=DIR outside the tree) too.
-include $(shell find . $(filter /%,$(O)) -name '*.d' -not -path './.git/*' 2>/dev/null)

clean:
	rm -rf build-san $(CLEAN_FILES)
	find . -name '*.o' -o -name '*.d' | grep -v '^./.git/' | xargs rm -f

help:
	@sed -n '2,10p' Makefile
