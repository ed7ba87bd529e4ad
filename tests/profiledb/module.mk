# tests/profiledb/: unit tests of profiledb/ (bad files, read-only, locks, several writers).
TEST_PROFILEDB_BIN := $(O)tests/profiledb/test_profiledb
ALL_TARGETS += $(TEST_PROFILEDB_BIN)
CLEAN_FILES += $(TEST_PROFILEDB_BIN)

$(O)tests/profiledb/%.o: CPPFLAGS += -Iprofiledb

$(TEST_PROFILEDB_BIN): %: %.o $(PROFILEDB_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(PROFILEDB_LDLIBS) -lm

TEST_TARGETS += test-profiledb
.PHONY: test-profiledb
test-profiledb: $(TEST_PROFILEDB_BIN)
	$(TEST_PROFILEDB_BIN)
