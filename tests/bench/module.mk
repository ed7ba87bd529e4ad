# tests/bench/: bench/run.sh --merge on hand-made parts (bench/bench.py alone, no devices), and --balance on two PoCL devices.
TEST_TARGETS += test-bench-merge
.PHONY: test-bench-merge
test-bench-merge:
	@tests/bench/test-merge.sh

# bench/run.sh --balance: one traced run per column, its split launches' balance.
TEST_TARGETS += test-bench-balance
.PHONY: test-bench-balance
test-bench-balance: $(LIBSKMD_SO) $(O)tools/skmd-trace $(O)examples/vector_add/vector_add $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/bench/test-balance.sh "$(SKMD_PRELOAD)" $(O)examples \
	  $(O)tests/bench/out/balance
CLEAN_FILES += $(O)tests/bench/out
