# tests/native-source/: shares run from the app's own source (SKMD_SHARE_BUILD=source) on
# local PoCL devices: the box cutting and the source check as unit tests, the split
# adversarial set byte-identical (also with an injected member fault) and every example
# self-checked, every work-item function byte-identical (ids.c), a source the prelude
# cannot take run whole (unsafe.c), non-PoCL stub devices on the source route by default,
# new launch shapes built in the background (new_shapes.py)
# (tests/native-source/test-native-source.sh).
NATIVE_SOURCE_UNIT_BINS := $(O)tests/native-source/boxes $(O)tests/native-source/source_check \
  $(O)tests/native-source/unsafe $(O)tests/native-source/ids
ALL_TARGETS += $(NATIVE_SOURCE_UNIT_BINS)
CLEAN_FILES += $(NATIVE_SOURCE_UNIT_BINS)
TEST_TARGETS += test-native-source-boxes test-native-source-check \
  test-native-source-adversarial test-native-source-examples test-native-source-fault \
  test-native-source-ids test-native-source-unsafe test-native-source-stub \
  test-native-source-shapes
.PHONY: test-native-source-boxes test-native-source-check test-native-source-adversarial \
  test-native-source-examples test-native-source-fault test-native-source-ids \
  test-native-source-unsafe test-native-source-stub test-native-source-shapes

$(O)tests/native-source/boxes: $(O)tests/native-source/boxes.o $(O)libskmd/plan/boxes.o
	$(CC) -o $@ $^ $(LDFLAGS)

$(O)tests/native-source/source_check: $(O)tests/native-source/source_check.o \
  $(O)libskmd/plan/source_check.o
	$(CC) -o $@ $^ $(LDFLAGS)

# Apps: linked with the system loader; libskmd comes in through LD_PRELOAD.
$(O)tests/native-source/unsafe $(O)tests/native-source/ids: $(O)tests/native-source/%: \
  tests/native-source/%.c $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120 \
	  -o $@ $< $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL

test-native-source-boxes: $(O)tests/native-source/boxes
	@env $(SKMD_SAN_ENV) $<

test-native-source-check: $(O)tests/native-source/source_check
	@env $(SKMD_SAN_ENV) $<

test-native-source-adversarial test-native-source-examples test-native-source-fault \
  test-native-source-ids test-native-source-unsafe test-native-source-stub \
  test-native-source-shapes: test-native-source-%: $(LIBSKMD_SO) $(SPLIT_TEST_BINS) $(EXAMPLE_BINS) $(SKMD_OPT) \
  $(O)tests/native-source/unsafe $(O)tests/native-source/ids $(STUB_SO) $(STUB_ICD) $(STUB_APP)
	@env $(SKMD_SAN_ENV) tests/native-source/test-native-source.sh $* "$(SKMD_PRELOAD)" \
	  $(O)tests/split $(O)tests/native-source
