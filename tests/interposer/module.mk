# tests/interposer/: libskmd's API surface: exports and versions, clinfo under libskmd,
# SKMD_DEVICES, the no-loader/no-device message, and an invalid-handle test generated
# from libskmd/device/api.def.

# The LD_PRELOAD value that runs a program under libskmd. Under SAN=1 the ASan runtime
# must come first; SKMD_SAN_ENV then sets the leak suppressions (PoCL's and ocl-icd's
# own leaks only). Use as:  env $(SKMD_SAN_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" ./app
SKMD_PRELOAD = $(if $(filter 1,$(SAN)),$(shell $(CC) -print-file-name=libasan.so) )$(abspath $(LIBSKMD_SO))
SKMD_SAN_ENV = $(if $(filter 1,$(SAN)),ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 LSAN_OPTIONS=suppressions=$(abspath tests/lsan-opencl.supp):print_suppressions=0,)

INTERPOSER_INVALID_C := $(O)tests/interposer/invalid-handles.c
INTERPOSER_INVALID := $(O)tests/interposer/invalid-handles
ALL_TARGETS += $(INTERPOSER_INVALID)
CLEAN_FILES += $(INTERPOSER_INVALID) $(INTERPOSER_INVALID_C)
INTERPOSER_DLOPEN := $(O)tests/interposer/dlopen-app
ALL_TARGETS += $(INTERPOSER_DLOPEN)
CLEAN_FILES += $(INTERPOSER_DLOPEN)
TEST_TARGETS += test-interposer-exports test-interposer-clinfo test-interposer-invalid \
  test-interposer-show-real test-interposer-dlopen
.PHONY: test-interposer-exports test-interposer-clinfo test-interposer-invalid \
  test-interposer-show-real test-interposer-dlopen

$(INTERPOSER_INVALID_C): libskmd/device/api.def tests/interposer/gen-invalid-test.py
	@mkdir -p $(dir $@)
	/usr/bin/python3 tests/interposer/gen-invalid-test.py $< > $@

# Linked with the system loader, like any app; libskmd comes in through LD_PRELOAD.
$(INTERPOSER_INVALID): $(INTERPOSER_INVALID_C)
	$(CC) $(filter-out -Werror,$(CFLAGS)) -Wno-unused-variable -o $@ $< $(LDFLAGS) -lOpenCL

test-interposer-exports: $(LIBSKMD_SO)
	@tests/interposer/test-exports.sh $(LIBSKMD_SO) libskmd/device/api.def

test-interposer-clinfo: $(LIBSKMD_SO)
	@env $(SKMD_SAN_ENV) tests/interposer/test-clinfo.sh "$(SKMD_PRELOAD)"

# SKMD_SHOW_REAL=1: the real platforms after SKMD's, real handles straight to the driver.
test-interposer-show-real: $(LIBSKMD_SO) $(O)examples/vector_add/vector_add
	@env $(SKMD_SAN_ENV) tests/interposer/test-show-real.sh "$(SKMD_PRELOAD)" \
	  $(O)examples/vector_add/vector_add

# An app that opens libOpenCL.so.1 (and libOpenCL.so) itself still sees SKMD's platform
# with its one device; natively it sees PoCL's.
$(INTERPOSER_DLOPEN): tests/interposer/dlopen-app.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LDFLAGS) -ldl

test-interposer-dlopen: $(LIBSKMD_SO) $(INTERPOSER_DLOPEN)
	@export POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1; \
	native=$$($(INTERPOSER_DLOPEN)) && \
	skmd=$$(env $(SKMD_SAN_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(INTERPOSER_DLOPEN)) && \
	skmd_dev=$$(env $(SKMD_SAN_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(INTERPOSER_DLOPEN) libOpenCL.so) && \
	if [ "$$skmd" = "SKMD 1" ] && [ "$$skmd_dev" = "SKMD 1" ] && [ "$$native" != "SKMD 1" ]; then \
	  echo "PASS interposer dlopen: the app's own dlopen of the loader reaches libskmd ($$skmd), natively $$native"; \
	else echo "FAIL interposer dlopen: native '$$native', under libskmd '$$skmd' / '$$skmd_dev'"; exit 1; fi

test-interposer-invalid: $(LIBSKMD_SO) $(INTERPOSER_INVALID)
	@env $(SKMD_SAN_ENV) POCL_DEVICES="pthread basic" POCL_CPU_MAX_CU_NUM=1 \
	  LD_PRELOAD="$(SKMD_PRELOAD)" $(INTERPOSER_INVALID)

# Pass-through overhead (a benchmark, not a test): microseconds per tiny launch, native
# and under libskmd, in one run. Target: at most 2 us added per launch.
INTERPOSER_BENCH := $(O)tests/interposer/bench-overhead
ALL_TARGETS += $(INTERPOSER_BENCH)
CLEAN_FILES += $(INTERPOSER_BENCH)
BENCH_TARGETS += bench-overhead
.PHONY: bench-overhead
$(INTERPOSER_BENCH): tests/interposer/bench-overhead.c
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -o $@ $< $(LDFLAGS) -lOpenCL

bench-overhead: $(INTERPOSER_BENCH) $(LIBSKMD_SO)
	@export POCL_DEVICES=pthread POCL_CPU_MAX_CU_NUM=1; \
	native=$$($(INTERPOSER_BENCH)) && \
	skmd=$$(env $(SKMD_SAN_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(INTERPOSER_BENCH)) && \
	awk -v n=$$native -v s=$$skmd 'BEGIN { printf "bench-overhead: native %.3f us/launch, libskmd %.3f us/launch, ratio %.3f, added %.3f us/launch (target <= 2)\n", n, s, s / n, s - n }'
