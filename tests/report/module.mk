# tests/report: the SKMD_REPORT table (libskmd/support/report.c) and the decision log
# (libskmd/launch/decision_log.c).
TEST_REPORT := $(O)tests/report/test-report
ALL_TARGETS += $(TEST_REPORT)
CLEAN_FILES += $(TEST_REPORT) $(O)tests/report/out

$(O)tests/report/test-report.o: CPPFLAGS += -Ilibskmd
$(TEST_REPORT): $(O)tests/report/test-report.o $(O)libskmd/support/report.o $(O)libskmd/support/json.o \
  $(O)libskmd/support/config.o $(O)libskmd/support/config_warnings.o \
  $(O)libskmd/support/log.o $(O)libskmd/support/log_level.o \
  $(TEST_CHECK_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

TEST_TARGETS += test-report
.PHONY: test-report
test-report: $(TEST_REPORT)
	@$(TEST_REPORT) > /dev/null
	@out=$$(SKMD_REPORT=1 $(TEST_REPORT) --at-exit 2>&1) && grep -q '^at_exit_kernel .* 1/1 .*0.30/0.70' <<<"$$out" \
	  || { echo "FAIL test-report: no table at exit under SKMD_REPORT=1:"; echo "$$out"; exit 1; }
	@out=$$($(TEST_REPORT) --at-exit 2>&1) && [ -z "$$out" ] \
	  || { echo "FAIL test-report: a table without SKMD_REPORT:"; echo "$$out"; exit 1; }
	@tests/report/test-report-json.sh $(TEST_REPORT) $(O)tests/report/out
	@echo "PASS test-report"

# The decision log (SKMD_DECISIONS) of vector_add on two PoCL devices; under SAN=1 with
# ASan (tests/report/test-decisions.sh).
TEST_TARGETS += test-decisions
.PHONY: test-decisions
test-decisions: $(LIBSKMD_SO) $(SKMD_OPT) $(EXAMPLE_BINS)
	@env $(SKMD_SAN_ENV) tests/report/test-decisions.sh "$(SKMD_PRELOAD)" $(or $(O),.)
