# tools/skmd-profile: list, show, export and clear the profile database.
SKMD_PROFILE_BIN := $(O)tools/skmd-profile
ALL_TARGETS += $(SKMD_PROFILE_BIN)
CLEAN_FILES += $(SKMD_PROFILE_BIN)

$(O)tools/skmd-profile.o: CPPFLAGS += -Iprofiledb

$(SKMD_PROFILE_BIN): $(O)tools/skmd-profile.o $(PROFILEDB_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(PROFILEDB_LDLIBS)
