# tests/partitioner/: unit tests and the decision-time benchmark of partitioner/.
TEST_PARTITIONER_BIN := $(O)tests/partitioner/test_partitioner
BENCH_PARTITIONER_BIN := $(O)tests/partitioner/bench_partitioner
ALL_TARGETS += $(TEST_PARTITIONER_BIN) $(BENCH_PARTITIONER_BIN)
CLEAN_FILES += $(TEST_PARTITIONER_BIN) $(BENCH_PARTITIONER_BIN)

$(O)tests/partitioner/%.o: CPPFLAGS += -Ipartitioner

$(TEST_PARTITIONER_BIN) $(BENCH_PARTITIONER_BIN): %: %.o $(PARTITIONER_LIB) \
  $(TEST_CHECK_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lm

TEST_TARGETS += test-partitioner
BENCH_TARGETS += bench-partitioner
.PHONY: test-partitioner bench-partitioner
test-partitioner: $(TEST_PARTITIONER_BIN)
	$(TEST_PARTITIONER_BIN)
bench-partitioner: $(BENCH_PARTITIONER_BIN)
	$(BENCH_PARTITIONER_BIN)
