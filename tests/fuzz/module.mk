# tests/fuzz/: libFuzzer harnesses (docs/fuzzing.md).
#   make fuzz-build          the three harness binaries, under $(O)tests/fuzz/bin/
#   make test-fuzz-replay    each harness over its corpus, no fuzzing (part of `make test`)
#   make fuzz-NAME FUZZ_SECONDS=600   fuzz one harness (record, transform, ndrange),
#                            new inputs into tests/fuzz/work/NAME/, nice'd
#   make fuzz-minimize-NAME  merge tests/fuzz/work/NAME/ into the checked-in corpus, minimised
# The harnesses and the libraries they link are compiled by $(CLANG) with
# -fsanitize=fuzzer-no-link,address,undefined into $(O)tests/fuzz/obj/, apart from the
# ordinary build (whose objects are built by $(CC), without coverage instrumentation).
FUZZ_DIR := $(O)tests/fuzz
FUZZ_OBJ := $(FUZZ_DIR)/obj
FUZZ_BIN := $(FUZZ_DIR)/bin
FUZZ_CLANGXX := $(patsubst clang-%,clang++-%,$(CLANG))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -fPIC -D_GNU_SOURCE \
  -DCL_TARGET_OPENCL_VERSION=300 $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_CXXFLAGS := -std=c++17 -O1 -g -Wall -Wextra -Werror -fPIC $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LDFLAGS := $(FUZZ_SAN) -fsanitize=fuzzer
FUZZ_NAMES := record transform ndrange
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BIN)/fuzz_%)
# tools/ is read after tests/: its SKMD_OPT is not set yet when these rules are.
FUZZ_SKMD_OPT := $(O)tools/skmd-opt

include transform/llvm.mk

# Instrumented copies of the sources the harnesses link.
$(FUZZ_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -MMD -MP -c $< -o $@
$(FUZZ_OBJ)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CLANGXX) $(FUZZ_CXXFLAGS) $(FUZZ_CPPFLAGS) -MMD -MP -c $< -o $@

FUZZ_RECORD_OBJS := $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(sort $(wildcard transform/record*.c)))
FUZZ_TRANSFORM_OBJS := $(patsubst %,$(FUZZ_OBJ)/%,$(TRANSFORM_C_SRCS:.c=.o) $(TRANSFORM_CXX_SRCS:.cpp=.o))
FUZZ_LIBSKMD_OBJS := $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(filter-out %/gen-%.c,$(wildcard libskmd/*/*.c)))

$(FUZZ_TRANSFORM_OBJS) $(FUZZ_OBJ)/tests/fuzz/fuzz_transform.o: FUZZ_CPPFLAGS = $(TRANSFORM_CPPFLAGS)
$(FUZZ_TRANSFORM_OBJS) $(FUZZ_OBJ)/tests/fuzz/fuzz_transform.o: $(TRANSFORM_STAMP)
$(FUZZ_LIBSKMD_OBJS): FUZZ_CPPFLAGS = -Ilibskmd -DCL_USE_DEPRECATED_OPENCL_1_0_APIS \
  -DCL_USE_DEPRECATED_OPENCL_1_1_APIS -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_0_APIS -DCL_USE_DEPRECATED_OPENCL_2_1_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_2_APIS
$(FUZZ_LIBSKMD_OBJS): libskmd/device/api.def
# record.c writes JSON strings with libskmd's escaper (support/json.c).
FUZZ_JSON_OBJ := $(FUZZ_OBJ)/libskmd/support/json.o
$(FUZZ_OBJ)/transform/record.o: FUZZ_CPPFLAGS += -Ilibskmd

$(FUZZ_BIN)/fuzz_record: $(FUZZ_OBJ)/tests/fuzz/fuzz_record.o $(FUZZ_RECORD_OBJS) $(FUZZ_JSON_OBJ)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_LDFLAGS) -o $@ $^

$(FUZZ_BIN)/fuzz_transform: $(FUZZ_OBJ)/tests/fuzz/fuzz_transform.o $(FUZZ_TRANSFORM_OBJS) \
  $(FUZZ_JSON_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANGXX) $(FUZZ_LDFLAGS) -o $@ $^ $(TRANSFORM_LDLIBS)

# libskmd reads the analysis record (transform/record*.c) to split launches, and asks the
# partitioner (uninstrumented libraries: not what is fuzzed here) for shares.
$(FUZZ_BIN)/fuzz_ndrange: $(FUZZ_OBJ)/tests/fuzz/fuzz_ndrange.o $(FUZZ_LIBSKMD_OBJS) \
  $(FUZZ_RECORD_OBJS) $(O)partitioner/libskmdpart.a $(O)profiledb/libskmdprofiledb.a
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_LDFLAGS) -o $@ $^ -lsqlite3 -lm -ldl -lpthread

.PHONY: fuzz-build
fuzz-build: $(FUZZ_BINS)
ALL_TARGETS += $(FUZZ_BINS)
CLEAN_FILES += $(FUZZ_DIR)/obj $(FUZZ_DIR)/bin

# One CPU device with one compute unit for the ndrange harness; PoCL's own allocations are
# not libskmd's to free, so leak checking is off for it (ASan still checks every access).
# The kernel compiler gives libskmd the analysis record it checks arguments against.
FUZZ_ENV_ndrange := POCL_DEVICES=pthread POCL_CPU_MAX_CU_NUM=1 SKMD_COMPILER=$(CURDIR)/$(FUZZ_SKMD_OPT) \
  ASAN_OPTIONS=detect_leaks=0
FUZZ_OPTS_transform := -rss_limit_mb=4096
FUZZ_OPTS_ndrange := -rss_limit_mb=4096

# Replays every corpus file once; known crashers (tests/fuzz/known-crashers.txt, one
# "NAME FILE" a line) run separately and must still crash, so that a fix is noticed.
.PHONY: test-fuzz-replay
test-fuzz-replay: $(FUZZ_BINS) $(FUZZ_SKMD_OPT)
	@SKMD_COMPILER=$(CURDIR)/$(FUZZ_SKMD_OPT) tests/fuzz/replay.sh $(FUZZ_BIN) $(FUZZ_NAMES)
TEST_TARGETS += test-fuzz-replay

FUZZ_SECONDS ?= 600
.PHONY: $(FUZZ_NAMES:%=fuzz-%) $(FUZZ_NAMES:%=fuzz-minimize-%)
$(FUZZ_NAMES:%=fuzz-%): fuzz-%: $(FUZZ_BIN)/fuzz_% $(FUZZ_SKMD_OPT)
	@mkdir -p tests/fuzz/work/$* tests/fuzz/artifacts/$*
	$(FUZZ_ENV_$*) nice -n 10 $< $(FUZZ_OPTS_$*) -max_total_time=$(FUZZ_SECONDS) \
	  -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/$*/ \
	  tests/fuzz/work/$* tests/fuzz/corpus/$*
$(FUZZ_NAMES:%=fuzz-minimize-%): fuzz-minimize-%: $(FUZZ_BIN)/fuzz_%
	@mkdir -p tests/fuzz/min/$*
	$(FUZZ_ENV_$*) nice -n 10 $< $(FUZZ_OPTS_$*) -merge=1 tests/fuzz/min/$* \
	  tests/fuzz/corpus/$* tests/fuzz/work/$*
	@# named inputs (fixed crashers, hand-written seeds) stay, whatever coverage they add
	find tests/fuzz/corpus/$* -type f ! -regex '.*/[0-9a-f]\{40\}' -exec cp {} tests/fuzz/min/$*/ \;
	rm -rf tests/fuzz/corpus/$* && mv tests/fuzz/min/$* tests/fuzz/corpus/$*
