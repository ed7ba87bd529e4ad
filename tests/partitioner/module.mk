# tests/partitioner/: unit tests and the decision-time benchmark of partitioner/.
TEST_PARTITIONER_BIN := $(O)tests/partitioner/test_partitioner
BENCH_PARTITIONER_BIN := $(O)tests/partitioner/bench_partitioner
TEST_BALANCE_BIN := $(O)tests/partitioner/test_balance
TEST_LAUNCH_POLICY_BIN := $(O)tests/partitioner/test_launch_policy
ALL_TARGETS += $(TEST_PARTITIONER_BIN) $(BENCH_PARTITIONER_BIN) $(TEST_BALANCE_BIN) \
  $(TEST_LAUNCH_POLICY_BIN)
CLEAN_FILES += $(TEST_PARTITIONER_BIN) $(BENCH_PARTITIONER_BIN) $(TEST_BALANCE_BIN) \
  $(TEST_LAUNCH_POLICY_BIN)

$(O)tests/partitioner/%.o: CPPFLAGS += -Ipartitioner

$(TEST_PARTITIONER_BIN) $(BENCH_PARTITIONER_BIN) $(TEST_BALANCE_BIN) $(TEST_LAUNCH_POLICY_BIN): \
  %: %.o $(PARTITIONER_LIB) \
  $(TEST_CHECK_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lm

TEST_TARGETS += test-partitioner test-balance
BENCH_TARGETS += bench-partitioner
.PHONY: test-partitioner test-balance bench-partitioner
# The model and the decision cache (test_partitioner.c), the launch policy around them:
# cold start, probes, stickiness, the guard (test_launch_policy.c).
test-partitioner: $(TEST_PARTITIONER_BIN) $(TEST_LAUNCH_POLICY_BIN)
	$(TEST_PARTITIONER_BIN)
	$(TEST_LAUNCH_POLICY_BIN)
bench-partitioner: $(BENCH_PARTITIONER_BIN)
	$(BENCH_PARTITIONER_BIN)
# The partitioner's loop against simulated devices: finish times within 10% (test_balance.c).
test-balance: $(TEST_BALANCE_BIN)
	$(TEST_BALANCE_BIN)
