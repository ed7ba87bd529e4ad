# Split coverage (tools/coverage/coverage.py): every kernel of the corpus (the transform
# corpus, the examples' programs, pyopencl's generated programs, kernels of installed Debian
# packages: piglit, hashcat), split-ready or why not, into docs/coverage.md. Several
# minutes: not part of `make test` (test-coverage-table checks the tabulating code).
#   COVERAGE_ARGS="--no-debian"  the repository's and pyopencl's kernels only
.PHONY: coverage
coverage: $(O)tools/skmd-opt $(LIBSKMD_SO) $(EXAMPLE_BINS)
	XDG_CACHE_HOME=$${XDG_CACHE_HOME:-/tmp/skmd-coverage-cache} POCL_CPU_MAX_CU_NUM=1 \
	  /usr/bin/python3 tools/coverage/coverage.py --skmd-opt $(O)tools/skmd-opt \
	  --libskmd $(LIBSKMD_SO) --examples $(O)examples -o docs/coverage.md $(COVERAGE_ARGS)

TEST_TARGETS += test-coverage-table
.PHONY: test-coverage-table
test-coverage-table:
	@/usr/bin/python3 tests/tools/test-coverage-table.py
