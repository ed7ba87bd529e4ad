# tests/verify/: SKMD_VERIFY (libskmd/launch/verify.h, docs/verify.md). verify_compare_test is
# the comparison alone; test-verify runs split programs under SKMD_VERIFY on local PoCL
# devices: correct splits verify with 0 mismatches, a split broken on purpose
# (SKMD_FAULT_CORRUPT) is caught, naming the kernel and buffer (tests/verify/test-verify.sh).
VERIFY_APP := $(O)tests/verify/verify_app
VERIFY_COMPARE_TEST := $(O)tests/verify/verify_compare_test
ALL_TARGETS += $(VERIFY_APP) $(VERIFY_COMPARE_TEST)
CLEAN_FILES += $(VERIFY_APP) $(VERIFY_COMPARE_TEST) $(O)tests/verify/verify_compare_test.o
TEST_TARGETS += test-verify-compare test-verify
.PHONY: test-verify-compare test-verify

$(O)tests/verify/verify_compare_test.o: CPPFLAGS += -Ilibskmd
$(VERIFY_COMPARE_TEST): $(O)tests/verify/verify_compare_test.o $(O)libskmd/launch/verify_compare.o \
  $(TEST_CHECK_OBJ) $(TRANSFORM_RECORD_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lm

test-verify-compare: $(VERIFY_COMPARE_TEST)
	@$(VERIFY_COMPARE_TEST)

# Linked with the system loader, like any app; libskmd comes in through LD_PRELOAD.
$(VERIFY_APP): tests/verify/verify_app.c $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120 -o $@ $< \
	  $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL

test-verify: $(LIBSKMD_SO) $(VERIFY_APP) $(O)tests/split/adversarial $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/verify/test-verify.sh "$(SKMD_PRELOAD)" $(O)tests/verify \
	  $(O)tests/split
