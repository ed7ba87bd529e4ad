# tests/patterns/: kernel patterns of public OpenCL programs (a halo tile with a negative
# offset, a block compressor, a Viterbi step, local reductions, a radix sort pass, ...)
# natively and under libskmd with forced splits on two and three PoCL devices, both share
# routes, with and without zero-copy: every buffer byte-identical (tests/patterns/run.sh).
TEST_TARGETS += test-patterns
CLEAN_FILES += $(O)tests/patterns/out
.PHONY: test-patterns
test-patterns: $(LIBSKMD_SO) $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/patterns/run.sh "$(SKMD_PRELOAD)" $(O)tests/patterns/out
