# examples/: each program is examples/NAME/NAME.c plus the shared harness; it links only
# -lOpenCL (and libm), like any ordinary OpenCL 1.2 app.
EXAMPLE_NAMES := $(notdir $(patsubst %/,%,$(dir $(wildcard examples/*/*.c))))
EXAMPLE_NAMES := $(filter-out common,$(sort $(EXAMPLE_NAMES)))
EXAMPLE_BINS := $(foreach e,$(EXAMPLE_NAMES),$(O)examples/$(e)/$(e))
EXAMPLE_CFLAGS := $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120 -Iexamples/common
ALL_TARGETS += $(EXAMPLE_BINS)
CLEAN_FILES += $(EXAMPLE_BINS)

$(O)examples/common/example.o: examples/common/example.c examples/common/example.h
	@mkdir -p $(dir $@)
	$(CC) $(EXAMPLE_CFLAGS) -c $< -o $@

define example_rule
$(O)examples/$(1)/$(1): examples/$(1)/$(1).c $(wildcard examples/$(1)/*.h) $(O)examples/common/example.o
	@mkdir -p $$(dir $$@)
	$$(CC) $$(EXAMPLE_CFLAGS) -o $$@ $$< $(O)examples/common/example.o $$(LDFLAGS) -lOpenCL -lm
endef
$(foreach e,$(EXAMPLE_NAMES),$(eval $(call example_rule,$(e))))

# Every example, --quick, natively on the local (PoCL) devices: each must print PASSED.
TEST_TARGETS += test-examples-native
.PHONY: test-examples-native
test-examples-native: $(EXAMPLE_BINS)
	@fail=0; for b in $(EXAMPLE_BINS); do \
	  if out=$$($$b --quick --reps 1 2>&1) && grep -q '^PASSED' <<<"$$out"; then echo "PASS native $$b"; \
	  else echo "FAIL native $$b"; echo "$$out" | tail -5; fail=1; fi; done; exit $$fail

# `make bench`: every example natively on each device, then under libskmd (bench/README.md).
# Options go through BENCH_ARGS, e.g. make bench BENCH_ARGS="--quick --reps 3".
BENCH_TARGETS += bench-examples
.PHONY: bench-examples bench-pack
bench-examples: $(EXAMPLE_BINS)
	bench/run.sh --bin-dir $(O)examples $(BENCH_ARGS)

# `make bench-calls`: what single OpenCL calls cost natively and under libskmd
# (bench/callcost/, an ordinary app built on the examples' harness).
CALL_COST := $(O)bench/callcost/call-cost
ALL_TARGETS += $(CALL_COST)
CLEAN_FILES += $(CALL_COST)
BENCH_TARGETS += bench-calls
.PHONY: bench-calls test-call-cost
$(CALL_COST): bench/callcost/call-cost.c $(O)examples/common/example.o
	@mkdir -p $(dir $@)
	$(CC) $(EXAMPLE_CFLAGS) -o $@ $< $(O)examples/common/example.o $(LDFLAGS) -lOpenCL -lm
bench-calls: $(CALL_COST) $(O)libskmd/libskmd.so
	bench/callcost/run.sh $(CALL_COST) $(O)libskmd/libskmd.so

# The calls it times must do what they say natively and under libskmd (its own check).
TEST_TARGETS += test-call-cost
test-call-cost: $(CALL_COST) $(O)libskmd/libskmd.so
	@$(CALL_COST) --reps 10 | grep -q '^PASSED' && \
	  env $(SKMD_SAN_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(CALL_COST) --reps 10 | grep -q '^PASSED' && \
	  echo "PASS test-call-cost" || { echo "FAIL test-call-cost"; exit 1; }

# `make bench-setup`: a short program's one-time costs call by call (context, build, first
# launch, release), natively and under libskmd: where a process's extra time goes.
SETUP_COST := $(O)bench/callcost/setup-cost
ALL_TARGETS += $(SETUP_COST)
CLEAN_FILES += $(SETUP_COST)
BENCH_TARGETS += bench-setup
.PHONY: bench-setup test-setup-cost
$(SETUP_COST): bench/callcost/setup-cost.c
	@mkdir -p $(dir $@)
	$(CC) $(EXAMPLE_CFLAGS) -o $@ $< $(LDFLAGS) -lOpenCL
bench-setup: $(SETUP_COST) $(O)libskmd/libskmd.so
	@echo "native:" && $(SETUP_COST) && echo "libskmd:" && LD_PRELOAD=$(O)libskmd/libskmd.so $(SETUP_COST)

TEST_TARGETS += test-setup-cost
test-setup-cost: $(SETUP_COST) $(O)libskmd/libskmd.so
	@$(SETUP_COST) | tail -1 | grep -qx PASSED && \
	  env $(SKMD_SAN_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(SETUP_COST) | tail -1 | grep -qx PASSED && \
	  echo "PASS test-setup-cost" || { echo "FAIL test-setup-cost"; exit 1; }

# bench/pack/: the built programs (and libskmd.so, tools/skmd-trace for --balance, plus
# BENCH_PACK_EXTRA files, when there) in one folder, to carry to a machine that cannot
# build them.
BENCH_PACK_EXTRA ?=
bench-pack: $(EXAMPLE_BINS)
	rm -rf bench/pack && mkdir -p bench/pack
	for f in $(EXAMPLE_BINS) $(wildcard libskmd/libskmd.so tools/skmd-trace) $(BENCH_PACK_EXTRA); do \
	  mkdir -p bench/pack/$$(dirname $${f#$(O)}) && cp -p $$f bench/pack/$${f#$(O)} || exit 1; done
	@echo "bench-pack: $$(find bench/pack -type f | wc -l) files in bench/pack"
CLEAN_FILES += bench/pack bench/out

# The bench script itself, on two local CPU devices with a do-nothing preload library in the
# libskmd column: tables, derived figures and chart must come out right. Leak checks stay
# with test-examples-native: under SAN=1 with two PoCL devices, LeakSanitizer's exit-time
# tracer can crash on PoCL's idle device threads, which says nothing about the bench.
TEST_TARGETS += test-bench
CLEAN_FILES += $(O)bench/noop_preload.so $(O)bench/test-out
.PHONY: test-bench
$(O)bench/noop_preload.so: bench/noop_preload.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -o $@ $< $(LDFLAGS)
test-bench: $(O)examples/vector_add/vector_add $(O)examples/reduction/reduction $(O)bench/noop_preload.so
	@POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 ASAN_OPTIONS=detect_leaks=0 bench/run.sh --quick --reps 1 --rounds 2 \
	  --bin-dir $(O)examples --only vector_add,reduction --out $(O)bench/test-out \
	  --libskmd $(O)bench/noop_preload.so --column 'a:' --column 'b: BENCH_TEST_MARKER=1' >/dev/null && \
	bench/check_results.py $(O)bench/test-out vector_add reduction && \
	grep -q 'BENCH_TEST_MARKER=1 ' $(O)bench/test-out/log.txt && echo "PASS test-bench" || \
	{ echo "FAIL test-bench (see $(O)bench/test-out/log.txt)"; exit 1; }
	@POCL_DEVICES=pthread ASAN_OPTIONS=detect_leaks=0 bench/interleaved.sh --device 0:0 \
	  --libskmd $(O)bench/noop_preload.so --bin-dir $(O)examples --rounds 2 --reps 1 \
	  --column 'a: BENCH_TEST_MARKER=1' vector_add | grep -Eq '^\| vector_add \| a \| 2 \| [0-9.]+ \|' && \
	echo "PASS test-bench interleaved" || { echo "FAIL test-bench interleaved"; exit 1; }

# The compute-bound set (bench/run.sh --set compute) on two local PoCL devices, --quick, with
# libskmd itself: every example passes in both columns, split forced to halves shares the
# largest kernel between both devices, single runs it on one, and split / single (with its
# geomean) follows from the times.
TEST_TARGETS += test-bench-compute
CLEAN_FILES += $(O)bench/test-compute
COMPUTE_SET_NAMES := gemm matrix_mul syrk binomial_option nbody monte_carlo
.PHONY: test-bench-compute
test-bench-compute: $(foreach e,$(COMPUTE_SET_NAMES),$(O)examples/$(e)/$(e)) $(LIBSKMD_SO) $(SKMD_OPT)
	@rm -rf $(O)bench/test-compute && \
	POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 ASAN_OPTIONS=detect_leaks=0 \
	  SKMD_CACHE_DIR=$(abspath $(O)bench/test-compute/cache) bench/run.sh --set compute --quick \
	  --reps 1 --report --bin-dir $(O)examples --libskmd $(LIBSKMD_SO) --out $(O)bench/test-compute \
	  --column 'split: SKMD_MODE=split SKMD_SPLIT=0.5,0.5' >/dev/null && \
	bench/check_results.py $(O)bench/test-compute $(COMPUTE_SET_NAMES) && \
	awk -F, 'NR > 1 { n = split($$5, s, "/"); busy = 0; for (i = 1; i <= n; i++) busy += s[i] > 0; \
	  if (busy != ($$2 == "split" ? 2 : 1)) { print "shares " $$5 " in " $$1 " " $$2; bad = 1 }; rows++ } \
	  END { exit bad || rows != 12 }' $(O)bench/test-compute/reports/decisions.csv && \
	echo "PASS test-bench-compute" || \
	{ echo "FAIL test-bench-compute (see $(O)bench/test-compute/log.txt)"; exit 1; }
