# tests/split/: split launches on local PoCL devices under forced uneven shares: the
# adversarial programs and every example byte-identical / self-checked, the byte counter,
# an injected member fault, the events of asynchronous launches, member-to-member peer
# copies, the app's maps of split launches' buffers (maps.c), and which write footprints
# need the merge, shapes.c, and the warning for a forced split left whole said once per
# kernel name, told.c (tests/split/test-split.sh).
SPLIT_TEST_BINS := $(O)tests/split/adversarial $(O)tests/split/moved $(O)tests/split/events \
  $(O)tests/split/chain $(O)tests/split/shapes $(O)tests/split/rect $(O)tests/split/maps \
  $(O)tests/split/told
SHARE_ALIGN_TEST := $(O)tests/split/share_align_test
ALL_TARGETS += $(SPLIT_TEST_BINS) $(SHARE_ALIGN_TEST)
CLEAN_FILES += $(SPLIT_TEST_BINS) $(SHARE_ALIGN_TEST) $(O)tests/split/share_align_test.o
TEST_TARGETS += test-split-adversarial test-split-examples test-split-moved test-split-fault \
  test-split-events test-split-peer test-split-spread test-split-shapes \
  test-split-share-align test-split-reads test-split-placed test-split-maps test-split-told
.PHONY: test-split-adversarial test-split-examples test-split-moved test-split-fault \
  test-split-events test-split-peer test-split-spread test-split-shapes test-split-share-align \
  test-split-reads test-split-placed test-split-maps test-split-told

# share_align.c alone (no OpenCL driver): rounding, units, write modes, scaled problems.
$(O)tests/split/share_align_test.o: CPPFLAGS += -Ilibskmd
$(SHARE_ALIGN_TEST): $(O)tests/split/share_align_test.o $(O)libskmd/plan/share_align.o \
  $(O)libskmd/plan/launch_memo.o \
  $(O)libskmd/plan/share_rect.o $(O)transform/libskmdrecord.a $(O)partitioner/libskmdpart.a \
  $(TEST_CHECK_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lm

test-split-share-align: $(SHARE_ALIGN_TEST)
	@$(SHARE_ALIGN_TEST)

# Linked with the system loader, like any app; libskmd comes in through LD_PRELOAD.
$(O)tests/split/%: tests/split/%.c $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120 -o $@ $< \
	  $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL

test-split-adversarial test-split-moved test-split-fault test-split-events \
  test-split-peer test-split-shapes test-split-reads test-split-placed \
  test-split-maps test-split-told: test-split-%: $(LIBSKMD_SO) \
  $(SPLIT_TEST_BINS) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/split/test-split.sh $* "$(SKMD_PRELOAD)" $(O)tests/split

test-split-examples test-split-spread: test-split-%: $(LIBSKMD_SO) $(EXAMPLE_BINS) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/split/test-split.sh $* "$(SKMD_PRELOAD)" $(O)tests/split

# Members brought up only when a launch could use them (libskmd/cl/bring_up.h), three PoCL
# devices with a real context each (tests/split/test-bring-up.sh).
TEST_TARGETS += test-split-bring-up
.PHONY: test-split-bring-up
test-split-bring-up: $(LIBSKMD_SO) $(EXAMPLE_BINS) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/split/test-bring-up.sh "$(SKMD_PRELOAD)" $(or $(O),.)

# Shares whose writes are boxes (share_rect.h): transposes byte-identical to a native run,
# committed with rectangular copies, not merged (tests/split/test-rect.sh).
TEST_TARGETS += test-split-rect
.PHONY: test-split-rect
test-split-rect: $(LIBSKMD_SO) $(O)tests/split/rect $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/split/test-rect.sh "$(SKMD_PRELOAD)" $(O)tests/split

# share_rect.c alone (no OpenCL driver): boxes from analysis records, overlaps, modes.
SHARE_RECT_TEST := $(O)tests/split/share_rect_test
ALL_TARGETS += $(SHARE_RECT_TEST)
CLEAN_FILES += $(SHARE_RECT_TEST) $(O)tests/split/share_rect_test.o
TEST_TARGETS += test-split-share-rect
.PHONY: test-split-share-rect
$(O)tests/split/share_rect_test.o: CPPFLAGS += -Ilibskmd
$(SHARE_RECT_TEST): $(O)tests/split/share_rect_test.o $(O)libskmd/plan/share_align.o \
  $(O)libskmd/plan/launch_memo.o \
  $(O)libskmd/plan/share_rect.o $(O)libskmd/support/ranges.o $(O)libskmd/support/ranges_merge.o \
  $(O)transform/libskmdrecord.a $(O)partitioner/libskmdpart.a $(TEST_CHECK_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lm

test-split-share-rect: $(SHARE_RECT_TEST)
	@$(SHARE_RECT_TEST)

# Streamed outputs (libskmd/launch/stream_out.h): tests/split/stream.c, tests/split/test-stream.sh.
STREAM_TEST_BIN := $(O)tests/split/stream
ALL_TARGETS += $(STREAM_TEST_BIN)
CLEAN_FILES += $(STREAM_TEST_BIN)
TEST_TARGETS += test-split-stream
.PHONY: test-split-stream
test-split-stream: $(LIBSKMD_SO) $(STREAM_TEST_BIN) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/split/test-stream.sh "$(SKMD_PRELOAD)" $(O)tests/split

# `make bench-stream [BENCH_STREAM_ARGS="ROUNDS --mib N --reps N"]`: what streamed outputs
# save on the local devices (tests/split/read-after-split.c, tests/split/bench-stream.sh).
READ_AFTER_SPLIT := $(O)tests/split/read-after-split
ALL_TARGETS += $(READ_AFTER_SPLIT)
CLEAN_FILES += $(READ_AFTER_SPLIT)
BENCH_TARGETS += bench-stream
.PHONY: bench-stream
bench-stream: $(LIBSKMD_SO) $(READ_AFTER_SPLIT) $(SKMD_OPT)
	@tests/split/bench-stream.sh "$(SKMD_PRELOAD)" $(READ_AFTER_SPLIT) $(BENCH_STREAM_ARGS)
