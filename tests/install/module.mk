# tests/install: make install / make uninstall into a staging directory (tools/install.mk).
TEST_TARGETS += test-install
.PHONY: test-install
test-install: all
	@tests/install/test-install.sh $(abspath $(O)tests/install/stage) $(if $(filter 1,$(SAN)),SAN=1)
CLEAN_FILES += $(O)tests/install/stage

# libskmd as an installed ICD (no LD_PRELOAD): tests/install/test-icd-route.sh.
TEST_TARGETS += test-icd-route
.PHONY: test-icd-route
test-icd-route: all
	@$(SKMD_SAN_ENV) tests/install/test-icd-route.sh $(abspath $(O)tests/install/icd-scratch) "$(O)" $(if $(filter 1,$(SAN)),SAN=1)
CLEAN_FILES += $(O)tests/install/icd-scratch
