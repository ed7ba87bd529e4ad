# tools/skmd-run: runs a program under libskmd with SKMD_* controls set from flags.
SKMD_RUN := $(O)tools/skmd-run
ALL_TARGETS += $(SKMD_RUN)
CLEAN_FILES += $(SKMD_RUN)

$(O)tools/skmd-run.o: CPPFLAGS += -Ilibskmd
$(SKMD_RUN): $(O)tools/skmd-run.o \
  $(O)libskmd/support/config.o $(O)libskmd/support/config_warnings.o \
  $(O)libskmd/support/log.o $(O)libskmd/support/log_level.o
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread
