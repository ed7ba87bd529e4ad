# tests/device/: what the SKMD device offers as a device (tests/device/run.sh), under
# LD_PRELOAD on POCL_DEVICES="pthread pthread" and "pthread pthread basic":
#   memflags    a vendor memory flag the members take works, an unknown bit is refused
#   subdevices  clCreateSubDevices (EQUALLY, BY_COUNTS) and a launch on each sub-device
#   devinfo     vendor ID, conformance version, extensions against the members'
#   nocall      libskmd's exit line when a preloaded app makes no OpenCL call
# `make test-device` runs all.
DEVICE_NAMES := memflags subdevices devinfo nocall
DEVICE_BINS := $(DEVICE_NAMES:%=$(O)tests/device/%)
ALL_TARGETS += $(DEVICE_BINS)
CLEAN_FILES += $(DEVICE_BINS)

$(DEVICE_BINS): $(O)tests/device/%: tests/device/%.c $(TEST_CHECK_OBJ) $(CL_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -Itests/common -o $@ $< \
	  $(TEST_CHECK_OBJ) $(CL_TEST_OBJS) $(LDFLAGS) -lOpenCL

TEST_TARGETS += test-device
.PHONY: test-device
test-device: $(DEVICE_BINS) $(LIBSKMD_SO)
	@env $(SKMD_SAN_ENV) O="$(O)" PRELOAD_SKMD="$(SKMD_PRELOAD)" tests/device/run.sh
