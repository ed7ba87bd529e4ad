# tests/stub-icd/: a fake OpenCL ICD (libskmdstub.so) with N configurable devices that logs
# every call, and the tests that check, from its log, which real calls libskmd makes.
STUB_DIR := $(O)tests/stub-icd
STUB_SO := $(STUB_DIR)/libskmdstub.so
STUB_VENDORS := $(STUB_DIR)/vendors
STUB_ICD := $(STUB_VENDORS)/stub.icd
STUB_SLOTS := $(STUB_DIR)/stub_slots.def
STUB_SRCS := $(wildcard tests/stub-icd/stub_*.c)
STUB_OBJS := $(STUB_SRCS:%.c=$(O)%.o)
STUB_APP := $(STUB_DIR)/stub_app
ALL_TARGETS += $(STUB_SO) $(STUB_ICD) $(STUB_APP)
CLEAN_FILES += $(STUB_SO) $(STUB_ICD) $(STUB_SLOTS) $(STUB_APP)

# Only the two ICD entry points are exported: the stub's own calls must never reach a
# cl* symbol that libskmd, preloaded, would interpose.
$(STUB_OBJS): CFLAGS += -fvisibility=hidden
$(STUB_OBJS): CPPFLAGS += -I$(STUB_DIR)
$(O)tests/stub-icd/stub_dispatch.o: $(STUB_SLOTS)

# One STUB_SLOT(name) line per member of cl_icd_dispatch, in the installed header's order.
$(STUB_SLOTS): /usr/include/CL/cl_icd.h
	@mkdir -p $(dir $@)
	sed -n '/typedef struct _cl_icd_dispatch/,/} cl_icd_dispatch;/p' $< | tr '\n' ' ' | \
	  grep -o 'cl_api_[A-Za-z0-9_]* *[A-Za-z0-9_]*;' | \
	  sed 's/^cl_api_\([A-Za-z0-9_]*\) .*/STUB_SLOT(\1)/' > $@.tmp && mv $@.tmp $@

$(STUB_SO): $(STUB_OBJS)
	$(CC) -shared -Wl,-Bsymbolic -o $@ $^ $(LDFLAGS) -lpthread

# ocl-icd reads OCL_ICD_VENDORS=<dir>/*.icd: one line, the library's path.
$(STUB_ICD): $(STUB_SO)
	@mkdir -p $(dir $@)
	echo "$(abspath $(STUB_SO))" > $@

$(STUB_APP): tests/stub-icd/app/stub_app.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -o $@ $< $(LDFLAGS) -lOpenCL

TEST_TARGETS += test-stub-icd
.PHONY: test-stub-icd
# SKMD_PRELOAD and SKMD_SAN_ENV come from tests/interposer/module.mk.
test-stub-icd: $(STUB_SO) $(STUB_ICD) $(STUB_APP) $(LIBSKMD_SO)
	@env $(SKMD_SAN_ENV) O="$(O)" PRELOAD_SKMD="$(SKMD_PRELOAD)" tests/stub-icd/run.sh
