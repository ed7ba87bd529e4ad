# tests/conformance/: piglit's OpenCL tests natively and under libskmd (1 and 3 PoCL
# members), gated against a known-differences list; clpeak unchanged under libskmd.
#   make test-conformance-piglit   the gate subset (gate.list), part of `make test`
#   make conformance               piglit's whole `cl` profile, table under $(O)tests/conformance/
#   make conformance-doc           the same, and the table rewritten into docs/conformance.md
#   make test-conformance-clpeak   clpeak's quick tests, part of `make test`

CONFORMANCE_DIR := $(O)tests/conformance
CONFORMANCE_KNOWN := tests/conformance/known-differences.txt
# Under SAN=1 the ASan runtime comes first (SKMD_PRELOAD); piglit's own programs free
# little at exit, so leak checking stays off here (the other suites check libskmd's leaks).
CONFORMANCE_SAN := $(if $(filter 1,$(SAN)),ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0,)
CONFORMANCE_RUN = env $(CONFORMANCE_SAN) tests/conformance/piglit-conformance.py --preload "$(SKMD_PRELOAD)" \
	--known $(CONFORMANCE_KNOWN) --logs $(CONFORMANCE_DIR)/logs
CLEAN_FILES += $(CONFORMANCE_DIR)/logs $(CONFORMANCE_DIR)/gate.md $(CONFORMANCE_DIR)/full.md

TEST_TARGETS += test-conformance-gate test-conformance-piglit test-conformance-clpeak conformance-repro
.PHONY: test-conformance-gate test-conformance-piglit test-conformance-clpeak conformance conformance-doc

# The gate's own logic, on two tests (seconds).
test-conformance-gate: $(LIBSKMD_SO)
	@env $(CONFORMANCE_SAN) POCL_CPU_MAX_CU_NUM=1 tests/conformance/test-gate.sh "$(SKMD_PRELOAD)"

test-conformance-piglit: $(LIBSKMD_SO)
	@mkdir -p $(CONFORMANCE_DIR)
	@$(CONFORMANCE_RUN) --subset tests/conformance/gate.list --timeout 60 --markdown $(CONFORMANCE_DIR)/gate.md

conformance: $(LIBSKMD_SO)
	@mkdir -p $(CONFORMANCE_DIR)
	@$(CONFORMANCE_RUN) --markdown $(CONFORMANCE_DIR)/full.md

conformance-doc: $(LIBSKMD_SO)
	@mkdir -p $(CONFORMANCE_DIR)
	@$(CONFORMANCE_RUN) --markdown $(CONFORMANCE_DIR)/full.md --update-doc docs/conformance.md

test-conformance-clpeak: $(LIBSKMD_SO)
	@env $(CONFORMANCE_SAN) tests/conformance/test-clpeak.sh "$(SKMD_PRELOAD)"

# Minimal reproducers of the libskmd bugs piglit found (docs/conformance.md lists them).
# Each exits 0 when the bug is fixed; `make conformance-repro` (part of `make test`) runs
# them under libskmd, as regression tests.
CONFORMANCE_REPROS := $(patsubst tests/conformance/%.c,$(O)tests/conformance/%,$(wildcard tests/conformance/repro-*.c))
ALL_TARGETS += $(CONFORMANCE_REPROS)
CLEAN_FILES += $(CONFORMANCE_REPROS)
.PHONY: conformance-repro
$(O)tests/conformance/repro-%: tests/conformance/repro-%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -o $@ $< $(LDFLAGS) -lOpenCL

conformance-repro: $(CONFORMANCE_REPROS) $(LIBSKMD_SO)
	@fail=0; for r in $(CONFORMANCE_REPROS); do \
	  env $(SKMD_SAN_ENV) POCL_DEVICES="pthread pthread basic" POCL_CPU_MAX_CU_NUM=1 \
	    LD_PRELOAD="$(SKMD_PRELOAD)" $$r || fail=1; done; exit $$fail
