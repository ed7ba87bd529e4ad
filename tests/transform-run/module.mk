# tests/transform-run: partition-ready kernels on PoCL, byte for byte against the original.
TRANSFORM_RUN := $(O)tests/transform-run/subrange
TRANSFORM_RUN_CORPUS = $(sort $(wildcard tests/transform/corpus/*.cl))
ALL_TARGETS += $(TRANSFORM_RUN)
CLEAN_FILES += $(TRANSFORM_RUN)

$(TRANSFORM_RUN): $(O)tests/transform-run/subrange.o $(O)transform/libskmdrecord.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lOpenCL

# One CPU device with one compute unit: small, deterministic, and light on a shared machine.
TEST_TARGETS += test-transform-run
.PHONY: test-transform-run
test-transform-run: $(TRANSFORM_RUN) $(O)tools/skmd-opt
	@rm -rf $(O)tests/transform-run/cache
	POCL_DEVICES=pthread POCL_CPU_MAX_CU_NUM=1 $(TRANSFORM_RUN) --skmd-opt $(O)tools/skmd-opt \
	  --cache $(O)tests/transform-run/cache $(TRANSFORM_RUN_CORPUS)

TEST_TARGETS += test-skmd-opt-cli
.PHONY: test-skmd-opt-cli
test-skmd-opt-cli: $(O)tools/skmd-opt
	tests/transform-run/cli-check.sh $(O)tools/skmd-opt

# NVIDIA's own PTX of corpus kernels (tests/transform-run/native, recorded on the GPU
# machine) against skmd-opt's NVPTX lowering of the same source, both run in a small PTX
# interpreter: no GPU needed.
TEST_TARGETS += test-nvptx-sim
.PHONY: test-nvptx-sim
test-nvptx-sim: $(O)tools/skmd-opt
	/usr/bin/python3 tests/transform-run/nvptx-sim-check.py $(O)tools/skmd-opt tests/transform-run/native
