# tests/clients/: real OpenCL clients, unchanged, under libskmd: pyopencl (its array,
# reduction, scan and elementwise kernels and a user kernel, checked against numpy) and
# clinfo.  `make test-clients` runs both; test-clients-pyopencl / test-clients-clinfo one.
TEST_TARGETS += test-clients
CLEAN_FILES += $(O)tests/clients/out
.PHONY: test-clients test-clients-pyopencl test-clients-clinfo
test-clients: test-clients-pyopencl test-clients-clinfo

# SKMD_PRELOAD and SKMD_SAN_ENV come from tests/interposer/module.mk.
test-clients-pyopencl test-clients-clinfo: test-clients-%: $(LIBSKMD_SO)
	@env $(SKMD_SAN_ENV) O="$(O)" PRELOAD_SKMD="$(SKMD_PRELOAD)" tests/clients/run.sh $*
