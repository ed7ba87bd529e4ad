# tests/transfer/: the transfer engine (libskmd/xfer/transfer.c) linked directly, on 2 and 3
# local PoCL devices, with small chunks (many chunk boundaries) and with chunks large enough
# that the host copies are shared among threads.
TRANSFER_TEST := $(O)tests/transfer/test-transfer
ALL_TARGETS += $(TRANSFER_TEST)
CLEAN_FILES += $(TRANSFER_TEST)

$(O)tests/transfer/test-transfer.o: CPPFLAGS += -Ilibskmd -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_0_APIS
# The engine's objects (libskmd/xfer/) and what they use below them.
TRANSFER_ENGINE_OBJS := $(addprefix $(O)libskmd/,xfer/transfer.o xfer/transfer_window.o \
  xfer/host_mem.o xfer/copy_pool.o device/parallel.o \
  support/config.o support/config_warnings.o support/log.o support/log_level.o)
$(TRANSFER_TEST): $(O)tests/transfer/test-transfer.o $(TRANSFER_ENGINE_OBJS) $(TEST_CHECK_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -ldl -lpthread

TEST_TARGETS += test-transfer
.PHONY: test-transfer
test-transfer: $(TRANSFER_TEST)
	@env $(SKMD_SAN_ENV) POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 \
	  SKMD_TRANSFER_CHUNK_KIB=64 SKMD_TRANSFER_DIRECT_KIB=16 SKMD_TRANSFER_STAGING=2 \
	  $(TRANSFER_TEST)
	@env $(SKMD_SAN_ENV) POCL_DEVICES="pthread pthread basic" POCL_CPU_MAX_CU_NUM=1 \
	  SKMD_TRANSFER_CHUNK_KIB=4096 SKMD_TRANSFER_DIRECT_KIB=1024 SKMD_TRANSFER_STAGING=3 \
	  SKMD_TRANSFER_THREADS=3 $(TRANSFER_TEST)

# The split suite's byte-identical and bytes-moved checks again with every transfer staged
# in small chunks and without zero-copy (the default settings move these small buffers
# directly or in place); then which path carried the bytes, from the engine's totals.
TEST_TARGETS += test-transfer-split
.PHONY: test-transfer-split
test-transfer-split: $(LIBSKMD_SO) $(SPLIT_TEST_BINS) $(SKMD_OPT)
	@for m in adversarial moved; do env $(SKMD_SAN_ENV) SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1 \
	  SKMD_TRANSFER_DIRECT_KIB=0 SKMD_TRANSFER_CHUNK_KIB=64 SKMD_TRANSFER_THREADS=2 \
	  tests/split/test-split.sh $$m "$(SKMD_PRELOAD)" $(O)tests/split || exit 1; done
	@env $(SKMD_SAN_ENV) tests/transfer/test-paths.sh "$(SKMD_PRELOAD)" $(abspath $(SKMD_OPT)) \
	  $(O)tests/split/moved

# `make bench-transfer` (bench/transfer/transfer-bench.c; its rules live here because
# bench/ has no make fragment of its own): GB/s per device, engine vs plain vs pinned.
# Options through BENCH_TRANSFER_ARGS, e.g. "--max-mib 1024 --reps 5 --device 1:0".
TRANSFER_BENCH := $(O)bench/transfer/transfer-bench
BENCH_TRANSFER_ARGS ?= --max-mib 64
ALL_TARGETS += $(TRANSFER_BENCH)
CLEAN_FILES += $(TRANSFER_BENCH)
BENCH_TARGETS += bench-transfer
.PHONY: bench-transfer
$(O)bench/transfer/transfer-bench.o: CPPFLAGS += -Ilibskmd -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_0_APIS
$(TRANSFER_BENCH): $(O)bench/transfer/transfer-bench.o $(TRANSFER_ENGINE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ -ldl -lpthread
bench-transfer: $(TRANSFER_BENCH)
	$(TRANSFER_BENCH) $(BENCH_TRANSFER_ARGS)

# Shares run in pieces (libskmd/launch/pieces.c): tests/transfer/pieces (an app under LD_PRELOAD
# that checks its own results) with forced piece counts, a fault in the middle of the
# pieces, and the default (no pieces on CPU members).
PIECES_TEST := $(O)tests/transfer/pieces

TEST_TARGETS += test-transfer-pieces
.PHONY: test-transfer-pieces
test-transfer-pieces: $(LIBSKMD_SO) $(PIECES_TEST) $(SKMD_OPT) $(EXAMPLE_BINS)
	@env $(SKMD_SAN_ENV) tests/transfer/test-pieces.sh "$(SKMD_PRELOAD)" $(PIECES_TEST) \
	  $(O)examples

# Reads and writes with a wait list or an event: natively, then under libskmd through the
# engine (staged, as on a GPU member); the engine's totals show that it carried the eight
# it may (the non-blocking read behind an unset user event goes to the driver).
WAITED_TEST := $(O)tests/transfer/waited

# Both test apps (OpenCL 1.2 programs of one file each) are built alike.
TRANSFER_APPS := $(PIECES_TEST) $(WAITED_TEST)
ALL_TARGETS += $(TRANSFER_APPS)
CLEAN_FILES += $(TRANSFER_APPS)
$(TRANSFER_APPS): $(O)tests/transfer/%: tests/transfer/%.c $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120 -o $@ $< \
	  $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL -lpthread

TEST_TARGETS += test-transfer-waited
.PHONY: test-transfer-waited
test-transfer-waited: $(LIBSKMD_SO) $(WAITED_TEST)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && export POCL_DEVICES=pthread && \
	timeout 120 $(WAITED_TEST) >/dev/null || { echo "FAIL test-transfer-waited: native"; exit 1; }; \
	timeout 120 env $(SKMD_SAN_ENV) SKMD_APP_TRANSFERS=engine SKMD_TRANSFER_STAGE_CPU=1 \
	  SKMD_LOG="info:$$tmp/log" LD_PRELOAD="$(SKMD_PRELOAD)" $(WAITED_TEST) --failed-events >/dev/null || \
	  { echo "FAIL test-transfer-waited: under libskmd"; exit 1; }; \
	staged=$$(sed -n 's/.*transfer engine: \([0-9]*\) bytes staged.*/\1/p' "$$tmp/log" | tail -1); \
	if [ "$${staged:-0}" -ge 33554432 ]; then echo "PASS test-transfer-waited ($$staged bytes staged)"; \
	else echo "FAIL test-transfer-waited: $${staged:-no} bytes staged (want the eight 4 MiB calls: 33554432)"; exit 1; fi

# The engine's copy pool (libskmd/xfer/copy_pool.c) from several threads at once, plain and under
# ThreadSanitizer (its own objects; not under SAN=1, whose AddressSanitizer it cannot join).
COPY_POOL_TEST := $(O)tests/transfer/copy_pool_test
COPY_POOL_TSAN_DIR := $(O)tests/transfer/tsan
COPY_POOL_SRCS := tests/transfer/copy_pool_test.c libskmd/xfer/copy_pool.c \
  libskmd/device/parallel.c libskmd/support/log.c libskmd/support/log_level.c \
  libskmd/support/config.c libskmd/support/config_warnings.c tests/common/check.c
ALL_TARGETS += $(COPY_POOL_TEST)
CLEAN_FILES += $(COPY_POOL_TEST) $(COPY_POOL_TSAN_DIR)
$(O)tests/transfer/copy_pool_test.o: CPPFLAGS += -Ilibskmd
$(COPY_POOL_TEST): $(patsubst %.c,$(O)%.o,$(COPY_POOL_SRCS))
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

$(COPY_POOL_TSAN_DIR)/copy_pool_test: $(COPY_POOL_SRCS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) $(CPPFLAGS) -Ilibskmd -o $@ $^ -lpthread

TEST_TARGETS += test-copy-pool
.PHONY: test-copy-pool
ifeq ($(SAN),1)
test-copy-pool: $(COPY_POOL_TEST)
	@env $(SKMD_SAN_ENV) $(COPY_POOL_TEST)
else
test-copy-pool: $(COPY_POOL_TEST) $(COPY_POOL_TSAN_DIR)/copy_pool_test
	@$(COPY_POOL_TEST)
	@TSAN_OPTIONS=halt_on_error=1 $(COPY_POOL_TSAN_DIR)/copy_pool_test
endif

# The batch of a share's input transfers (libskmd/mem/fetch_batch.c) alone, with stand-ins
# for the engine: thousands of ranges, each asked byte moved once, landed only when run.
FETCH_BATCH_TEST := $(O)tests/transfer/fetch_batch_test
FETCH_BATCH_SRCS := tests/transfer/fetch_batch_test.c libskmd/mem/fetch_batch.c \
  libskmd/support/ranges.c tests/common/check.c
ALL_TARGETS += $(FETCH_BATCH_TEST)
CLEAN_FILES += $(FETCH_BATCH_TEST)
$(O)tests/transfer/fetch_batch_test.o: CPPFLAGS += -Ilibskmd
$(FETCH_BATCH_TEST): $(patsubst %.c,$(O)%.o,$(FETCH_BATCH_SRCS))
	$(CC) $(LDFLAGS) -o $@ $^

TEST_TARGETS += test-fetch-batch
.PHONY: test-fetch-batch
test-fetch-batch: $(FETCH_BATCH_TEST)
	@env $(SKMD_SAN_ENV) $(FETCH_BATCH_TEST)
