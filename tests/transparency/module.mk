# tests/transparency/: an app that drives the device through events (transparency.c):
# user-event-gated launches and chains of them, callbacks that call OpenCL, 8 threads with
# their own queues, profiling times of every kind of command. `make test-transparency`
# runs it natively on one PoCL device and under libskmd on "pthread pthread" and
# "pthread pthread basic" with forced splits (tests/transparency/run.sh).
TRANSPARENCY_BIN := $(O)tests/transparency/transparency
ALL_TARGETS += $(TRANSPARENCY_BIN)
CLEAN_FILES += $(TRANSPARENCY_BIN)
TEST_TARGETS += test-transparency
.PHONY: test-transparency

$(TRANSPARENCY_BIN): tests/transparency/transparency.c $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=300 \
	  -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -DCL_USE_DEPRECATED_OPENCL_2_2_APIS \
	  -o $@ $< $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL -lpthread

test-transparency: $(LIBSKMD_SO) $(TRANSPARENCY_BIN) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/transparency/run.sh "$(SKMD_PRELOAD)" $(TRANSPARENCY_BIN) \
	  $(abspath $(SKMD_OPT))
