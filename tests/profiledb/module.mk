# tests/profiledb/: unit tests of profiledb/ (bad files, read-only, locks, several writers).
TEST_PROFILEDB_BIN := $(O)tests/profiledb/test_profiledb
TEST_PDB_GUARD_BIN := $(O)tests/profiledb/test_pdb_guard
TEST_PDB_HOST_BIN := $(O)tests/profiledb/test_pdb_host
TEST_PDB_OFFSET_BIN := $(O)tests/profiledb/test_pdb_offset
PROFILEDB_FIXTURE_BIN := $(O)tests/profiledb/make_fixture
ALL_TARGETS += $(TEST_PROFILEDB_BIN) $(TEST_PDB_GUARD_BIN) $(TEST_PDB_HOST_BIN) \
  $(TEST_PDB_OFFSET_BIN) $(PROFILEDB_FIXTURE_BIN)
CLEAN_FILES += $(TEST_PROFILEDB_BIN) $(TEST_PDB_GUARD_BIN) $(TEST_PDB_HOST_BIN) \
  $(TEST_PDB_OFFSET_BIN) $(PROFILEDB_FIXTURE_BIN)

$(O)tests/profiledb/%.o: CPPFLAGS += -Iprofiledb

$(TEST_PROFILEDB_BIN) $(TEST_PDB_GUARD_BIN) $(TEST_PDB_HOST_BIN) $(TEST_PDB_OFFSET_BIN): %: %.o \
  $(O)tests/profiledb/pdb_test.o $(PROFILEDB_LIB) $(TEST_CHECK_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(PROFILEDB_LDLIBS) -lm

$(PROFILEDB_FIXTURE_BIN): %: %.o $(PROFILEDB_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(PROFILEDB_LDLIBS) -lm

TEST_TARGETS += test-profiledb
.PHONY: test-profiledb
test-profiledb: $(TEST_PROFILEDB_BIN)
	$(TEST_PROFILEDB_BIN)

# Guard states: round trip, device lists, age, the upgrade of version 1, 2 and 3 files, a
# read-only version 3 file.
TEST_TARGETS += test-profiledb-guard
.PHONY: test-profiledb-guard
test-profiledb-guard: $(TEST_PDB_GUARD_BIN)
	$(TEST_PDB_GUARD_BIN)

# Host rates: round trip, device lists, age, malformed rows, the upgrade of a version 2 file.
TEST_TARGETS += test-profiledb-host
.PHONY: test-profiledb-host
test-profiledb-host: $(TEST_PDB_HOST_BIN)
	$(TEST_PDB_HOST_BIN)

# Finish offsets: round trip, device lists, malformed rows, the upgrade of a version 4 file,
# a read-only version 4 file.
TEST_TARGETS += test-profiledb-offset
.PHONY: test-profiledb-offset
test-profiledb-offset: $(TEST_PDB_OFFSET_BIN)
	$(TEST_PDB_OFFSET_BIN)

# skmd-profile against a database written by make_fixture. The tool is named by its path:
# tools/ is included after tests/, so SKMD_PROFILE_BIN is still empty here.
TEST_TARGETS += test-skmd-profile
.PHONY: test-skmd-profile
test-skmd-profile: $(O)tools/skmd-profile $(PROFILEDB_FIXTURE_BIN)
	tests/profiledb/test_skmd_profile.sh $(SKMD_PROFILE_BIN) $(PROFILEDB_FIXTURE_BIN)
