# tools/skmd-profile: list, show, export and clear the profile database; run an app with
# the profiling sweep; calibrate the links. (Its path, SKMD_PROFILE_BIN, is set in the top
# Makefile: the tests name it before this is read.)
ALL_TARGETS += $(SKMD_PROFILE_BIN)
CLEAN_FILES += $(SKMD_PROFILE_BIN)

# skmd-profile.c: the command line; skmd-profile-COMMAND.c: one command each; -common.c,
# -db.c and -table.c: the argument checks, the database access and the summary tables that
# the commands share.
SKMD_PROFILE_OBJS := $(O)tools/skmd-profile.o $(O)tools/skmd-profile-common.o \
  $(O)tools/skmd-profile-db.o \
  $(O)tools/skmd-profile-table.o $(O)tools/skmd-profile-list.o $(O)tools/skmd-profile-show.o \
  $(O)tools/skmd-profile-export.o $(O)tools/skmd-profile-clear.o $(O)tools/skmd-profile-run.o \
  $(O)tools/skmd-profile-calibrate.o
$(SKMD_PROFILE_OBJS): CPPFLAGS += -Iprofiledb -Ilibskmd

# calibrate reaches the OpenCL loader through dlopen, never through libskmd.
# libskmd's control parser: without --db, the database libskmd uses (SKMD_PROFILE_DB); its
# edit distance names the command a typo meant.
$(SKMD_PROFILE_BIN): $(SKMD_PROFILE_OBJS) $(PROFILEDB_LIB) $(O)libskmd/support/config.o \
  $(O)libskmd/support/config_warnings.o $(O)libskmd/support/log.o \
  $(O)libskmd/support/log_level.o $(O)libskmd/support/json.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(PROFILEDB_LDLIBS) -ldl -lm
