# tests/controls: the SKMD_* parser and the log (libskmd/support/config.c, log.c, log_level.c).
TEST_CONTROLS := $(O)tests/controls/test-controls
ALL_TARGETS += $(TEST_CONTROLS)
CLEAN_FILES += $(TEST_CONTROLS)

$(O)tests/controls/test-controls.o: CPPFLAGS += -Ilibskmd
$(TEST_CONTROLS): $(O)tests/controls/test-controls.o \
  $(O)libskmd/support/config.o $(O)libskmd/support/config_warnings.o \
  $(O)libskmd/support/log.o $(O)libskmd/support/log_level.o \
  $(TEST_CHECK_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

TEST_TARGETS += test-controls
.PHONY: test-controls
test-controls: $(TEST_CONTROLS)
	@$(TEST_CONTROLS) && echo "PASS test-controls"

# skmd-run: flags -> SKMD_* variables, LD_PRELOAD, errors (tests/controls/test-skmd-run.sh).
EMPTY_PRELOAD := $(O)tests/controls/empty-preload.so
ALL_TARGETS += $(EMPTY_PRELOAD)
CLEAN_FILES += $(EMPTY_PRELOAD) $(O)tests/controls/out
# built without the sanitizers: it is preloaded into programs that do not have them
$(EMPTY_PRELOAD): tests/controls/empty-preload.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -o $@ $<

TEST_TARGETS += test-skmd-run
.PHONY: test-skmd-run
test-skmd-run: $(O)tools/skmd-run $(EMPTY_PRELOAD)
	@tests/controls/test-skmd-run.sh $(abspath $(O)tools/skmd-run) $(abspath $(EMPTY_PRELOAD)) $(abspath $(O)tests/controls/out)
