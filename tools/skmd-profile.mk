# tools/skmd-profile: list, show, export and clear the profile database; run an app with
# the profiling sweep; calibrate the links.
SKMD_PROFILE_BIN := $(O)tools/skmd-profile
ALL_TARGETS += $(SKMD_PROFILE_BIN)
CLEAN_FILES += $(SKMD_PROFILE_BIN)

SKMD_PROFILE_OBJS := $(O)tools/skmd-profile.o $(O)tools/skmd-profile-run.o \
  $(O)tools/skmd-profile-calibrate.o
$(SKMD_PROFILE_OBJS): CPPFLAGS += -Iprofiledb

# calibrate reaches the OpenCL loader through dlopen, never through libskmd.
$(SKMD_PROFILE_BIN): $(SKMD_PROFILE_OBJS) $(PROFILEDB_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(PROFILEDB_LDLIBS) -ldl -lm
