# tests/controls: the SKMD_* parser and the log (libskmd/config.c, libskmd/log.c).
TEST_CONTROLS := $(O)tests/controls/test-controls
ALL_TARGETS += $(TEST_CONTROLS)
CLEAN_FILES += $(TEST_CONTROLS)

$(O)tests/controls/test-controls.o: CPPFLAGS += -Ilibskmd
$(TEST_CONTROLS): $(O)tests/controls/test-controls.o $(O)libskmd/config.o $(O)libskmd/log.o
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

TEST_TARGETS += test-controls
.PHONY: test-controls
test-controls: $(TEST_CONTROLS)
	@$(TEST_CONTROLS) && echo "PASS test-controls"
