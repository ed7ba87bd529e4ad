# tests/api/: OpenCL programs (linked with -lOpenCL only) that print what an app relies on.
# Each runs natively on PoCL and under libskmd, with one and with three PoCL devices; the
# outputs must be identical.  `make test-api` runs all, `make test-api-NAME` one.
API_NAMES := $(sort $(basename $(notdir $(filter-out tests/api/api_common.c,$(wildcard tests/api/*.c)))))
API_BINS := $(API_NAMES:%=$(O)tests/api/%)
API_CFLAGS := $(filter-out -DCL_TARGET_OPENCL_VERSION=%,$(CFLAGS)) -DCL_TARGET_OPENCL_VERSION=120
ALL_TARGETS += $(API_BINS)
CLEAN_FILES += $(API_BINS) $(O)tests/api/api_common.o

$(O)tests/api/api_common.o: tests/api/api_common.c tests/api/api_common.h
	@mkdir -p $(dir $@)
	$(CC) $(API_CFLAGS) -c $< -o $@

$(O)tests/api/%: tests/api/%.c tests/api/api_common.h $(O)tests/api/api_common.o
	@mkdir -p $(dir $@)
	$(CC) $(API_CFLAGS) -o $@ $< $(O)tests/api/api_common.o $(LDFLAGS) -lOpenCL

TEST_TARGETS += test-api
.PHONY: test-api
# SKMD_PRELOAD and SKMD_SAN_ENV come from tests/interposer/module.mk.
test-api: $(API_BINS) $(LIBSKMD_SO)
	@env $(SKMD_SAN_ENV) O="$(O)" PRELOAD_SKMD="$(SKMD_PRELOAD)" tests/api/run.sh $(API_NAMES)

test-api-%: $(O)tests/api/% $(LIBSKMD_SO)
	@env $(SKMD_SAN_ENV) O="$(O)" PRELOAD_SKMD="$(SKMD_PRELOAD)" tests/api/run.sh $*
