# tests/bench/: bench/run.sh --merge on hand-made parts (bench/bench.py alone, no devices).
TEST_TARGETS += test-bench-merge
.PHONY: test-bench-merge
test-bench-merge:
	@tests/bench/test-merge.sh
