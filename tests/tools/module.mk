# tests/tools: --help, --version and bad flags of every user tool, skmd-profile's and
# libskmd's one-line messages, SKMD_REPORT=json; skmd-info's members and --json.
TEST_TARGETS += test-tools
.PHONY: test-tools
test-tools: all
	@$(SKMD_SAN_ENV) tests/tools/test-tools.sh $(O)
