# tests/install: make install / make uninstall into a staging directory (tools/install.mk).
TEST_TARGETS += test-install
.PHONY: test-install
test-install: all
	@tests/install/test-install.sh $(abspath $(O)tests/install/stage) $(if $(filter 1,$(SAN)),SAN=1)
CLEAN_FILES += $(O)tests/install/stage
