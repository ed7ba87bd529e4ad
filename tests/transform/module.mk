# tests/transform/: the analysis record's unit test, and the kernel corpus whose analysis
# (skmd-opt --analyze, summarised) is diffed against hand-checked .expect files.
#   make test-transform-record     the footprint evaluator and record round trip
#   make test-transform-NAME       one corpus kernel (tests/transform/corpus/NAME.cl)
#   make transform-expect          regenerate every .expect (then CHECK the diff by hand)
TEST_RECORD_BIN := $(O)tests/transform/test_record
TRANSFORM_RECORD_SRCS := $(sort $(wildcard transform/record*.c))

$(TEST_RECORD_BIN): tests/transform/test_record.c $(TRANSFORM_RECORD_SRCS) transform/record.h transform/record_poly.h \
  libskmd/support/json.c tests/common/check.c tests/common/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ilibskmd $(LDFLAGS) -o $@ tests/transform/test_record.c \
	  $(TRANSFORM_RECORD_SRCS) libskmd/support/json.c tests/common/check.c

.PHONY: test-transform-record
test-transform-record: $(TEST_RECORD_BIN)
	$(TEST_RECORD_BIN)

ALL_TARGETS += $(TEST_RECORD_BIN)
CLEAN_FILES += $(TEST_RECORD_BIN)
TEST_TARGETS += test-transform-record

# The corpus: each kernel file's analysis, summarised, must equal its hand-checked .expect.
# A file's `// OPTIONS ...` line adds build options (e.g. -cl-std=CL2.0).
TRANSFORM_CORPUS := $(sort $(wildcard tests/transform/corpus/*.cl))
TRANSFORM_CORPUS_NAMES := $(notdir $(TRANSFORM_CORPUS:.cl=))
TRANSFORM_CORPUS_TESTS := $(TRANSFORM_CORPUS_NAMES:%=test-transform-%)
TRANSFORM_ANALYZE = $(O)tools/skmd-opt --analyze \
  --options "-cl-kernel-arg-info $$(sed -n 's|^// OPTIONS ||p' $(1))" $(1)

.PHONY: test-transform-corpus transform-expect $(TRANSFORM_CORPUS_TESTS)
test-transform-corpus: $(TRANSFORM_CORPUS_TESTS)
TEST_TARGETS += test-transform-corpus

$(TRANSFORM_CORPUS_TESTS): test-transform-%: tests/transform/corpus/%.cl \
  tests/transform/corpus/%.expect $(O)tools/skmd-opt
	@$(call TRANSFORM_ANALYZE,$<) | /usr/bin/python3 tests/transform/summarize.py | \
	  diff -u tests/transform/corpus/$*.expect - && echo "PASS transform $*"

# PoCL's lowering leaves no builtin call with a vector wider than 256 bits (its SPIR
# wrapper passes those wrongly on x86-64): wide_builtins.cl's builtins run on 256-bit pieces.
TEST_TARGETS += test-transform-pocl-results
.PHONY: test-transform-pocl-results
test-transform-pocl-results: $(O)tools/skmd-opt
	@$(O)tools/skmd-opt --lower=pocl tests/transform/corpus/wide_builtins.cl | \
	  /usr/bin/python3 tests/transform/check-pocl-results.py 11

# Regenerates every .expect from the current analysis: read the diff and check each
# change by hand before committing it.
transform-expect: $(O)tools/skmd-opt
	@for f in $(TRANSFORM_CORPUS); do \
	  $(call TRANSFORM_ANALYZE,$$f) | /usr/bin/python3 tests/transform/summarize.py > $${f%.cl}.expect \
	  || echo "FAILED $$f"; done

# Transform time (bench/transform/bench.py): skmd-opt --compile for PoCL, cold, against
# PoCL's own clBuildProgram of the same source (kernel cache off), per corpus file and per
# example program (source and options captured from a run under libskmd). One CPU device.
# BENCH_TRANSFORM_ARGS adds options, e.g. "--runs 9 --markdown".
BENCH_TARGETS += bench-transform
.PHONY: bench-transform
bench-transform: $(O)tools/skmd-opt $(O)libskmd/libskmd.so $(EXAMPLE_BINS)
	POCL_DEVICES=pthread /usr/bin/python3 bench/transform/bench.py \
	  --skmd-opt $(O)tools/skmd-opt --libskmd $(O)libskmd/libskmd.so \
	  --examples $(O)examples $(BENCH_TRANSFORM_ARGS) $(TRANSFORM_CORPUS)

# OpenCL C version and extensions of split programs, through libskmd on PoCL devices.
TRANSFORM_CLSTD := $(O)tests/transform/clstd
ALL_TARGETS += $(TRANSFORM_CLSTD)
CLEAN_FILES += $(TRANSFORM_CLSTD)
TEST_TARGETS += test-transform-clstd
$(TRANSFORM_CLSTD): tests/transform/clstd.c $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL

.PHONY: test-transform-clstd
test-transform-clstd: $(TRANSFORM_CLSTD) $(LIBSKMD_SO) $(O)tools/skmd-opt
	@env $(SKMD_SAN_ENV) tests/transform/test-clstd.sh "$(SKMD_PRELOAD)" $(TRANSFORM_CLSTD)

# The warning when members cannot build the split program: once per program, naming it,
# its members and the first lines of the build log (a stand-in compiler's entry that PoCL
# cannot link).
TEST_TARGETS += test-transform-build-warning
.PHONY: test-transform-build-warning
test-transform-build-warning: $(TRANSFORM_CLSTD) $(LIBSKMD_SO) $(O)tools/skmd-opt
	@env $(SKMD_SAN_ENV) tests/transform/test-build-warning.sh "$(SKMD_PRELOAD)" \
	  $(TRANSFORM_CLSTD) $(O)tools/skmd-opt

# The compiler's cache keys follow its sources: a libskmd whose analysis changed must not
# read a record an older one left in the cache (a stale record split pyopencl's if_positive
# wrongly). The digest skmd-opt puts in every key is the one of today's sources.
.PHONY: test-transform-cache-digest
test-transform-cache-digest: $(O)tools/skmd-opt
	@want=$$(cat $(SKMD_OPT_SOURCES) | sha1sum | cut -c1-16); got=$$($(O)tools/skmd-opt --digest); \
	  if [ "$$want" = "$$got" ]; then echo "PASS test-transform-cache-digest"; \
	  else echo "FAIL test-transform-cache-digest: skmd-opt keys with $$got, its sources are $$want"; exit 1; fi
TEST_TARGETS += test-transform-cache-digest
