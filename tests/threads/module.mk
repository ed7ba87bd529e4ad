# tests/threads/: app threads enqueueing at once under libskmd (tests/threads/threads.c):
# 8 threads with their own queues and 2 sharing one, kernels split over 2 PoCL devices,
# every result checked. `make test-threads` runs it for 3 s, `make stress` for
# SKMD_STRESS_SECONDS (a make variable, 60), `make tsan-threads` under ThreadSanitizer (libskmd and the
# test built with -fsanitize=thread under $(O)tests/threads/tsan/).
THREADS_BIN := $(O)tests/threads/threads
THREADS_TSAN_DIR := $(O)tests/threads/tsan
THREADS_TSAN_BIN := $(THREADS_TSAN_DIR)/threads
THREADS_TSAN_SO := $(THREADS_TSAN_DIR)/libskmd.so
THREADS_TSAN_OBJS := $(patsubst %.c,$(THREADS_TSAN_DIR)/%.o,$(LIBSKMD_SRCS))
SKMD_STRESS_SECONDS ?= 60
ALL_TARGETS += $(THREADS_BIN)
CLEAN_FILES += $(THREADS_BIN) $(THREADS_TSAN_DIR)
TEST_TARGETS += test-threads tsan-threads
.PHONY: test-threads test-threads-stress stress tsan-threads
stress: test-threads-stress

THREADS_CFLAGS = $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120

$(THREADS_BIN): tests/threads/threads.c
	@mkdir -p $(dir $@)
	$(CC) $(THREADS_CFLAGS) -o $@ $< $(LDFLAGS) -lOpenCL -lpthread

test-threads: $(LIBSKMD_SO) $(THREADS_BIN) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/threads/test-threads.sh 3 "$(SKMD_PRELOAD)" $(THREADS_BIN) \
	  $(abspath $(SKMD_OPT))

test-threads-stress: $(LIBSKMD_SO) $(THREADS_BIN) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/threads/test-threads.sh $(SKMD_STRESS_SECONDS) \
	  "$(SKMD_PRELOAD)" $(THREADS_BIN) \
	  $(abspath $(SKMD_OPT))

# ThreadSanitizer: its own objects of libskmd (the top-level SAN=1 is ASan only).
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
$(THREADS_TSAN_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

$(THREADS_TSAN_OBJS): CPPFLAGS += -Ilibskmd -DCL_USE_DEPRECATED_OPENCL_1_0_APIS \
  -DCL_USE_DEPRECATED_OPENCL_1_1_APIS -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_0_APIS -DCL_USE_DEPRECATED_OPENCL_2_1_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_2_APIS

# Linked as libskmd/module.mk links libskmd.so (the static libraries are not instrumented).
$(THREADS_TSAN_SO): $(THREADS_TSAN_OBJS) $(LIBSKMD_MAP) $(LIBSKMD_LIBS)
	$(CC) -shared $(TSAN_FLAGS) -o $@ $(THREADS_TSAN_OBJS) \
	  -Wl,--version-script=$(LIBSKMD_MAP) $(LIBSKMD_LIBS) -Wl,-Bsymbolic-functions \
	  -lsqlite3 -lm -ldl -lpthread

$(THREADS_TSAN_BIN): tests/threads/threads.c
	@mkdir -p $(dir $@)
	$(CC) $(THREADS_CFLAGS) $(TSAN_FLAGS) -o $@ $< -lOpenCL -lpthread

# ThreadSanitizer cannot share a process with AddressSanitizer, and under SAN=1 the
# static libraries libskmd links are ASan builds: the plain `make test` runs it.
ifeq ($(SAN),1)
tsan-threads:
	@echo "SKIP tsan-threads: ThreadSanitizer does not combine with SAN=1's AddressSanitizer (run it in the plain build)"
else
# Again with a real context per member: the first launch brings the second member up
# (libskmd/cl/bring_up.c) while the other threads make kernels, set arguments and launch.
tsan-threads: $(THREADS_TSAN_SO) $(THREADS_TSAN_BIN) $(SKMD_OPT)
	@TSAN_OPTIONS="halt_on_error=1 suppressions=$(abspath tests/threads/tsan.supp)" \
	  tests/threads/test-threads.sh 3 "$(abspath $(THREADS_TSAN_SO))" $(THREADS_TSAN_BIN) \
	  $(abspath $(SKMD_OPT))
	@TSAN_OPTIONS="halt_on_error=1 suppressions=$(abspath tests/threads/tsan.supp)" \
	  SKMD_CONTEXTS=device tests/threads/test-threads.sh 3 "$(abspath $(THREADS_TSAN_SO))" \
	  $(THREADS_TSAN_BIN) $(abspath $(SKMD_OPT))
endif

# The kept threads of libskmd/device/parallel.c on their own, plain and under ThreadSanitizer (its
# own objects; not under SAN=1, whose AddressSanitizer it cannot join).
PARALLEL_TEST := $(O)tests/threads/parallel_test
PARALLEL_TSAN_TEST := $(THREADS_TSAN_DIR)/parallel_test
PARALLEL_SRCS := tests/threads/parallel_test.c libskmd/device/parallel.c \
  libskmd/support/log.c libskmd/support/log_level.c \
  libskmd/support/config.c libskmd/support/config_warnings.c tests/common/check.c
ALL_TARGETS += $(PARALLEL_TEST)
CLEAN_FILES += $(PARALLEL_TEST)
$(O)tests/threads/parallel_test.o: CPPFLAGS += -Ilibskmd
$(PARALLEL_TEST): $(patsubst %.c,$(O)%.o,$(PARALLEL_SRCS))
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

$(PARALLEL_TSAN_TEST): $(PARALLEL_SRCS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) $(CPPFLAGS) -Ilibskmd -o $@ $^ -lpthread

TEST_TARGETS += test-parallel
.PHONY: test-parallel
ifeq ($(SAN),1)
test-parallel: $(PARALLEL_TEST)
	@env $(SKMD_SAN_ENV) $(PARALLEL_TEST)
else
test-parallel: $(PARALLEL_TEST) $(PARALLEL_TSAN_TEST)
	@$(PARALLEL_TEST)
	@TSAN_OPTIONS=halt_on_error=1 $(PARALLEL_TSAN_TEST)
endif

# Callbacks on the app's user events while another thread sets them (user_event_callbacks.c):
# each runs once with the status set; under ThreadSanitizer too (libskmd's own callback
# table, libskmd/device/user_event_callbacks.c). Two PoCL devices under libskmd.
UEC_BIN := $(O)tests/threads/user_event_callbacks
UEC_TSAN_BIN := $(THREADS_TSAN_DIR)/user_event_callbacks
ALL_TARGETS += $(UEC_BIN)
CLEAN_FILES += $(UEC_BIN)
UEC_ENV := POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1
$(UEC_BIN): tests/threads/user_event_callbacks.c
	@mkdir -p $(dir $@)
	$(CC) $(THREADS_CFLAGS) -o $@ $< $(LDFLAGS) -lOpenCL -lpthread
$(UEC_TSAN_BIN): tests/threads/user_event_callbacks.c
	@mkdir -p $(dir $@)
	$(CC) $(THREADS_CFLAGS) $(TSAN_FLAGS) -o $@ $< -lOpenCL -lpthread

TEST_TARGETS += test-user-event-callbacks
.PHONY: test-user-event-callbacks
ifeq ($(SAN),1)
test-user-event-callbacks: $(LIBSKMD_SO) $(UEC_BIN)
	@env $(SKMD_SAN_ENV) $(UEC_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(UEC_BIN)
else
test-user-event-callbacks: $(LIBSKMD_SO) $(UEC_BIN) $(THREADS_TSAN_SO) $(UEC_TSAN_BIN)
	@$(UEC_ENV) LD_PRELOAD="$(SKMD_PRELOAD)" $(UEC_BIN)
	@$(UEC_ENV) TSAN_OPTIONS="halt_on_error=1 suppressions=$(abspath tests/threads/tsan.supp)" \
	  LD_PRELOAD="$(abspath $(THREADS_TSAN_SO))" $(UEC_TSAN_BIN)
endif
