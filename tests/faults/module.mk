# tests/faults/: the app keeps working when its surroundings fail (docs/guarantees.md).
#   make test-faults-profiledb   the profile database corrupt, read-only (file, directory),
#                                locked by another process, on a full disk
FAULTS_SHIM := $(O)tests/faults/libenospc.so
ALL_TARGETS += $(FAULTS_SHIM)
CLEAN_FILES += $(FAULTS_SHIM)
$(FAULTS_SHIM): tests/faults/enospc_shim.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -o $@ $< -ldl

TEST_TARGETS += test-faults-profiledb
.PHONY: test-faults-profiledb
# Under SAN=1 leak checking is off here: the runs use fresh kernel caches, so PoCL runs
# its linker, which inherits the ASan preload and leaks at exit (other suites check leaks).
test-faults-profiledb: $(LIBSKMD_SO) $(O)examples/vector_add/vector_add $(O)tools/skmd-opt $(FAULTS_SHIM)
	@env $(if $(filter 1,$(SAN)),ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0,) \
	  tests/faults/test-profiledb-faults.sh "$(SKMD_PRELOAD)" \
	  $(O)examples/vector_add/vector_add $(FAULTS_SHIM)
