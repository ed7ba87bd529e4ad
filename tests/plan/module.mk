# tests/plan/: the partitioner in the runtime (libskmd/plan*.c) on local PoCL devices:
# forced tables, the equal policy, single mode, convergence of refinement, skmd-profile
# run/calibrate, a corrupt database, every example and the adversarial launches, the cold
# start's probes, lone shares, the timing of multi-box shares, the measured guard, learnt
# link curves and probes of idle members, the guard's state kept across processes
# (tests/plan/test-plan.sh).
PLAN_TEST_PARTS := decide converge profile corrupt examples cold observe guard learn guardkeep
TEST_TARGETS += $(PLAN_TEST_PARTS:%=test-plan-%)
.PHONY: $(PLAN_TEST_PARTS:%=test-plan-%)

$(PLAN_TEST_PARTS:%=test-plan-%): test-plan-%: $(LIBSKMD_SO) $(SKMD_OPT) $(SKMD_PROFILE_BIN) \
  $(EXAMPLE_BINS) $(O)tests/split/adversarial $(O)tests/split/moved
	@env $(SKMD_SAN_ENV) tests/plan/test-plan.sh $* "$(SKMD_PRELOAD)" $(or $(O),.)

# libskmd/plan/host_busy.c alone: how much of a transfer window shares on the host's cores took.
TEST_HOST_BUSY := $(O)tests/plan/test_host_busy
ALL_TARGETS += $(TEST_HOST_BUSY)
CLEAN_FILES += $(TEST_HOST_BUSY)
$(O)tests/plan/test_host_busy.o: CPPFLAGS += -Ilibskmd
$(TEST_HOST_BUSY): $(O)tests/plan/test_host_busy.o $(O)libskmd/plan/host_busy.o $(TEST_CHECK_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread -lm
TEST_TARGETS += test-host-busy
.PHONY: test-host-busy
test-host-busy: $(TEST_HOST_BUSY)
	$(TEST_HOST_BUSY)

# libskmd/plan/placement_cycle.c alone: where a sample of the placement's guard ends.
TEST_PLACEMENT_CYCLE := $(O)tests/plan/test_placement_cycle
ALL_TARGETS += $(TEST_PLACEMENT_CYCLE)
CLEAN_FILES += $(TEST_PLACEMENT_CYCLE)
$(O)tests/plan/test_placement_cycle.o: CPPFLAGS += -Ilibskmd
$(TEST_PLACEMENT_CYCLE): $(O)tests/plan/test_placement_cycle.o $(O)libskmd/plan/placement_cycle.o \
  $(TEST_CHECK_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^
TEST_TARGETS += test-placement-cycle
.PHONY: test-placement-cycle
test-placement-cycle: $(TEST_PLACEMENT_CYCLE)
	$(TEST_PLACEMENT_CYCLE)
