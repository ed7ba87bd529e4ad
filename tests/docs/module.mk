# tests/docs/: README.md, docs/ and bench/'s pages: links resolve, named paths exist, no
# commit hash, date or bench/history path in README.md or docs/, README.md at most 150 lines.
TEST_TARGETS += test-docs
.PHONY: test-docs
test-docs:
	@python3 tests/docs/check-docs.py
